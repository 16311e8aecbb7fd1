import BLE
import Capture
import Host
import LinuxBluetooth
import VirtualRadio

/// blectl's `--transport` words: which controller a command drives, and in which mode.
///
/// - `kernel:hciN`: kernel mode (the kernel owns hciN; blectl uses its sockets). The default.
/// - `user:hciN`: host mode on hciN's HCI user channel (the adapter is taken down first; needs
///   CAP_NET_ADMIN and no bluetoothd holding it).
/// - `h4:/dev/ttyX[@BAUD][,rtscts]`: host mode on a UART controller speaking H4 (default
///   1000000 baud, no flow control).
/// - `tcp:HOST:PORT`: host mode on a controller served as H4 over TCP (`blectl
///   virtual-controller`, Bumble, an HCI bridge).
/// - `virtual`: host mode on an in-process virtual controller, alone on its radio.
enum TransportChoice: Equatable, CustomStringConvertible {
    case kernel(hci: UInt16)
    case user(hci: UInt16)
    case serial(path: String, baudRate: Int, rtscts: Bool)
    case tcp(host: String, port: UInt16)
    case virtual

    /// The words `--transport` takes, for messages.
    static let forms = Transport.forms

    /// Parses one `--transport` word, with the BLE API's parser (``Transport/init(_:)``).
    ///
    /// - Throws: ``KernelContext/Failure`` naming the forms.
    init(parsing text: String) throws(KernelContext.Failure) {
        let parsed: Transport
        do {
            parsed = try Transport(text)
        } catch {
            throw KernelContext.Failure("--transport takes \(Self.forms); got '\(text)'")
        }
        switch parsed {
        case .kernel(let hci): self = .kernel(hci: hci)
        case .userChannel(let hci): self = .user(hci: hci)
        case let .serial(path, baudRate, flowControl): self = .serial(path: path, baudRate: baudRate, rtscts: flowControl == .rtsCts)
        case let .tcp(host, port): self = .tcp(host: host, port: port)
        case .virtual: self = .virtual
        }
    }

    /// The adapter index of "hciN" or "N", 0...65534 (``Transport/adapterIndex(_:)``); nil for
    /// anything else. `--hci` takes the same words.
    static func adapterIndex(_ word: Substring) -> UInt16? { Transport.adapterIndex(word) }

    /// Whether this process owns the controller (host mode).
    var isHostMode: Bool {
        if case .kernel = self { return false }
        return true
    }

    /// The word, as given.
    var description: String {
        switch self {
        case .kernel(let hci): return "kernel:hci\(hci)"
        case .user(let hci): return "user:hci\(hci)"
        case let .serial(path, baud, rtscts): return "h4:\(path)@\(baud)\(rtscts ? ",rtscts" : "")"
        case let .tcp(host, port): return "tcp:\(host):\(port)"
        case .virtual: return "virtual"
        }
    }

    /// Opens the transport of a host-mode choice, with `--capture` wrapped around it.
    ///
    /// - Throws: ``KernelContext/Failure`` with the transport's error and its remedy.
    func open(capture: String?) async throws(KernelContext.Failure) -> (transport: any HCITransport, radio: VirtualRadio?) {
        var radio: VirtualRadio?
        var transport: any HCITransport
        do {
            switch self {
            case .kernel:
                throw KernelContext.Failure("kernel mode has no host-mode transport")
            case .user(let hci):
                transport = try HCIUserChannelTransport(adapter: hci)
            case let .serial(path, baud, rtscts):
                let configuration: SerialPortConfiguration
                do { configuration = try SerialPortConfiguration(path: path, baudRate: baud, flowControl: rtscts ? .rtsCts : .none) } catch {
                    throw KernelContext.Failure("\(error)")
                }
                transport = try H4StreamTransport.open(serial: configuration)
            case let .tcp(host, port):
                transport = try await H4StreamTransport.connect(host: host, port: port)
            case .virtual:
                let alone = VirtualRadio()
                radio = alone
                transport = alone.makeController().attach()
            }
        } catch let failure as KernelContext.Failure {
            throw failure
        } catch {
            throw KernelContext.Failure("\(description): \(error)")
        }
        if let capture {
            do { transport = try CapturingHCITransport(wrapping: transport, path: capture) } catch {
                await transport.close()
                throw KernelContext.Failure("--capture: \(error)")
            }
        }
        return (transport, radio)
    }
}
