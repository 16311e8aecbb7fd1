import ATT
import CBluetoothLinux

/// An ATT bearer on a connected SOCK_SEQPACKET socket whose every message is one ATT PDU: in kernel
/// mode, the L2CAP socket on the LE fixed channel CID 0x0004 (Core v5.4, Vol 3, Part A, 2.1;
/// Part F, 3.2.11), where the kernel does ACL, L2CAP and SMP.
///
/// I/O is a ``MessageSocket``: reads driven by readiness, sends that wait for room. The link
/// ending (end of stream, or an error such as the supervision timeout) finishes ``received``;
/// later sends throw ``ATTBearerError/closed``. ``security`` is read from the socket (BT_SECURITY)
/// each time.
public final class SocketATTBearer: ATTBearer, Sendable {
    /// The largest ATT PDU received: at most 517 (the longest attribute value, 512, plus
    /// headers; Part F, 3.2.9), and no more than the socket's receive MTU (BT_RCVMTU) when the
    /// socket reports one.
    public let maximumMTU: UInt16
    /// The PDUs from the peer, each one socket message.
    public var received: AsyncStream<[UInt8]> { channel.messages }
    /// Why the link ended, once it has: nil for an orderly end or a close at this end.
    public var endError: LinuxBluetoothError? { channel.endError }

    private let channel: MessageSocket

    /// A bearer on `socket`, which must be connected; the bearer owns it and closes it.
    ///
    /// - Parameter maximumMTU: the largest PDU to announce, in octets (23...517), further
    ///   limited by the socket's receive MTU.
    public init(socket: BluetoothSocket, maximumMTU: UInt16 = 517) {
        let socketMTU = cbl_get_mtu(socket.descriptor, 1)
        let limit = socketMTU >= 23 ? min(Int(maximumMTU), Int(socketMTU)) : Int(maximumMTU)
        self.maximumMTU = UInt16(clamping: max(23, min(517, limit)))
        // A PDU longer than the MTU is read whole (up to 2 KiB) so that the engine can refuse it
        // by its size.
        channel = MessageSocket(socket, receiveCapacity: 2048, label: "LinuxBluetooth.SocketATTBearer")
    }

    /// The HCI connection handle of the link the socket runs on (L2CAP_CONNINFO; Core v5.4,
    /// Vol 4, Part E, 5.4.2: 0x0000...0x0EFF), read once the channel is up; nil once the socket
    /// has closed, or for a socket that is not an L2CAP one.
    public var connectionHandle: UInt16? {
        guard let handle = channel.withDescriptor({ cbl_l2cap_connection_handle($0) }), handle >= 0 else { return nil }
        return UInt16(truncatingIfNeeded: handle)
    }

    /// Waits until the socket has ended (the link dropped, the peer closed, or ``close()``),
    /// then returns why: nil for an orderly end or a close at this end, else the kernel's errno
    /// (ETIMEDOUT for a supervision timeout, ECONNRESET when the peer terminated).
    public func ended() async -> LinuxBluetoothError? { await channel.ended() }

    /// The link's security from BT_SECURITY: level 2 (medium) is an encrypted link, 3 (high) and
    /// 4 (FIPS) an encrypted link with an authenticated key; the key size as the kernel reports
    /// it. A socket that cannot say (not Bluetooth, or closed) reports no security.
    public var security: ATTSecurity {
        get async {
            let read = channel.withDescriptor { descriptor -> (level: UInt8, keySize: UInt8)? in
                var level: UInt8 = 0, keySize: UInt8 = 0
                return cbl_get_security(descriptor, &level, &keySize) == 0 ? (level, keySize) : nil
            }
            guard let read, let read else { return .none }
            return Self.security(level: read.level, keySize: read.keySize)
        }
    }

    /// ATTSecurity for a BT_SECURITY `level` (0 SDP, 1 low, 2 medium, 3 high, 4 FIPS) and key size.
    static func security(level: UInt8, keySize: UInt8) -> ATTSecurity {
        guard level >= 2 else { return .none }
        return ATTSecurity(isEncrypted: true, isAuthenticated: level >= 3, encryptionKeySize: Int(keySize))
    }

    /// Sends one PDU as one socket message, waiting for room when the socket's buffer is full.
    ///
    /// - Throws: ``ATTBearerError/closed`` when the bearer or the link has ended.
    public func send(_ pdu: [UInt8]) async throws(ATTBearerError) {
        do { try await channel.send(pdu, what: "sending an ATT PDU") } catch { throw .closed }
    }

    /// Stops reading and closes the socket; ``received`` finishes. Closing again does nothing.
    public func close() async { channel.close() }
}
