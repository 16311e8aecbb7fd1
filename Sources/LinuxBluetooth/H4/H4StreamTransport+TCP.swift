import CBluetoothLinux
#if canImport(Glibc)
import Glibc
#endif

extension H4StreamTransport {
    /// Connects to an H4 server over TCP (a controller bridge, an emulator, Google's Bumble) and
    /// frames H4 over the connection, with TCP_NODELAY (a command is small and its answer is
    /// awaited, so it must not wait for Nagle's algorithm).
    ///
    /// The connect is non-blocking: the calling task waits for the socket's readiness, not a
    /// thread. Cancelling the task does not cut the wait short; `timeout` bounds it.
    ///
    /// - Parameters:
    ///   - host: a numeric IPv4 or IPv6 address, or "localhost" (127.0.0.1); names are not resolved.
    ///   - port: the TCP port.
    ///   - timeout: how long the connection may take; 10 s by default.
    ///   - maximumPacketSize: as ``init(adopting:name:maximumPacketSize:executor:)`` takes it.
    ///   - executor: the executor that reads the stream, as ``init(adopting:name:maximumPacketSize:executor:)`` takes it.
    /// - Throws: ``LinuxBluetoothError`` with operation ``LinuxBluetoothError/Operation/tcp(_:)``
    ///   "connecting to HOST:PORT": ECONNREFUSED when nothing listens there, ETIMEDOUT after
    ///   `timeout`, EINVAL when `host` is not a numeric address, EHOSTUNREACH, ENETUNREACH.
    public static func connect(host: String, port: UInt16, timeout: Duration = .seconds(10),
                               maximumPacketSize: Int = 4 + 0xFFFF,
                               executor: HostExecutor? = nil) async throws(LinuxBluetoothError) -> H4StreamTransport {
        let target = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let operation = LinuxBluetoothError.Operation.tcp("connecting to \(target)")
        let fd = Int32(try LinuxBluetoothError.check(cbl_tcp_connect(host, port), operation))
        guard await SocketReadiness.writable(fd, within: timeout) else {
            _ = cbl_close(fd)
            throw LinuxBluetoothError(operation, code: ETIMEDOUT)
        }
        var failure = cbl_socket_error(fd)
        if failure == 0 { failure = -cbl_tcp_set_nodelay(fd) }
        guard failure == 0 else {
            _ = cbl_close(fd)
            throw LinuxBluetoothError(operation, code: abs(failure))
        }
        return try H4StreamTransport(adopting: fd, name: "TCP \(target)", maximumPacketSize: maximumPacketSize, executor: executor)
    }
}
