import ATT
import BLECore
import CBluetoothLinux
#if canImport(Glibc)
import Glibc
#endif

/// The kernel's L2CAP socket on the LE ATT fixed channel (CID 0x0004, Core v5.4, Vol 3, Part A,
/// 2.1): connecting to a peripheral as a central. The kernel creates the LE connection (it picks
/// legacy or extended LE Create Connection itself), runs L2CAP and, when the security asks for
/// it, pairs through SMP (with bluetoothd stopped, an agent on the management channel must
/// answer its questions).
public enum L2CAPATTChannel {
    /// The fixed channel of the Attribute Protocol on LE.
    public static let attChannel: UInt16 = 0x0004

    /// What the link must reach before ATT flows (BT_SECURITY): `low` no encryption, `medium`
    /// encryption (Just Works pairing is enough), `high` encryption with an authenticated
    /// (MITM-protected) key (Vol 3, Part C, 10.2.1: LE security mode 1 levels 1 to 3).
    public enum Security: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case low = 1
        case medium = 2
        case high = 3

        /// "low", "medium", "high": the words `blectl --security` takes.
        public var description: String {
            switch self {
            case .low: return "low"
            case .medium: return "medium"
            case .high: return "high"
            }
        }
    }

    /// Connects to `peer`'s ATT channel and returns the bearer once the channel is open.
    ///
    /// - Parameters:
    ///   - peer: the peripheral's address; `type` says public or random (which kind of random
    ///     does not matter to the kernel).
    ///   - adapter: the local adapter's public address to connect from (nil: the kernel chooses).
    ///   - security: the level set with BT_SECURITY before connecting.
    ///   - timeout: how long the LE connection and channel may take.
    ///   - maximumMTU: the Rx MTU the bearer announces in the MTU exchange, in octets (23...517).
    /// - Throws: ``LinuxBluetoothError``: ETIMEDOUT when the peer did not answer within `timeout`
    ///   (the attempt is abandoned), ECANCELED when the calling task was cancelled (abandoned
    ///   too), EAFNOSUPPORT without kernel Bluetooth, EHOSTUNREACH when no
    ///   adapter is up, or the kernel's errno for the connection (SO_ERROR).
    public static func connect(to peer: BluetoothAddress, type: BluetoothAddressType, from adapter: BluetoothAddress? = nil,
                               security: Security = .low, timeout: Duration = .seconds(20),
                               maximumMTU: UInt16 = 517) async throws(LinuxBluetoothError) -> SocketATTBearer {
        let what = "connecting to \(peer) (\(type.isRandom ? "random" : "public"))"
        let socket = try BluetoothSocket(l2cap: what)
        var local = bdaddr(adapter ?? .zero)
        // The local side: LE, on the ATT channel (binding the source as LE is what makes the
        // kernel connect over LE for a fixed channel).
        _ = try LinuxBluetoothError.check(cbl_l2cap_bind(socket.descriptor, &local, UInt8(BDADDR_LE_PUBLIC), attChannel),
                                          .l2cap(what))
        _ = try LinuxBluetoothError.check(cbl_set_security(socket.descriptor, security.rawValue), .l2cap(what))
        var remote = bdaddr(peer)
        let started = cbl_l2cap_connect(socket.descriptor, &remote, UInt8(type.isRandom ? BDADDR_LE_RANDOM : BDADDR_LE_PUBLIC), attChannel)
        if started < 0, Int32(-started) != EINPROGRESS {
            throw LinuxBluetoothError(.l2cap(what), code: Int32(-started))
        }
        if started < 0 {
            guard await SocketReadiness.writable(socket.descriptor, within: timeout) else {
                // Closing the socket abandons the attempt: the kernel cancels its LE Create
                // Connection (Vol 4, Part E, 7.8.13).
                socket.close()
                throw LinuxBluetoothError(.l2cap(what), code: Task.isCancelled ? ECANCELED : ETIMEDOUT)
            }
            let pending = try LinuxBluetoothError.check(cbl_socket_error(socket.descriptor), .l2cap(what))
            guard pending == 0 else { throw LinuxBluetoothError(.l2cap(what), code: pending) }
        }
        return SocketATTBearer(socket: socket, maximumMTU: maximumMTU)
    }

    /// A `bdaddr_t` (least significant octet first) for `address`.
    static func bdaddr(_ address: BluetoothAddress) -> bdaddr_t {
        var raw = bdaddr_t()
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: address.littleEndianOctets) }
        return raw
    }

    /// The address in a `bdaddr_t`.
    static func address(_ raw: bdaddr_t) -> BluetoothAddress {
        withUnsafeBytes(of: raw) { BluetoothAddress(littleEndianOctets: $0) } ?? .zero
    }
}
