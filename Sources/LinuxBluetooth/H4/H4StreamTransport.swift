import CBluetoothLinux
import Dispatch
import Foundation
import HCI
import Host
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An ``HCITransport`` over a byte stream carrying H4 frames (Core v5.4, Vol 4, Part A, 2: a
/// packet indicator, then the packet of Vol 4, Part E, 5.4, with nothing between packets): a
/// UART's tty (host mode with a controller such as an nRF52 running HCI firmware), a TCP
/// connection, or one end of a socket pair in tests. Open one with ``open(serial:maximumPacketSize:executor:)``,
/// ``connect(host:port:timeout:maximumPacketSize:executor:)``, ``H4TCPListener``, or adopt a descriptor.
///
/// Reading is readiness-driven (poll(2), on a reader thread of the transport's own or on the
/// thread of the ``HostExecutor`` it was made with) and framed by an ``H4StreamReader``: garbage
/// in the stream is skipped and reported (``diagnostics``, ``skippedOctetCount``,
/// ``recentDiagnostics``), and the good packets around it still arrive on ``packets``.
///
/// Sending is ordered: each packet is written whole, in the order ``send(_:)`` was called, even
/// with concurrent senders. A packet with nothing queued ahead of it is written by its caller at
/// once (the descriptor is non-blocking), with no thread hand-off; what the descriptor does not
/// take then, and packets behind it, continue when it is writable again (a DispatchSource),
/// never interleaving with another packet. A send resumes once
/// its last octet is written to the descriptor (the kernel's buffer, not the wire). A send, once
/// called, is not withdrawn when its task is cancelled: half a packet would break the framing.
///
/// The stream ends when the peer closes (end of file; a pty or tty hang-up reads as EIO), on a
/// read or write error (``endError``), or on ``close()``: ``packets`` and ``diagnostics`` finish,
/// waiting and later sends throw ``HCITransportError/closed``, and the descriptor is closed once
/// the reader thread and the write source have stopped watching it.
public final class H4StreamTransport: HCIDirectTransport, Sendable {
    /// The packets from the peer, in stream order.
    public let packets: AsyncStream<HCIPacket>
    /// The runs of octets skipped as garbage, in stream order, as they are found (for one
    /// reader, such as blectl printing them); keeps the newest ``diagnosticsBufferLimit`` unread
    /// runs, dropping older ones, so that nobody reading costs no memory (the counters count
    /// every run). Finishes with ``packets``.
    public let diagnostics: AsyncStream<H4SkippedOctets>
    /// What the stream is, for messages: "serial /dev/ttyACM0", "TCP 127.0.0.1:9000".
    public let name: String

    /// How many unread runs ``diagnostics`` keeps: 64.
    public static let diagnosticsBufferLimit = 64
    /// How many runs ``recentDiagnostics`` keeps: 16.
    public static let recentDiagnosticsLimit = 16
    /// The largest read(2) at once, in octets.
    static let readSize = 16 * 1024
    /// The most read(2) calls per readiness event before the reader thread polls again (and so
    /// sees a close) on a stream that never runs dry.
    static let readsPerEvent = 16

    /// One packet waiting to be written, with the octets already written.
    private struct Outgoing {
        let id: UInt64
        var octets: [UInt8]
        var written = 0
        /// The caller, once it waits (it registers after queuing).
        var continuation: CheckedContinuation<Result<Void, HCITransportError>, Never>?
        /// Sent with ``sendNow(_:)``: nobody waits for its outcome.
        var isDetached = false
    }

    private struct State {
        var writeSource: DispatchSourceWrite?
        var outgoing: [Outgoing] = []
        var nextOutgoingID: UInt64 = 0
        /// Outcomes of queued packets finished before their caller waited, by id.
        var finished: [UInt64: Result<Void, HCITransportError>] = [:]

        /// The caller to resume with `outcome` for `packet`, or nil after keeping the outcome
        /// for a caller that is not waiting yet.
        mutating func finish(_ packet: Outgoing, with outcome: Result<Void, HCITransportError>)
            -> CheckedContinuation<Result<Void, HCITransportError>, Never>? {
            if let continuation = packet.continuation { return continuation }
            if !packet.isDetached { finished[packet.id] = outcome }
            return nil
        }
        var isClosed = false
        var endError: LinuxBluetoothError?
        /// The executor's watch of the descriptor, while it reads.
        var watch: HostExecutor.Watch?
        /// Reading was stopped: a watch that is stored only now (its handler may have ended the
        /// stream before its registration returned) is stopped at once.
        var stopsReading = false
        /// Where packets go instead of ``packets``, once redirected.
        var redirect: (@Sendable (HCIPacket) -> Void)?
        /// Packets yielded to ``packets`` so far.
        var yielded = 0
        var skippedOctetCount = 0
        var diagnosticCount = 0
        var recent: [H4SkippedOctets] = []
    }

    /// The descriptor (tests read a tty's settings back through it).
    let descriptor: Int32
    private let isSocket: Bool
    /// The eventfd that wakes the reader thread when the stream ends.
    private let wake: Int32
    /// The executor that reads the stream instead of a reader thread.
    private let executor: HostExecutor?
    private let queue: DispatchQueue
    private let sources = DispatchGroup()
    private let state = Mutex(State())
    private let reader: Mutex<H4StreamReader>
    private let input: AsyncStream<HCIPacket>.Continuation
    private let diagnosticInput: AsyncStream<H4SkippedOctets>.Continuation

    /// Takes ownership of `descriptor`, a connected byte stream both ways (a tty, a stream
    /// socket; not a pipe, whose writes raise SIGPIPE once its reader is gone), makes
    /// it non-blocking and close-on-exec, and starts reading it.
    ///
    /// - Parameters:
    ///   - name: names the stream in errors and in the dispatch queue's label.
    ///   - maximumPacketSize: the largest packet accepted, header included, indicator excluded,
    ///     in octets (see ``H4StreamReader/maximumPacketSize``); a controller's LE ACL buffer
    ///     size plus 4 lets garbage be found sooner.
    ///   - executor: the executor whose thread reads the stream (``HostExecutor/watch(_:onReadable:)``),
    ///     normally the one the stack reading ``packets`` runs on; nil for a reader thread of the
    ///     transport's own.
    /// - Throws: ``LinuxBluetoothError`` (``LinuxBluetoothError/Operation/transfer(_:)``) when
    ///   the descriptor cannot be made non-blocking (EBADF: not open); it is closed then.
    public convenience init(adopting descriptor: Int32, name: String, maximumPacketSize: Int = 4 + 0xFFFF,
                            executor: HostExecutor? = nil) throws(LinuxBluetoothError) {
        try self.init(adopting: descriptor, name: name, maximumPacketSize: maximumPacketSize, executor: executor,
                      waitReadable: { cbl_wait_readable($0, $1) })
    }

    /// As the public initializer; the reader thread waits with `waitReadable` (for a test to
    /// make poll(2) fail): 1 when the descriptor (first argument) is readable, 0 when the
    /// eventfd (second) was signalled, -errno on failure.
    init(adopting descriptor: Int32, name: String, maximumPacketSize: Int, executor: HostExecutor?,
         waitReadable: @escaping @Sendable (Int32, Int32) -> Int32) throws(LinuxBluetoothError) {
        let prepared = cbl_set_nonblocking(descriptor)
        guard prepared >= 0 else {
            _ = cbl_close(descriptor)
            throw LinuxBluetoothError(.transfer("opening the H4 stream \(name)"), code: -prepared)
        }
        self.descriptor = descriptor
        self.name = name
        isSocket = cbl_is_socket(descriptor) == 1
        queue = DispatchQueue(label: "LinuxBluetooth.H4StreamTransport \(name)")
        reader = Mutex(H4StreamReader(maximumPacketSize: maximumPacketSize))
        (packets, input) = AsyncStream.makeStream(of: HCIPacket.self)
        (diagnostics, diagnosticInput) = AsyncStream.makeStream(of: H4SkippedOctets.self,
                                                                 bufferingPolicy: .bufferingNewest(Self.diagnosticsBufferLimit))
        let wake = cbl_wake_open()
        guard wake >= 0 else {
            _ = cbl_close(descriptor)
            throw LinuxBluetoothError(.transfer("opening the H4 stream \(name)"), code: -wake)
        }
        self.wake = wake
        self.executor = executor
        sources.enter()
        if let executor {
            // Read on the executor's thread, where the stack that reads ``packets`` runs: the
            // packet reaches its reader without another thread's wake-up.
            let buffer = ReadBuffer()
            let watch = executor.watch(descriptor) { [weak self] in
                guard let self else { return }
                if self.isClosed {
                    self.stopReading()
                } else {
                    self.readAvailable(into: &buffer.octets)
                }
            }
            let stopped = state.withLock { state -> Bool in
                guard !state.stopsReading else { return true }
                state.watch = watch
                return false
            }
            // The handler ended the stream before the watch was stored: stop it here, or the
            // descriptor, at its end and so always readable, would be reported forever.
            if stopped { executor.stopWatching(watch) { [sources] in sources.leave() } }
            return
        }
        // The reader waits in poll(2) on a thread of its own and frames what it reads there: one
        // wake-up per arrival, where a dispatch source costs two (its event thread, then the
        // queue's). It holds the transport only while reading, so dropping the transport ends it.
        let thread = Thread { [weak self, sources, name] in
            var buffer = [UInt8](repeating: 0, count: Self.readSize)
            while true {
                let ready = waitReadable(descriptor, wake)
                if ready < 0 {
                    // poll(2) failed (ENOMEM, say): nothing more can be read, so the stream ends.
                    self?.end(LinuxBluetoothError(.transfer("waiting to read from \(name)"), code: -ready))
                }
                guard ready == 1, let transport = self else { break }
                transport.readAvailable(into: &buffer)
            }
            sources.leave()
        }
        thread.name = "H4 " + name
        thread.start()
    }

    /// The executor's read buffer (``readSize`` octets, reused), touched on its thread only.
    private final class ReadBuffer: @unchecked Sendable {
        var octets = [UInt8](repeating: 0, count: H4StreamTransport.readSize)
    }

    /// Stops the executor's watch of the descriptor (once); the descriptor closes after.
    private func stopReading() {
        guard let executor, let watch = state.withLock({ state -> HostExecutor.Watch? in
            state.stopsReading = true
            defer { state.watch = nil }
            return state.watch
        }) else { return }
        executor.stopWatching(watch) { [sources] in sources.leave() }
    }

    deinit { end(nil) }

    /// Whether the stream has ended (closed here, by the peer, or by an error).
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Why the stream ended, once it has: nil for the peer's orderly end or a close at this end.
    public var endError: LinuxBluetoothError? { state.withLock { $0.endError } }

    /// How many packets ``packets`` was given so far (none after a redirect).
    var yieldedCount: Int { state.withLock { $0.yielded } }

    /// Every octet skipped as garbage so far.
    public var skippedOctetCount: Int { state.withLock { $0.skippedOctetCount } }

    /// How many runs of skipped octets were reported so far.
    public var diagnosticCount: Int { state.withLock { $0.diagnosticCount } }

    /// The newest runs of skipped octets (at most ``recentDiagnosticsLimit``), oldest first.
    public var recentDiagnostics: [H4SkippedOctets] { state.withLock { $0.recent } }

    /// Sends one packet as an H4 frame (its indicator, then the packet), whole and after every
    /// packet sent before it.
    ///
    /// - Throws: ``HCITransportError/closed`` once the stream has ended (or when it ends before
    ///   the packet is written; a peer gone, EPIPE, ECONNRESET or EIO, counts as ended);
    ///   ``HCITransportError/failed(_:)`` with the system's reason for another write error,
    ///   which also ends the stream.
    public nonisolated(nonsending) func send(_ packet: HCIPacket) async throws(HCITransportError) {
        let octets = packet.h4Encoded
        // With nothing queued ahead of it, the packet is written here, at once (the descriptor
        // is non-blocking): most sends cost one write(2) and no thread hand-off. What the
        // descriptor cannot take now is queued, in order, for the write source.
        let id: UInt64
        switch writeNow(octets) {
        case .written: return
        case .refused(let error): throw error
        case .queued(let queuedID): id = queuedID
        }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, HCITransportError>, Never>) in
            let outcome = state.withLock { state -> Result<Void, HCITransportError>? in
                if let index = state.outgoing.firstIndex(where: { $0.id == id }) {
                    state.outgoing[index].continuation = continuation
                    return nil
                }
                // Written (or failed) by the write source before its caller was waiting.
                return state.finished.removeValue(forKey: id) ?? .failure(.closed)
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
        try result.get()
    }

    private enum DirectWrite {
        case written
        case queued(UInt64)
        /// The stream had ended, or this write failed and ended it.
        case refused(HCITransportError)
    }

    /// Writes `octets` now when no packet waits ahead of them; otherwise, or for what the
    /// descriptor does not take, queues them (by id) for ``writePending()``.
    private func writeNow(_ octets: [UInt8], detached: Bool = false) -> DirectWrite {
        let (outcome, error): (DirectWrite, LinuxBluetoothError?) = state.withLock { state in
            guard !state.isClosed else { return (.refused(.closed), nil) }
            var written = 0
            if state.outgoing.isEmpty, state.writeSource == nil {
                // Under the lock, so that no other sender's octets come between ours.
                while written < octets.count {
                    let count = octets.withUnsafeBytes { octets in
                        cbl_write(descriptor, octets.baseAddress! + written, octets.count - written, isSocket ? 1 : 0)
                    }
                    if count > 0 { written += count; continue }
                    if count == 0 || Int32(-count) == EAGAIN { break }
                    if Int32(-count) == EINTR { continue }
                    let (error, failure) = writeFailure(Int32(-count))
                    return (.refused(failure), error)
                }
                if written == octets.count { return (.written, nil) }
            }
            state.nextOutgoingID &+= 1
            state.outgoing.append(Outgoing(id: state.nextOutgoingID, octets: octets, written: written, isDetached: detached))
            return (.queued(state.nextOutgoingID), nil)
        }
        if let error { end(error) }
        if case .queued = outcome {
            // A partial write leaves the descriptor full: wait for room. Otherwise the queue's
            // writer is already on its way, or this starts it.
            queue.async { self.writePending() }
        }
        return outcome
    }

    /// Sends `packet` at once when nothing is queued ahead, else queues it behind the others,
    /// without waiting for it to be written (``HCIDirectTransport``).
    ///
    /// - Returns: false once the stream has ended, or when the write failed (which ends it).
    public func sendNow(_ packet: HCIPacket) -> Bool {
        switch writeNow(packet.h4Encoded, detached: true) {
        case .written, .queued: return true
        case .refused: return false
        }
    }

    /// Hands each packet read from now on to `receiver`, on the reader thread, instead of into
    /// ``packets`` (``HCIDirectTransport``).
    ///
    /// - Returns: how many packets ``packets`` was given before.
    public func redirectPackets(to receiver: @escaping @Sendable (HCIPacket) -> Void) -> Int {
        state.withLock { state in
            state.redirect = receiver
            return state.yielded
        }
    }

    /// Ends the stream: ``packets`` and ``diagnostics`` finish, packets not yet written are
    /// dropped (their sends throw ``HCITransportError/closed``), and the descriptor is closed.
    /// Closing again does nothing.
    public func close() async { end(nil) }

    // MARK: Reading

    /// Reads what is waiting (readiness said there is some) into the reader thread's `buffer`
    /// (``readSize`` octets, reused), frames it and delivers it. Runs on the reader thread only.
    private func readAvailable(into buffer: inout [UInt8]) {
        for _ in 0..<Self.readsPerEvent {
            guard !isClosed else { return }
            let count = buffer.withUnsafeMutableBytes { cbl_read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                deliver(reader.withLock { $0.append(buffer[..<count]) })
                // A short read emptied the descriptor: poll(2) says when there is more, which
                // saves the read that would only find EAGAIN.
                if count < buffer.count { return }
                continue
            }
            if count == 0 {
                endOfStream(nil)
                return
            }
            switch Int32(-count) {
            case EINTR: continue
            case EAGAIN: return
            default:
                endOfStream(LinuxBluetoothError(.transfer("reading from \(name)"), code: Int32(-count)))
                return
            }
        }
    }

    /// The stream ended at the peer: what the reader still held is reported, then the end.
    private func endOfStream(_ error: LinuxBluetoothError?) {
        let rest = reader.withLock { $0.finish() }
        deliver(rest.map { .skipped($0) })
        end(error)
    }

    private func deliver(_ elements: [H4StreamReader.Element]) {
        for element in elements {
            switch element {
            case .packet(let packet):
                let redirect = state.withLock { state -> (@Sendable (HCIPacket) -> Void)? in
                    if let redirect = state.redirect { return redirect }
                    state.yielded += 1
                    return nil
                }
                if let redirect { redirect(packet) } else { input.yield(packet) }
            case .skipped(let run):
                state.withLock { state in
                    state.skippedOctetCount &+= run.count
                    state.diagnosticCount &+= 1
                    if state.recent.count == Self.recentDiagnosticsLimit { state.recent.removeFirst() }
                    state.recent.append(run)
                }
                diagnosticInput.yield(run)
            }
        }
    }

    // MARK: Writing

    /// Writes queued packets in order until done or the descriptor is full (then a write source
    /// calls again when it has room). Runs on ``queue`` only, so one packet is written at a time.
    private func writePending() {
        while true {
            let next: (octets: [UInt8], written: Int)? = state.withLock { state in
                guard !state.isClosed, state.writeSource == nil, let head = state.outgoing.first else { return nil }
                return (head.octets, head.written)
            }
            guard let next else { return }
            let count = next.octets.withUnsafeBytes { octets in
                cbl_write(descriptor, octets.baseAddress! + next.written, octets.count - next.written, isSocket ? 1 : 0)
            }
            if count == 0 {
                waitUntilWritable()                       // nothing taken: wait for room rather than spin
                return
            }
            if count > 0 {
                let done = state.withLock { state -> CheckedContinuation<Result<Void, HCITransportError>, Never>? in
                    guard !state.isClosed, !state.outgoing.isEmpty else { return nil }
                    state.outgoing[0].written += count
                    guard state.outgoing[0].written == state.outgoing[0].octets.count else { return nil }
                    return state.finish(state.outgoing.removeFirst(), with: .success(()))
                }
                done?.resume(returning: .success(()))
                continue
            }
            switch Int32(-count) {
            case EINTR:
                continue
            case EAGAIN:
                waitUntilWritable()
                return
            case let code:
                let (error, failure) = writeFailure(code)
                let outcome: Result<Void, HCITransportError> = .failure(failure)
                let failed = state.withLock { state in
                    state.isClosed || state.outgoing.isEmpty ? nil : state.finish(state.outgoing.removeFirst(), with: outcome)
                }
                failed?.resume(returning: outcome)
                end(error)
                return
            }
        }
    }

    /// What write(2)'s error `code` means: the error that ends the stream, and what the send
    /// throws (a peer gone, EPIPE, ECONNRESET or EIO, is ``HCITransportError/closed``).
    private func writeFailure(_ code: Int32) -> (LinuxBluetoothError, HCITransportError) {
        let error = LinuxBluetoothError(.transfer("writing to \(name)"), code: code)
        let peerGone = code == EPIPE || code == ECONNRESET || code == EIO
        return (error, peerGone ? .closed : .failed(error.description))
    }

    /// Watches the descriptor until it can take more octets, then writes on.
    private func waitUntilWritable() {
        state.withLock { state in
            guard !state.isClosed, state.writeSource == nil else { return }
            let source = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [weak self] in self?.becameWritable() }
            sources.enter()
            source.setCancelHandler { [sources] in sources.leave() }
            state.writeSource = source
            source.resume()
        }
    }

    private func becameWritable() {
        state.withLock { state in
            state.writeSource?.cancel()
            state.writeSource = nil
        }
        writePending()
    }

    // MARK: The end

    /// Ends the stream once: wakes the reader thread to stop, cancels the write source, closes
    /// the descriptor once neither watches it, finishes the streams, and fails the packets not
    /// yet written.
    private func end(_ error: LinuxBluetoothError?) {
        let waiting: [Outgoing]? = state.withLock { state in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            state.endError = error
            state.writeSource?.cancel()
            state.writeSource = nil
            defer { state.outgoing = [] }
            return state.outgoing
        }
        guard let waiting else { return }
        _ = cbl_wake_signal(wake)
        stopReading()
        sources.notify(queue: queue) { [descriptor, wake] in
            _ = cbl_close(descriptor)
            _ = cbl_close(wake)
        }
        input.finish()
        diagnosticInput.finish()
        for packet in waiting { packet.continuation?.resume(returning: .failure(.closed)) }
    }
}

