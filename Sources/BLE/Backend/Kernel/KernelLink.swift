import ATT
import BLECore
import HCI
import Host
import LinuxBluetooth
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One LE link in kernel mode: the kernel's L2CAP socket on the ATT fixed channel (CID 0x0004,
/// Core v5.4, Vol 3, Part A, 2.1) as the bearer, and the link's HCI connection handle, through
/// which the raw HCI channel reads its RSSI, ends it, and learns the Reason it ended with.
///
/// The link ends when the kernel closes the socket. Its Reason is the Disconnection Complete's
/// (Vol 4, Part E, 7.7.5), which the raw channel carries before the kernel closes the socket;
/// when that event did not reach the backend (the adapter was powered down, so no controller
/// answered), the Reason is read back from the socket's errno (``KernelErrno/reason(_:)``).
final class KernelLink: BackendLink {
    let peerAddress: BluetoothAddress
    let peerAddressType: LEAddressType
    /// The HCI connection handle (L2CAP_CONNINFO), nil when the kernel would not say (the link
    /// dropped before it was asked).
    let handle: UInt16?

    private let bearer: SocketATTBearer
    private let backend: KernelModeBackend
    private let end = OneShot<HCIStatus>()

    var attBearer: any ATTBearer { bearer }
    var connectionHandle: UInt16? { handle }
    /// The kernel keeps the link's parameters; its sockets do not tell them.
    var connectionParameters: LEConnectionState? { nil }
    var disconnectionReason: HCIStatus? { end.value }

    /// A link on `bearer`, connected to or from `peerAddress`; it starts watching the socket's end.
    init(bearer: SocketATTBearer, peerAddress: BluetoothAddress, peerAddressType: LEAddressType, backend: KernelModeBackend) {
        self.bearer = bearer
        self.peerAddress = peerAddress
        self.peerAddressType = peerAddressType
        self.backend = backend
        handle = bearer.connectionHandle
        let identity = ObjectIdentifier(self)
        Task { [bearer, backend, end, handle] in
            let error = await bearer.ended()
            if end.value == nil {
                end.resolve(await backend.reasonAfterSocketEnd(handle: handle, error: error, known: { end.value }))
            }
            if let handle { backend.forget(handle, link: identity) }
        }
    }

    /// The link's Disconnection Complete arrived on the raw channel with `reason`.
    func dropped(_ reason: HCIStatus) {
        end.resolve(reason)
    }

    func disconnected() async -> HCIStatus { await end.wait() }

    /// HCI_Disconnect with Remote User Terminated Connection (Vol 4, Part E, 7.1.6) on the raw
    /// channel, so that the peer hears LL_TERMINATE_IND at once; then the socket is closed (on
    /// its own that only drops the kernel's reference, and the kernel ends an idle LE link a
    /// few seconds later). Waits for the end.
    func terminate() async {
        if end.value == nil, let handle {
            await backend.disconnect(handle: handle)
        }
        await bearer.close()
        _ = await end.wait()
    }

    /// HCI_Read_RSSI (Vol 4, Part E, 7.5.4) on the raw channel, in dBm.
    ///
    /// - Throws: ``BLEError/disconnected(_:)`` once the link has ended;
    ///   ``BLEError/unsupported(_:)`` when the kernel gave no connection handle;
    ///   ``BLEError/controllerError(_:)`` when the controller refuses.
    func signalStrength() async throws(BLEError) -> Int {
        if let reason = end.value { throw .disconnected(reason) }
        guard let handle else { throw .unsupported("the kernel gave no connection handle for the link to \(peerAddress)") }
        do {
            return Int(try await backend.flow.send(HCIReadRSSI(handle: handle)).rssi)
        } catch {
            if let reason = end.value { throw .disconnected(reason) }
            throw .controllerError("reading the RSSI of the link to \(peerAddress): \(error)")
        }
    }
}

/// The kernel's errno for an L2CAP socket whose link failed or ended, read back as the HCI error
/// code it came from. The kernel turns the Disconnection Complete Reason, or a failed LE
/// Connection Complete's Status, into the socket's errno (net/bluetooth/lib.c, bt_to_errno), and
/// that mapping is many to one, so this gives the most common code for each errno.
enum KernelErrno {
    /// The HCI error code (Core v5.4, Vol 1, Part F, 1.3) behind `errno`, or nil when none
    /// stands out.
    static func reason(_ errno: Int32) -> HCIStatus? {
        switch errno {
        case ETIMEDOUT: return .connectionTimeout                           // 0x08 (also 0x22, 0x10)
        case ECONNRESET: return .remoteUserTerminatedConnection             // 0x13, 0x14, 0x15
        case ECONNABORTED: return .connectionTerminatedByLocalHost          // 0x16
        case EACCES: return .authenticationFailure                          // 0x05, 0x18
        case EBADE: return .pinOrKeyMissing                                 // 0x06
        case EHOSTDOWN: return .pageTimeout                                 // 0x04
        case ECONNREFUSED: return .connectionRejectedLimitedResources      // 0x0D, 0x0E, 0x0F
        case EMLINK: return .connectionLimitExceeded                        // 0x09
        case EALREADY: return .connectionAlreadyExists                      // 0x0B
        case EBUSY: return .commandDisallowed                               // 0x0C
        default: return nil
        }
    }
}
