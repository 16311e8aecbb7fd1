import CBluetoothLinux
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A socket whose every message is one packet (SOCK_SEQPACKET, or an HCI SOCK_RAW socket), read
/// on a thread of its own that waits in poll(2), and written whole, waiting (in poll(2) on a
/// second thread, only while a send waits) for room when the socket's buffer is full. The kernel
/// L2CAP ATT bearer, the raw HCI transport and the management channel each carry their packets
/// over one.
///
/// Not a DispatchSource: an L2CAP socket hangs up (POLLHUP) when its LE link goes down, and
/// libdispatch's epoll backend then unregisters the socket's read source from the source's own
/// queue, while its manager thread walks the same registrations without a lock
/// (swift-corelibs-libdispatch issue 949). Under the churn of `blectl serve` (centrals connecting
/// and leaving while the raw HCI and management sockets keep receiving) that corrupted its
/// registrations, and the process died of a SIGSEGV in `_dispatch_event_loop_drain` a fraction
/// of a second after a central left (the kernel lane's scenarios 21, 30 and 31).
///
/// The peer or the link ending (end of stream, or an error such as a supervision timeout)
/// finishes ``messages``; later sends throw. So does a send that fails, once the reader has taken
/// the messages already queued (the last notifications before a link's end, say, which the
/// kernel still holds when the send learns of that end). The descriptor is closed once, after
/// both threads have stopped polling it.
public final class MessageSocket: Sendable {
    /// The messages received, in order, each whole.
    public let messages: AsyncStream<[UInt8]>
    /// The socket. Its descriptor is closed as soon as the socket ends, and its number may then
    /// name another socket: read options through ``withDescriptor(_:)``.
    public var socket: BluetoothSocket { core.socket }
    /// Why the stream ended, once it has: nil for an orderly end or a close at this end.
    public var endError: LinuxBluetoothError? { core.state.withLock { $0.endError } }

    private let core: Core

    /// What the threads share with the socket's users; it outlives the ``MessageSocket`` until
    /// the threads have let go of the descriptor.
    private final class Core: Sendable {
        struct State {
            var writeWaiters: [CheckedContinuation<Bool, Never>] = []
            var endWaiters: [CheckedContinuation<LinuxBluetoothError?, Never>] = []
            var isWaitingForRoom = false
            /// Threads that poll the descriptor and calls that use it (a send, an option read);
            /// the last one out after the end closes it.
            var pollers = 0
            var isClosed = false
            var endError: LinuxBluetoothError?
            /// The error of a send that failed: the reader ends the socket with it once it has
            /// taken what was queued.
            var failedSend: LinuxBluetoothError?
        }

        let socket: BluetoothSocket
        /// An eventfd, signalled (and never drained) when a send fails and when the socket ends,
        /// to wake the polling threads; closed by the last of them.
        let wake: Int32
        let input: AsyncStream<[UInt8]>.Continuation
        let receiveCapacity: Int
        let state = Mutex(State())

        init(socket: BluetoothSocket, wake: Int32, input: AsyncStream<[UInt8]>.Continuation, receiveCapacity: Int) {
            self.socket = socket
            self.wake = wake
            self.input = input
            self.receiveCapacity = receiveCapacity
        }

        var isClosed: Bool { state.withLock { $0.isClosed } }

        /// The error of a failed send, once one has failed.
        private var failedSend: LinuxBluetoothError? { state.withLock { $0.failedSend } }

        /// A send failed with `error`: the socket ends with it after the reader has taken the
        /// messages already queued. The reader, woken, does that; waiting senders are woken too,
        /// and fail.
        func endAfterReading(_ error: LinuxBluetoothError) {
            state.withLock { state in
                guard !state.isClosed, state.failedSend == nil else { return }
                state.failedSend = error
                // Signalled under the lock: while the socket has not ended, the reader still
                // polls, so the eventfd is open (the last poller closes it after the end).
                _ = cbl_wake_signal(wake)
            }
        }

        /// The reader thread's work: waits for input, reads it, until the socket ends.
        func readUntilEnd() {
            var buffer = [UInt8](repeating: 0, count: receiveCapacity)
            while true {
                let ready = cbl_wait_readable(socket.descriptor, wake)
                if ready == 1 {
                    readAvailable(into: &buffer)
                    continue
                }
                if ready < 0 {
                    end(LinuxBluetoothError(.transfer("waiting to receive"), code: -ready))
                } else if let failedSend = state.withLock({ $0.isClosed ? nil : $0.failedSend }) {
                    // Woken by a failed send: take what is queued, then end.
                    readAvailable(into: &buffer)
                    end(failedSend)
                }
                break                                     // woken: the socket has ended
            }
            stoppedPolling()
        }

        /// Takes every message waiting (poll said there is one, or the end).
        ///
        /// recv(2) returns 0 both for a zero-length message (an empty L2CAP B-frame's SDU, which
        /// the kernel queues like any other) and at the end of the stream; only the latter has
        /// the read side shut down, which poll(2) reports as POLLRDHUP or POLLHUP. A zero-length
        /// message is delivered as one (the ATT engine ignores an empty PDU) and the reading goes on.
        /// Once the read side is shut down, a 0 is the end or an empty message with more behind
        /// it, which FIONREAD cannot always tell (on L2CAP and datagram sockets it sizes the next
        /// message only): the reading goes on for up to ``emptyReadsAtEnd`` zeros, and the empty
        /// messages are delivered when a message follows them.
        ///
        /// The kernel reports a socket's error (a supervision timeout, the peer's termination)
        /// before the messages still queued (a datagram socket's recv(2) takes the pending error
        /// first, and clears it): the error is kept, the queued messages are read, and the socket
        /// ends with it once none is left. After a failed send the same holds for the send's
        /// error (a send takes the pending error too).
        private func readAvailable(into buffer: inout [UInt8]) {
            var failure: LinuxBluetoothError?
            /// Zeros read and not yet delivered: since the read side was shut down, the end or
            /// empty messages.
            var zeros = 0
            /// The zeros were zero-length messages: they are delivered as such.
            func deliverEmptyMessages() {
                for _ in 0..<zeros { input.yield([]) }
                zeros = 0
            }
            while true {
                let count = buffer.withUnsafeMutableBytes { cbl_recv(socket.descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    deliverEmptyMessages()
                    input.yield(Array(buffer[..<count]))
                    continue
                }
                if count == 0 {
                    zeros += 1
                    if MessageSocket.hasEnded(socket.descriptor) {
                        if zeros <= MessageSocket.emptyReadsAtEnd { continue }
                        end(failure ?? failedSend)        // the peer or the link ended
                        return
                    }
                    deliverEmptyMessages()
                    continue
                }
                let code = Int32(-count)
                if code == EINTR { continue }
                if code == EAGAIN {
                    // The messages queued before the error are read.
                    if let failure = failure ?? failedSend { end(failure) }
                    return
                }
                // A second error in a row: nothing more comes.
                if let failure {
                    end(failure)
                    return
                }
                failure = LinuxBluetoothError(.transfer("receiving"), code: code)
            }
        }

        /// Waits until the socket can take a message; false when it ended first.
        func writable() async -> Bool {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let (start, closed) = state.withLock { state -> (Bool, Bool) in
                    guard !state.isClosed else { return (false, true) }
                    state.writeWaiters.append(continuation)
                    guard !state.isWaitingForRoom else { return (false, false) }
                    state.isWaitingForRoom = true
                    state.pollers += 1
                    return (true, false)
                }
                if closed { continuation.resume(returning: false); return }
                guard start else { return }
                let thread = Thread { [self] in
                    let ready = cbl_wait_writable(socket.descriptor, wake)
                    let waiters = state.withLock { state in
                        defer { state.writeWaiters = []; state.isWaitingForRoom = false }
                        return state.writeWaiters
                    }
                    for waiter in waiters { waiter.resume(returning: ready == 1) }
                    stoppedPolling()
                }
                thread.name = "MessageSocket writer"
                thread.start()
            }
        }

        /// Runs `body` with the descriptor, held open meanwhile; nil once the socket has ended.
        func using<T>(_ body: (Int32) -> T) -> T? {
            let open = state.withLock { state -> Bool in
                guard !state.isClosed else { return false }
                state.pollers += 1
                return true
            }
            guard open else { return nil }
            defer { stoppedPolling() }
            return body(socket.descriptor)
        }

        /// A polling thread or a call is done with the descriptor; the last one closes it (and
        /// the eventfd).
        private func stoppedPolling() {
            let last = state.withLock { state in
                state.pollers -= 1
                return state.pollers == 0
            }
            guard last else { return }
            socket.close()
            _ = cbl_close(wake)
        }

        /// Ends the socket once: wakes the threads (the last one to stop closes the descriptor),
        /// finishes ``messages``, and resumes waiting senders.
        func end(_ error: LinuxBluetoothError?) {
            let waiters: (writers: [CheckedContinuation<Bool, Never>], ends: [CheckedContinuation<LinuxBluetoothError?, Never>])? = state.withLock { state in
                guard !state.isClosed else { return nil }
                state.isClosed = true
                state.endError = error
                // Under the lock, as in endAfterReading: a reader woken by a failed send cannot
                // see the end, stop and close the eventfd before this signal.
                _ = cbl_wake_signal(wake)
                defer { state.writeWaiters = []; state.endWaiters = [] }
                return (state.writeWaiters, state.endWaiters)
            }
            guard let waiters else { return }
            input.finish()
            for waiter in waiters.writers { waiter.resume(returning: false) }
            for waiter in waiters.ends { waiter.resume(returning: error) }
        }
    }

    /// Starts reading `socket`, which it owns from now on.
    ///
    /// - Parameters:
    ///   - receiveCapacity: the largest message expected, in octets; a longer one is cut to it.
    ///   - label: names the reader thread, for debugging.
    public init(_ socket: BluetoothSocket, receiveCapacity: Int, label: String) {
        let (messages, input) = AsyncStream.makeStream(of: [UInt8].self)
        self.messages = messages
        let wake = cbl_wake_open()
        core = Core(socket: socket, wake: wake, input: input, receiveCapacity: max(1, receiveCapacity))
        guard wake >= 0 else {
            // No eventfd (EMFILE, ENFILE): no reader can be stopped, so none starts.
            core.state.withLock { $0.isClosed = true; $0.endError = LinuxBluetoothError(.transfer("starting to receive"), code: -wake) }
            socket.close()
            input.finish()
            return
        }
        core.state.withLock { $0.pollers = 1 }
        let core = self.core
        let thread = Thread { core.readUntilEnd() }
        thread.name = label
        thread.start()
    }

    /// Ends the socket when it is dropped without ``close()``, so that its reader thread stops.
    deinit { core.end(nil) }

    /// Whether the socket has ended (closed here, or the peer or link ended).
    public var isClosed: Bool { core.isClosed }

    /// Waits until the socket has ended, then returns ``endError``. Returns at once when it
    /// already has.
    public func ended() async -> LinuxBluetoothError? {
        await withCheckedContinuation { continuation in
            let ended: LinuxBluetoothError?? = core.state.withLock { state in
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
    /// - Throws: ``LinuxBluetoothError``: EPIPE once the socket has ended, or the kernel's errno,
    ///   which also ends the socket: the messages already queued are read first, and the call
    ///   throws once the socket has ended (``isClosed`` is then true).
    public func send(_ message: [UInt8], what: String) async throws(LinuxBluetoothError) {
        while true {
            // The descriptor is held open for the call: a socket that ends meanwhile closes it
            // after, so the message cannot reach another socket that took its number.
            guard let result = core.using({ descriptor in message.withUnsafeBytes { cbl_send(descriptor, $0.baseAddress, $0.count) } }) else {
                throw LinuxBluetoothError(.transfer(what), code: EPIPE)
            }
            if result >= 0 { return }
            switch Int32(-result) {
            case EINTR: continue
            case EAGAIN:
                guard await core.writable() else { throw LinuxBluetoothError(.transfer(what), code: EPIPE) }
            default:
                let error = LinuxBluetoothError(.transfer(what), code: Int32(-result))
                core.endAfterReading(error)
                _ = await ended()
                throw error
            }
        }
    }

    /// Runs `body` with the socket's descriptor while the socket is open (to read an option
    /// such as BT_SECURITY or L2CAP_CONNINFO), holding the descriptor open until `body` returns,
    /// so that its number cannot name another socket meanwhile. `body` must not block.
    ///
    /// - Returns: `body`'s result; nil once the socket has ended.
    public func withDescriptor<T>(_ body: (Int32) -> T) -> T? { core.using(body) }

    /// Stops reading and closes the socket; ``messages`` finishes. Closing again does nothing.
    public func close() { core.end(nil) }

    /// How many reads of 0 a socket whose read side is shut down gets before it counts as
    /// ended: 64, so that a message behind up to 64 empty ones is still read.
    static let emptyReadsAtEnd = 64

    /// POLLRDHUP (Linux's <poll.h>, which declares it only under _GNU_SOURCE): the peer shut its
    /// writing side down, or the link ended.
    private static let pollReadHangUp: Int16 = 0x2000

    /// Whether the read side of `descriptor` is shut down (the peer closed, or the link went
    /// down) with nothing more queued: poll(2) without waiting reports POLLRDHUP or POLLHUP, and
    /// FIONREAD counts no queued octet. A socket that cannot be polled counts as ended.
    fileprivate static func hasEnded(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN) | pollReadHangUp, revents: 0)
        guard poll(&entry, 1, 0) >= 0 else { return true }
        guard entry.revents & (pollReadHangUp | Int16(POLLHUP)) != 0 else { return false }
        // Shut down, but an empty message may have come just before the peer's last messages.
        var queued: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &queued) != 0 || queued <= 0
    }
}
