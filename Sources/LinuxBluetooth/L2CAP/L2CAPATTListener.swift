import BLECore
import CBluetoothLinux
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// A listening L2CAP socket on the LE ATT fixed channel (CID 0x0004): the peripheral side in
/// kernel mode. Each central that connects arrives on ``connections`` as a bearer with its address;
/// many may be connected at once. Accepting is driven by readiness (a DispatchSource).
///
/// The kernel only hands over links that come up after the socket listens: an LE link that
/// already exists (kept idle a few seconds after its last channel closed) is reused by the
/// central without reaching ``connections``.
public final class L2CAPATTListener: Sendable {
    /// One accepted central.
    public struct Connection: Sendable {
        /// The ATT bearer on the accepted socket.
        public let bearer: SocketATTBearer
        /// The central's device address.
        public let peer: BluetoothAddress
        /// Whether ``peer`` is a random address (the LE address type the kernel reports).
        public let peerIsRandom: Bool
    }

    /// The centrals as they connect; finishes when the listener closes.
    public let connections: AsyncStream<Connection>

    /// What one accept(2) gave: a connected socket and its peer, or the errno.
    enum Accepted {
        case connection(descriptor: Int32, peer: BluetoothAddress, isRandom: Bool)
        case failed(Int32)
    }

    private let socket: BluetoothSocket
    private let input: AsyncStream<Connection>.Continuation
    private let accept: @Sendable (Int32) -> Accepted
    private let readiness = ListeningReadiness(label: "LinuxBluetooth.L2CAPATTListener")

    /// Listens on `adapter`'s ATT channel (nil: every adapter).
    ///
    /// - Parameter security: BT_SECURITY for accepted channels: `medium` or `high` make the
    ///   kernel require encryption (pairing) before ATT flows.
    /// - Throws: ``LinuxBluetoothError`` from socket, bind, setsockopt or listen (EADDRINUSE when
    ///   another process listens on the ATT channel of that adapter).
    public convenience init(adapter: BluetoothAddress? = nil, security: L2CAPATTChannel.Security = .low, backlog: Int32 = 8) throws(LinuxBluetoothError) {
        let what = "listening on the ATT channel of \(adapter.map { "\($0)" } ?? "every adapter")"
        let socket = try BluetoothSocket(l2cap: what)
        var local = L2CAPATTChannel.bdaddr(adapter ?? .zero)
        _ = try LinuxBluetoothError.check(cbl_l2cap_bind(socket.descriptor, &local, UInt8(BDADDR_LE_PUBLIC), L2CAPATTChannel.attChannel),
                                          .l2cap(what))
        if security != .low {
            _ = try LinuxBluetoothError.check(cbl_set_security(socket.descriptor, security.rawValue), .l2cap(what))
        }
        _ = try LinuxBluetoothError.check(cbl_listen(socket.descriptor, backlog), .l2cap(what))
        self.init(listening: socket, accept: Self.acceptL2CAP)
    }

    /// A listener on `socket`, already listening, accepting with `accept` (tests give a Unix
    /// socket and their own accept).
    init(listening socket: BluetoothSocket, accept: @escaping @Sendable (Int32) -> Accepted) {
        self.socket = socket
        self.accept = accept
        (connections, input) = AsyncStream.makeStream(of: Connection.self)
        readiness.start(descriptor: socket.descriptor, onReadable: { [weak self] in self?.acceptWaiting() },
                        onCancel: { socket.close() })
    }

    /// accept4(2) on an L2CAP socket, with the peer's address and type.
    private static func acceptL2CAP(_ descriptor: Int32) -> Accepted {
        var peer = bdaddr_t()
        var type: UInt8 = 0
        let fd = cbl_l2cap_accept(descriptor, &peer, &type)
        guard fd >= 0 else { return .failed(-fd) }
        return .connection(descriptor: fd, peer: L2CAPATTChannel.address(peer), isRandom: type == UInt8(BDADDR_LE_RANDOM))
    }

    /// Accepts every connection waiting (readiness said there is one).
    private func acceptWaiting() {
        while true {
            switch accept(socket.descriptor) {
            case .connection(let fd, let peer, let isRandom):
                input.yield(Connection(bearer: SocketATTBearer(socket: BluetoothSocket(adopting: fd)), peer: peer, peerIsRandom: isRandom))
            case .failed(let code) where code == ECONNABORTED || code == EINTR:
                continue                              // that one went away, or a signal: the next
            case .failed(let code) where code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM:
                readiness.pauseAfterResourceError()
                return
            case .failed:
                return                                // EAGAIN: none left (or an error the next readiness retries)
            }
        }
    }

    /// Stops listening and closes the socket; ``connections`` finishes. Accepted bearers stay open.
    public func close() {
        readiness.cancel()
        input.finish()
    }

    deinit { close() }
}
