import CBluetoothLinux
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// A TCP server for H4 streams: each connection accepted arrives on ``connections`` as an
/// ``H4StreamTransport`` (with TCP_NODELAY), for a peer that plays the controller (an emulator, a
/// bridge to a UART) or the host (this process serving a virtual controller). Accepting is
/// driven by readiness (a DispatchSource).
///
/// ```swift
/// let listener = try H4TCPListener(host: "127.0.0.1", port: 0)   // port 0: a free one
/// let client = try await H4StreamTransport.connect(host: "127.0.0.1", port: listener.port)
/// for await server in listener.connections { ... }
/// ```
public final class H4TCPListener: Sendable {
    /// The connections as they are accepted; finishes when the listener closes.
    public let connections: AsyncStream<H4StreamTransport>
    /// The address listened on, as given.
    public let host: String
    /// The port bound: the one asked for, or the one the kernel picked for port 0.
    public let port: UInt16

    private let descriptor: Int32
    private let maximumPacketSize: Int
    private let executor: HostExecutor?
    private let input: AsyncStream<H4StreamTransport>.Continuation
    private let readiness = ListeningReadiness(label: "LinuxBluetooth.H4TCPListener")

    /// Listens on `host` port `port`.
    ///
    /// - Parameters:
    ///   - host: a numeric IPv4 or IPv6 address ("127.0.0.1", "0.0.0.0" for every IPv4
    ///     interface, "::"), or "localhost".
    ///   - port: the TCP port; 0 lets the kernel pick a free one (read it from ``port``).
    ///   - backlog: how many connections may wait to be accepted.
    ///   - maximumPacketSize: for the accepted transports, as
    ///     ``H4StreamTransport/init(adopting:name:maximumPacketSize:executor:)`` takes it.
    ///   - executor: the executor that reads the accepted transports (nil: a reader thread each).
    /// - Throws: ``LinuxBluetoothError`` with operation ``LinuxBluetoothError/Operation/tcp(_:)``
    ///   "listening on HOST:PORT": EADDRINUSE when the port is taken, EADDRNOTAVAIL when the
    ///   address is not this machine's, EINVAL when `host` is not a numeric address, EACCES for
    ///   a port below 1024 without privileges.
    public init(host: String = "127.0.0.1", port: UInt16, backlog: Int32 = 8,
                maximumPacketSize: Int = 4 + 0xFFFF, executor: HostExecutor? = nil) throws(LinuxBluetoothError) {
        let target = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var bound: UInt16 = 0
        descriptor = Int32(try LinuxBluetoothError.check(cbl_tcp_listen(host, port, backlog, &bound),
                                                         .tcp("listening on \(target)")))
        self.host = host
        self.port = bound
        self.maximumPacketSize = maximumPacketSize
        self.executor = executor
        (connections, input) = AsyncStream.makeStream(of: H4StreamTransport.self)
        let descriptor = self.descriptor
        readiness.start(descriptor: descriptor, onReadable: { [weak self] in self?.acceptWaiting() },
                        onCancel: { _ = cbl_close(descriptor) })
    }

    /// Accepts every connection waiting (readiness said there is one).
    private func acceptWaiting() {
        while true {
            let fd = cbl_tcp_accept(descriptor)
            if fd >= 0 {
                var text = [CChar](repeating: 0, count: 64)
                let named = cbl_tcp_address(fd, 1, &text, text.count) == 0
                let peer = named ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown peer"
                _ = cbl_tcp_set_nodelay(fd)           // a latency option: the stream works without it
                if let transport = try? H4StreamTransport(adopting: fd, name: "TCP \(peer)", maximumPacketSize: maximumPacketSize,
                                                            executor: executor) {
                    input.yield(transport)
                }
                continue
            }
            switch -fd {
            case ECONNABORTED, EINTR, EPROTO:
                continue                              // that one went away, or a signal: the next
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                readiness.pauseAfterResourceError()
                return
            default:
                return                                // EAGAIN: none left
            }
        }
    }

    /// Stops listening and closes the socket (once the readiness source has stopped watching it,
    /// just after the call returns); ``connections`` finishes. Accepted transports stay open.
    /// Closing again does nothing.
    public func close() {
        readiness.cancel()
        input.finish()
    }

    deinit { close() }
}
