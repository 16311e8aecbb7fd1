import Foundation
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
    static let forms = "kernel:hciN, user:hciN, h4:/dev/ttyX[@BAUD][,rtscts], tcp:HOST:PORT or virtual"

    /// Parses one `--transport` word.
    ///
    /// - Throws: ``KernelContext/Failure`` naming the forms.
    init(parsing text: String) throws(KernelContext.Failure) {
        let adapter = Self.adapterIndex
        let bad = KernelContext.Failure("--transport takes \(Self.forms); got '\(text)'")
        if text == "virtual" { self = .virtual; return }
        guard let colon = text.firstIndex(of: ":") else { throw bad }
        let kind = text[..<colon], rest = text[text.index(after: colon)...]
        switch kind {
        case "kernel":
            guard let index = adapter(rest) else { throw bad }
            self = .kernel(hci: index)
        case "user":
            guard let index = adapter(rest) else { throw bad }
            self = .user(hci: index)
        case "h4":
            var path = rest, baud = 1_000_000, rtscts = false
            if let comma = path.firstIndex(of: ",") {
                guard path[path.index(after: comma)...] == "rtscts" else { throw bad }
                rtscts = true
                path = path[..<comma]
            }
            if let at = path.firstIndex(of: "@") {
                guard let rate = Int(path[path.index(after: at)...]) else { throw bad }
                baud = rate
                path = path[..<at]
            }
            guard path.hasPrefix("/") else { throw bad }
            self = .serial(path: String(path), baudRate: baud, rtscts: rtscts)
        case "tcp":
            guard let last = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: last)...]), port > 0 else { throw bad }
            let host = rest[..<last].trimmingCharacters(in: ["[", "]"])
            guard !host.isEmpty else { throw bad }
            self = .tcp(host: String(host), port: port)
        default:
            throw bad
        }
    }

    /// The adapter index of "hciN" or "N", 0...65534 (0xFFFF is HCI_DEV_NONE, "no adapter", to
    /// the kernel); nil for anything else. `--hci` takes the same words.
    static func adapterIndex(_ word: Substring) -> UInt16? {
        let digits = word.hasPrefix("hci") ? word.dropFirst(3) : word
        guard let index = UInt16(digits), index < 0xFFFF else { return nil }
        return index
    }

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
