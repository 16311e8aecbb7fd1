import BLECore
import Foundation
import Host
import LinuxBluetooth
import VirtualRadio

#if canImport(Glibc)
import Glibc
#endif

/// Opens the HCI transport of a host-mode ``Transport`` and names, as a ``ManagerState`` and a
/// ``BLEError``, why it could not.
enum HostTransportOpening {
    /// What was opened: the transport, the clock its timeouts run on, and how long an HCI
    /// command may wait for its answer.
    struct Opened: Sendable {
        var transport: any HCITransport
        var clock: any Clock<Duration>
        /// 2 s (``HCICommandFlow/defaultCommandTimeout``) for a real controller; 30 s of radio
        /// time for a virtual one, which answers every command at once at its current time, so
        /// that only a host that falls behind a fast-paced radio could time out.
        var commandTimeout: Duration = HCICommandFlow.defaultCommandTimeout
        /// The thread that reads an H4 stream (serial or TCP) and runs the stack on it; nil for
        /// the other transports, whose stack runs on the cooperative pool.
        var executor: HostExecutor?
        /// The static random address to set when the controller has no public one: a virtual
        /// controller's seeded address (``VirtualController/staticRandomAddress``), so runs
        /// repeat; nil: bring-up draws one from the system's generator.
        var staticRandomAddress: BluetoothAddress?
    }

    /// Opens `transport` (host mode only).
    ///
    /// - Throws: ``BackendFailure``: ``ManagerState/unsupported`` for a missing device or address
    ///   (and for kernel mode, which ``KernelModeBackend`` opens); ``ManagerState/unauthorized`` for EPERM,
    ///   EACCES and EBUSY; ``ManagerState/poweredOff`` for ERFKILL and ENETDOWN.
    static func open(_ transport: Transport) async throws(BackendFailure) -> Opened {
        do {
            switch transport {
            case .kernel(let hci):
                throw BackendFailure(state: .unsupported, error: .invalidArgument(
                    "kernel mode (hci\(hci)) is KernelModeBackend's, not a host-mode transport"))
            case .userChannel(let hci):
                return Opened(transport: try HCIUserChannelTransport(adapter: hci), clock: ContinuousClock())
            case let .serial(path, baudRate, flowControl):
                let configuration: SerialPortConfiguration
                do {
                    configuration = try SerialPortConfiguration(path: path, baudRate: baudRate,
                                                                flowControl: flowControl == .rtsCts ? .rtsCts : .none)
                } catch {
                    throw BackendFailure(state: .unsupported, error: .invalidArgument(error.description))
                }
                let executor = HostExecutor(name: "BLE \(path)")
                return Opened(transport: try H4StreamTransport.open(serial: configuration, executor: executor),
                              clock: ContinuousClock(), executor: executor)
            case let .tcp(host, port):
                let executor = HostExecutor(name: "BLE tcp:\(port)")
                return Opened(transport: try await H4StreamTransport.connect(host: host, port: port, executor: executor),
                              clock: ContinuousClock(), executor: executor)
            case .virtual(let radio):
                let controller = radio.makeController()
                return Opened(transport: controller.attach(), clock: radio.clock, commandTimeout: .seconds(30),
                              staticRandomAddress: controller.staticRandomAddress)
            }
        } catch let failure as BackendFailure {
            throw failure
        } catch let error as LinuxBluetoothError {
            throw failure(error, transport: transport)
        } catch {
            throw BackendFailure(state: .unsupported, error: .unsupported("\(transport): \(error)"))
        }
    }

    /// The state and error for a system call that failed while opening `transport`.
    static func failure(_ error: LinuxBluetoothError, transport: Transport) -> BackendFailure {
        let text = "\(transport): \(error)"
        switch error.code {
        case EPERM, EACCES, EBUSY:
            return BackendFailure(state: .unauthorized, error: .unauthorized(text))
        case ERFKILL, ENETDOWN:
            return BackendFailure(state: .poweredOff, error: .poweredOff)
        default:
            return BackendFailure(state: .unsupported, error: .unsupported(text))
        }
    }

    /// The state and error for a bring-up that failed on an open transport.
    static func failure(_ error: ControllerBringUpError, transport: Transport) -> BackendFailure {
        BackendFailure(state: .unsupported, error: .unsupported("\(transport): \(error)"))
    }
}
