import BLE
import Capture
import Host
import LinuxBluetooth
import VirtualRadio

/// A host-mode stack for the commands that are not clients of the BLE API yet (`serve` in host
/// mode, `scan` in host mode): the transport `--transport` chose (with `--capture` around it),
/// brought up by ``HostStack``.
struct HostModeSession {
    let stack: HostStack

    /// Opens the transport and brings the controller up.
    ///
    /// - Throws: ``KernelContext/Failure`` naming the transport and what failed.
    /// - Parameter attMTU: the Rx MTU the links' ATT bearers offer, in octets.
    static func open(_ context: KernelContext, attMTU: UInt16 = 517) async throws(KernelContext.Failure) -> HostModeSession {
        let (transport, executor) = try await openTransport(context.transport, capture: context.capture)
        do {
            let stack = try await HostStack.start(on: transport, configuration: LEConnectionManager.Configuration(attMTU: attMTU),
                                                  executor: executor)
            return HostModeSession(stack: stack)
        } catch {
            await transport.close()
            throw KernelContext.Failure("\(context.transport): \(error)")
        }
    }

    /// Ends the links, the flow and the transport.
    func close() async {
        await stack.close()
    }

    /// Opens the HCI transport of a host-mode `transport`, with `--capture` wrapped around it,
    /// and, for an H4 stream (serial or TCP), the executor whose thread reads it and runs the
    /// stack (nil for the others: their stack runs on the cooperative pool).
    ///
    /// - Throws: ``KernelContext/Failure`` with the transport's error and its remedy.
    static func openTransport(_ transport: Transport, capture: String?) async throws(KernelContext.Failure)
        -> (transport: any HCITransport, executor: HostExecutor?) {
        var opened: any HCITransport
        var executor: HostExecutor?
        do {
            switch transport {
            case .kernel:
                throw KernelContext.Failure("kernel mode has no host-mode transport")
            case .userChannel(let hci):
                opened = try HCIUserChannelTransport(adapter: hci)
            case let .serial(path, baud, flowControl):
                let configuration: SerialPortConfiguration
                do {
                    configuration = try SerialPortConfiguration(path: path, baudRate: baud, flowControl: flowControl == .rtsCts ? .rtsCts : .none)
                } catch {
                    throw KernelContext.Failure("\(error)")
                }
                executor = HostExecutor(name: "blectl \(path)")
                opened = try H4StreamTransport.open(serial: configuration, executor: executor)
            case let .tcp(host, port):
                executor = HostExecutor(name: "blectl tcp:\(port)")
                opened = try await H4StreamTransport.connect(host: host, port: port, executor: executor)
            case .virtual(let radio):
                opened = radio.makeController().attach()
            }
        } catch let failure as KernelContext.Failure {
            throw failure
        } catch {
            throw KernelContext.Failure("\(transport): \(error)")
        }
        if let capture {
            do { opened = try CapturingHCITransport(wrapping: opened, path: capture) } catch {
                await opened.close()
                throw KernelContext.Failure("--capture: \(error)")
            }
        }
        return (opened, executor)
    }
}
