import BLE
import Foundation

/// What `scan`, `serve` and `demo` do before they use a manager of the BLE API: kernel mode's
/// adapter powered on (``KernelContext/adapter()``, which the API leaves to the administrator),
/// the options from the global ones (`--capture`), and the wait for bring-up to settle.
enum ManagerStartup {
    /// The options of a command's manager: `--capture` as its capture file, and `deviceName`
    /// (a peripheral manager's GAP Device Name).
    static func options(_ context: KernelContext, deviceName: String = ManagerOptions.defaultDeviceName) -> ManagerOptions {
        ManagerOptions(captureFile: context.capture.map { URL(fileURLWithPath: $0) }, deviceName: deviceName)
    }

    /// Waits until `states` (a manager's ``CentralManager/stateUpdates`` or
    /// ``PeripheralManager/stateUpdates``) leaves ``ManagerState/unknown``, and returns that state.
    static func settled(_ states: AsyncStream<ManagerState>) async -> ManagerState {
        for await state in states where state != .unknown { return state }
        return .poweredOff
    }

    /// The sentence for a BLE API error in a command's message: the text itself for the errors
    /// that carry one (what the transport, the controller or the system said), the error's own
    /// description otherwise.
    static func sentence(_ error: BLEError) -> String {
        switch error {
        case .unsupported(let text), .unauthorized(let text), .controllerError(let text), .invalidArgument(let text): return text
        default: return error.description
        }
    }
}
