import BLECore
import CBluetoothLinux
import Dispatch
import Synchronization
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

    private let socket: BluetoothSocket
    private let input: AsyncStream<Connection>.Continuation
    private let state = Mutex<DispatchSourceRead?>(nil)

    /// Listens on `adapter`'s ATT channel (nil: every adapter).
    ///
    /// - Parameter security: BT_SECURITY for accepted channels: `medium` or `high` make the
    ///   kernel require encryption (pairing) before ATT flows.
    /// - Throws: ``LinuxBluetoothError`` from socket, bind, setsockopt or listen (EADDRINUSE when
    ///   another process listens on the ATT channel of that adapter).
    public init(adapter: BluetoothAddress? = nil, security: L2CAPATTChannel.Security = .low, backlog: Int32 = 8) throws(LinuxBluetoothError) {
        let what = "listening on the ATT channel of \(adapter.map { "\($0)" } ?? "every adapter")"
        socket = try BluetoothSocket(l2cap: what)
        var local = L2CAPATTChannel.bdaddr(adapter ?? .zero)
        _ = try LinuxBluetoothError.check(cbl_l2cap_bind(socket.descriptor, &local, UInt8(BDADDR_LE_PUBLIC), L2CAPATTChannel.attChannel),
                                          .l2cap(what))
        if security != .low {
            _ = try LinuxBluetoothError.check(cbl_set_security(socket.descriptor, security.rawValue), .l2cap(what))
        }
        _ = try LinuxBluetoothError.check(cbl_listen(socket.descriptor, backlog), .l2cap(what))
        (connections, input) = AsyncStream.makeStream(of: Connection.self)
        let queue = DispatchQueue(label: "LinuxBluetooth.L2CAPATTListener")
        let socket = self.socket, input = self.input
        state.withLock { state in
            let reader = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor, queue: queue)
            reader.setEventHandler { Self.acceptWaiting(on: socket, into: input) }
            reader.setCancelHandler { socket.close() }
            reader.resume()
            state = reader
        }
    }

    /// Accepts every connection waiting (readiness said there is one).
    private static func acceptWaiting(on socket: BluetoothSocket, into input: AsyncStream<Connection>.Continuation) {
        while true {
            var peer = bdaddr_t()
            var type: UInt8 = 0
            let fd = cbl_l2cap_accept(socket.descriptor, &peer, &type)
            guard fd >= 0 else { return }            // EAGAIN: none left; other errors: the next event retries
            input.yield(Connection(bearer: SocketATTBearer(socket: BluetoothSocket(adopting: fd)),
                                   peer: L2CAPATTChannel.address(peer), peerIsRandom: type == UInt8(BDADDR_LE_RANDOM)))
        }
    }

    /// Stops listening and closes the socket; ``connections`` finishes. Accepted bearers stay open.
    public func close() {
        let reader = state.withLock { state in
            defer { state = nil }
            return state
        }
        reader?.cancel()
        input.finish()
    }

    deinit { close() }
}
