import Synchronization

/// One link's subscribers of ``Peripheral/servicesModified``: each change of the server's
/// database goes to every stream open on the link; when the link drops, every stream finishes.
final class ServiceModifications: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var streams: [UInt64: AsyncStream<[Service]>.Continuation] = [:]
        var ended = false
    }

    /// How many modifications a stream keeps for a reader that falls behind: the newest 64.
    static let buffered = 64

    private let state = Mutex(State())

    init() {}

    /// A new stream of modifications; finished at once when the link has ended.
    func stream() -> AsyncStream<[Service]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [Service].self, bufferingPolicy: .bufferingNewest(Self.buffered))
        let id: UInt64? = state.withLock { state in
            guard !state.ended else { return nil }
            state.nextID &+= 1
            state.streams[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Gives `invalidated` to every open stream.
    func yield(_ invalidated: [Service]) {
        let streams = state.withLock { $0.ended ? [] : Array($0.streams.values) }
        for stream in streams { stream.yield(invalidated) }
    }

    /// The link dropped: every stream finishes, and later ones finish at once. Once.
    func end() {
        let streams = state.withLock { state -> [AsyncStream<[Service]>.Continuation] in
            defer {
                state.ended = true
                state.streams = [:]
            }
            return state.ended ? [] : Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}
