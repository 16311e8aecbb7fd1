import Synchronization

/// The requests ``PeripheralManager/requests`` hands the application, in arrival order, for one
/// reader.
///
/// A request that waits for an answer is never dropped. There is at most one per link: the
/// server handles a link's ATT requests one at a time, as ATT has each client wait for the
/// response before its next request (Core v5.4, Vol 3, Part F, 3.3.2), an executed queued write
/// comes as one batch, and a request its deadline answered is withdrawn (``withdraw(_:)``).
/// Writes without response (Write Command, Signed Write Command: 3.4.5.3, 3.4.5.4), which
/// nothing answers, are kept newest ``commandCapacity``, of all centrals together: a central that
/// floods them while the application reads slowly pushes out the oldest commands, never a
/// request.
final class RequestQueue: Sendable {
    /// How many writes without response wait at most: 256.
    static let commandCapacity = 256

    private struct State {
        var items: [PeripheralRequest] = []
        /// How many of `items` are writes without response.
        var commands = 0
        /// The reader waiting for the next request.
        var reader: CheckedContinuation<PeripheralRequest?, Never>?
        var finished = false
    }

    private let state = Mutex(State())

    init() {}

    /// The queue as a stream for its one reader; a reader's cancellation ends it, as
    /// ``finish()`` does, and drops what it holds; so does a second reader waiting while the
    /// first does. (The stream's own cancellation handler covers
    /// a task cancelled between two reads, which never reaches ``next()``.)
    func stream() -> AsyncStream<PeripheralRequest> {
        AsyncStream(unfolding: { await self.next() }, onCancel: { self.cancel() })
    }

    /// How many requests wait to be read; for tests and diagnostics.
    var count: Int { state.withLock { $0.items.count } }

    /// Whether a reader waits for the next request; for tests.
    var hasWaitingReader: Bool { state.withLock { $0.reader != nil } }

    /// Takes `request` out of the queue if it is still there unread: its deadline has answered
    /// it, so the application need not see it, and a reader that stalls does not pile up one
    /// stale request per deadline per link.
    func withdraw(_ request: ATTRequest) {
        state.withLock { state in
            guard let index = state.items.firstIndex(where: { $0.firstRequest === request }) else { return }
            if state.items.remove(at: index).isCommand { state.commands -= 1 }
        }
    }

    /// Hands `request` to the waiting reader, or queues it; when the queue now holds more than
    /// ``commandCapacity`` writes without response, the oldest of them is dropped. Does nothing
    /// once finished.
    func yield(_ request: PeripheralRequest) {
        let reader = state.withLock { state -> CheckedContinuation<PeripheralRequest?, Never>? in
            guard !state.finished else { return nil }
            if let reader = state.reader {
                state.reader = nil
                return reader
            }
            state.items.append(request)
            if request.isCommand {
                state.commands += 1
                if state.commands > Self.commandCapacity, let oldest = state.items.firstIndex(where: \.isCommand) {
                    state.items.remove(at: oldest)
                    state.commands -= 1
                }
            }
            return nil
        }
        reader?.resume(returning: request)
    }

    /// Ends the stream: the reader takes what is queued, then nil.
    func finish() {
        let reader = state.withLock { state -> CheckedContinuation<PeripheralRequest?, Never>? in
            state.finished = true
            defer { state.reader = nil }
            return state.items.isEmpty ? state.reader : nil
        }
        reader?.resume(returning: nil)
    }

    /// The next request, waiting for one; nil once finished and empty, or when the reader's
    /// task is cancelled (which finishes the queue and drops what it holds).
    private func next() async -> PeripheralRequest? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { reader in
                var previous: CheckedContinuation<PeripheralRequest?, Never>?
                let ready = state.withLock { state -> PeripheralRequest?? in
                    if !state.items.isEmpty {
                        let request = state.items.removeFirst()
                        if request.isCommand { state.commands -= 1 }
                        return .some(request)
                    }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    if let waiting = state.reader {
                        // One reader: a second one waiting at the same time ends the stream
                        // for both (a stream whose read gave nil is over), and the queue with it.
                        previous = waiting
                        state.reader = nil
                        state.finished = true
                        return .some(nil)
                    }
                    state.reader = reader
                    return nil
                }
                previous?.resume(returning: nil)
                if let ready { reader.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The reader's task was cancelled: ends the queue, drops what it holds, and ends a waiting
    /// read.
    private func cancel() {
        let reader = state.withLock { state -> CheckedContinuation<PeripheralRequest?, Never>? in
            state.finished = true
            state.items = []
            state.commands = 0
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: nil)
    }
}

extension PeripheralRequest {
    /// The request that stands for it: the read, or a write batch's first (the one answered).
    var firstRequest: ATTRequest? {
        switch self {
        case .read(let request): request
        case .write(let requests): requests.first
        }
    }

    /// Whether it is a write without response, which nothing answers.
    var isCommand: Bool {
        guard case .write(let requests) = self else { return false }
        return requests.first?.writeType == .withoutResponse
    }
}
