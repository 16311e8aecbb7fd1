import CBluetoothLinux
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A socket whose every message is one packet (SOCK_SEQPACKET, or an HCI SOCK_RAW socket), read
/// as the descriptor becomes readable (a DispatchSource) and written whole, waiting for room when
/// the socket's buffer is full. The kernel L2CAP ATT bearer, the raw HCI transport and the
/// management channel each carry their packets over one.
///
/// The peer or the link ending (end of stream, or an error such as a supervision timeout)
/// finishes ``messages``; later sends throw. The descriptor is closed once, after the read source
/// has stopped watching it.
public final class MessageSocket: Sendable {
    /// The messages received, in order, each whole.
    public let messages: AsyncStream<[UInt8]>
    /// The socket (for options such as BT_SECURITY).
    public let socket: BluetoothSocket
    /// Why the stream ended, once it has: nil for an orderly end or a close at this end.
    public var endError: LinuxBluetoothError? { state.withLock { $0.endError } }

    private let input: AsyncStream<[UInt8]>.Continuation
    private let queue: DispatchQueue
    private let state = Mutex(State())
    private let receiveCapacity: Int

    private struct State {
        var reader: DispatchSourceRead?
        var writer: DispatchSourceWrite?
        var writeWaiters: [CheckedContinuation<Bool, Never>] = []
        var endWaiters: [CheckedContinuation<LinuxBluetoothError?, Never>] = []
        var isClosed = false
        var endError: LinuxBluetoothError?
    }

    /// Starts reading `socket`, which it owns from now on.
    ///
    /// - Parameters:
    ///   - receiveCapacity: the largest message expected, in octets; a longer one is cut to it.
    ///   - label: names the dispatch queue, for debugging.
    public init(_ socket: BluetoothSocket, receiveCapacity: Int, label: String) {
        self.socket = socket
        self.receiveCapacity = max(1, receiveCapacity)
        queue = DispatchQueue(label: label)
        (messages, input) = AsyncStream.makeStream(of: [UInt8].self)
        let queue = self.queue
        state.withLock { state in
            let reader = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor, queue: queue)
            reader.setEventHandler { [weak self] in self?.readAvailable() }
            reader.resume()
            state.reader = reader
        }
    }

    /// Whether the socket has ended (closed here, or the peer or link ended).
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Waits until the socket has ended, then returns ``endError``. Returns at once when it
    /// already has.
    public func ended() async -> LinuxBluetoothError? {
        await withCheckedContinuation { continuation in
            let ended: LinuxBluetoothError?? = state.withLock { state in
                guard state.isClosed else {
                    state.endWaiters.append(continuation)
                    return nil
                }
                return .some(state.endError)
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    /// Sends one message, waiting for room when the socket's buffer is full.
    ///
    /// - Parameter what: names the message in the error ("sending an ATT PDU").
    /// - Throws: ``LinuxBluetoothError``: EPIPE once the socket has ended, or the kernel's errno
    ///   (which also ends the socket).
    public func send(_ message: [UInt8], what: String) async throws(LinuxBluetoothError) {
        while true {
            guard !isClosed else { throw LinuxBluetoothError(.transfer(what), code: EPIPE) }
            let result = message.withUnsafeBytes { cbl_send(socket.descriptor, $0.baseAddress, $0.count) }
            if result >= 0 { return }
            switch Int32(-result) {
            case EINTR: continue
            case EAGAIN:
                guard await writable() else { throw LinuxBluetoothError(.transfer(what), code: EPIPE) }
            default:
                let error = LinuxBluetoothError(.transfer(what), code: Int32(-result))
                end(error)
                throw error
            }
        }
    }

    /// Stops reading and closes the socket; ``messages`` finishes. Closing again does nothing.
    public func close() { end(nil) }

    // MARK: Readiness

    /// Takes every message waiting (readiness said there is one).
    ///
    /// recv(2) returns 0 both for a zero-length message (an empty L2CAP B-frame's SDU, which the
    /// kernel queues like any other) and at the end of the stream; only the latter has the read
    /// side shut down, which poll(2) reports as POLLRDHUP or POLLHUP. A zero-length message is
    /// delivered as one (the ATT engine ignores an empty PDU) and the reading goes on.
    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: receiveCapacity)
        while true {
            let count = buffer.withUnsafeMutableBytes { cbl_recv(socket.descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                input.yield(Array(buffer[..<count]))
                continue
            }
            if count == 0 {
                if Self.hasEnded(socket.descriptor) {
                    end(nil)                              // the peer or the link ended
                    return
                }
                input.yield([])                           // a zero-length message
                continue
            }
            if Int32(-count) != EAGAIN && Int32(-count) != EINTR {
                end(LinuxBluetoothError(.transfer("receiving"), code: Int32(-count)))
            }
            return
        }
    }

    /// POLLRDHUP (Linux's <poll.h>, which declares it only under _GNU_SOURCE): the peer shut its
    /// writing side down, or the link ended.
    private static let pollReadHangUp: Int16 = 0x2000

    /// Whether the read side of `descriptor` is shut down (the peer closed, or the link went
    /// down) with nothing more queued: poll(2) without waiting reports POLLRDHUP or POLLHUP, and
    /// FIONREAD counts no queued octet. A socket that cannot be polled counts as ended.
    private static func hasEnded(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN) | pollReadHangUp, revents: 0)
        guard poll(&entry, 1, 0) >= 0 else { return true }
        guard entry.revents & (pollReadHangUp | Int16(POLLHUP)) != 0 else { return false }
        // Shut down, but an empty message may have come just before the peer's last messages.
        var queued: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &queued) != 0 || queued <= 0
    }

    /// Waits until the socket can take a message; false when it ended first.
    private func writable() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let (start, closed): (DispatchSourceWrite?, Bool) = state.withLock { state in
                guard !state.isClosed else { return (nil, true) }
                state.writeWaiters.append(continuation)
                guard state.writer == nil else { return (nil, false) }
                let writer = DispatchSource.makeWriteSource(fileDescriptor: socket.descriptor, queue: queue)
                state.writer = writer
                return (writer, false)
            }
            if closed { continuation.resume(returning: false); return }
            guard let start else { return }
            start.setEventHandler { [weak self] in self?.becameWritable() }
            start.resume()
        }
    }

    private func becameWritable() {
        let waiters = state.withLock { state in
            state.writer?.cancel()
            defer { state.writer = nil; state.writeWaiters = [] }
            return state.writeWaiters
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Ends the socket once: stops the sources, closes the descriptor once they are cancelled,
    /// finishes ``messages``, and resumes waiting senders.
    private func end(_ error: LinuxBluetoothError?) {
        let socket = self.socket
        let waiters: (writers: [CheckedContinuation<Bool, Never>], ends: [CheckedContinuation<LinuxBluetoothError?, Never>])? = state.withLock { state in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            state.endError = error
            state.writer?.cancel()
            if let reader = state.reader {
                // The descriptor is closed only once the source no longer watches it.
                reader.setCancelHandler { socket.close() }
                reader.cancel()
            } else {
                socket.close()
            }
            defer { state.reader = nil; state.writer = nil; state.writeWaiters = []; state.endWaiters = [] }
            return (state.writeWaiters, state.endWaiters)
        }
        guard let waiters else { return }
        input.finish()
        for waiter in waiters.writers { waiter.resume(returning: false) }
        for waiter in waiters.ends { waiter.resume(returning: error) }
    }
}
