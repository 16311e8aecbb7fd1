@testable import BLE
import HCI
import LinuxBluetooth
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Kernel mode's translations of what the kernel says: a link's errno back to the HCI Reason it
/// came from, a failed connect to a BLEError, and a refused open to a manager state.
@Suite("Kernel mode mappings")
struct KernelModeMappingTests {
    @Test("a socket's errno gives back the Disconnection Complete Reason the kernel made it from")
    func errnoToReason() {
        #expect(KernelErrno.reason(ETIMEDOUT) == .connectionTimeout)
        #expect(KernelErrno.reason(ECONNRESET) == .remoteUserTerminatedConnection)
        #expect(KernelErrno.reason(ECONNABORTED) == .connectionTerminatedByLocalHost)
        #expect(KernelErrno.reason(EACCES) == .authenticationFailure)
        #expect(KernelErrno.reason(EBADE) == .pinOrKeyMissing)
        #expect(KernelErrno.reason(ENOSYS) == nil)
    }

    @Test("a connect that timed out, was cancelled, or met a down adapter throws the matching BLEError")
    func connectErrors() {
        func error(_ code: Int32) -> BLEError {
            KernelModeBackend.connectionError(LinuxBluetoothError(.l2cap("connecting"), code: code), ended: nil)
        }
        #expect(error(ETIMEDOUT) == .connectionTimeout)
        #expect(error(ECANCELED) == .cancelled)
        #expect(error(ENETDOWN) == .poweredOff)
        #expect(error(ECONNREFUSED) == .connectionFailed(.connectionRejectedLimitedResources))
        guard case .controllerError(let text) = error(ENOSYS) else {
            Issue.record("ENOSYS gave \(error(ENOSYS))")
            return
        }
        #expect(text.contains("connecting"))
        let ended = BackendEnd(states: [.poweredOff], error: .poweredOff)
        #expect(KernelModeBackend.connectionError(LinuxBluetoothError(.l2cap("connecting"), code: ETIMEDOUT), ended: ended) == .poweredOff)
    }

    @Test("EPERM on the raw channel is unauthorized and names CAP_NET_RAW; EADDRINUSE on the ATT listener names bluetoothd")
    func openFailures() {
        let refused = KernelModeOpening.failure(LinuxBluetoothError(.bindHCI(index: 0, channel: 0), code: EPERM), hci: 0)
        #expect(refused.state == .unauthorized)
        guard case .unauthorized(let why) = refused.error else {
            Issue.record("EPERM gave \(refused.error)")
            return
        }
        #expect(why.contains("CAP_NET_RAW"))
        let held = KernelModeOpening.listenerFailure(LinuxBluetoothError(.l2cap("listening"), code: EADDRINUSE), hci: 1)
        #expect(held.state == .unauthorized)
        guard case .unauthorized(let holder) = held.error else {
            Issue.record("EADDRINUSE gave \(held.error)")
            return
        }
        #expect(holder.contains("bluetoothd") && holder.contains("hci1"))
        #expect(KernelModeOpening.failure(LinuxBluetoothError(.bindHCI(index: 0, channel: 0), code: ERFKILL), hci: 0).state == .poweredOff)
    }
}
