import Synchronization

/// Every open `AsyncStream` of one kind of event, and the end they share.
///
/// Each ``yield(_:)`` goes to every stream open at the time. ``finish()`` finishes them all,
/// and a stream asked for after it is finished at once, so that no reader waits for an event
/// that can no longer come. A stream leaves when its reader stops iterating.
///
/// The public streams of the manager state, the readiness to send, the changes of a remote
/// database and the management channel's events all run on it. It is for the package's
/// modules, not part of the public API.
package final class StreamFanOut<Element: Sendable>: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var continuations: [UInt64: AsyncStream<Element>.Continuation] = [:]
        var finished = false
    }

    private let state = Mutex(State())
    private let buffered: Int

    /// A fan-out whose streams each keep the newest `buffered` elements for a reader that
    /// falls behind (older ones are dropped).
    package init(bufferingNewest buffered: Int) {
        self.buffered = buffered
    }

    /// How many streams are open: asked for, not finished, and still read (or still held).
    package var openCount: Int { state.withLock { $0.continuations.count } }

    /// A new stream. It gives `first` (when not nil) before any element yielded later, then
    /// each element yielded while it is open; it finishes with the others, and at once (after
    /// `first`) once ``finish()`` has run.
    package func stream(startingWith first: Element? = nil) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(buffered))
        if let first { continuation.yield(first) }
        let id = state.withLock { state -> UInt64? in
            guard !state.finished else { return nil }
            state.nextID &+= 1
            state.continuations[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Gives `element` to every open stream; nothing once ``finish()`` has run.
    package func yield(_ element: Element) {
        let open = state.withLock { Array($0.continuations.values) }
        for continuation in open { continuation.yield(element) }
    }

    /// Finishes every open stream, and every stream asked for from now on. Later calls do nothing.
    package func finish() {
        let open = state.withLock { state -> [AsyncStream<Element>.Continuation] in
            state.finished = true
            defer { state.continuations = [:] }
            return Array(state.continuations.values)
        }
        // Outside the lock: finishing runs each stream's onTermination, which takes it.
        for continuation in open { continuation.finish() }
    }

    /// A stream that has already finished: what a source that is gone (no link) hands out.
    package static func finished() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        continuation.finish()
        return stream
    }
}
