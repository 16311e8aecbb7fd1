import Synchronization

/// A manager's ``ManagerState``, the error its calls throw when it is not powered on, and every
/// subscriber of its `stateUpdates`.
final class StateBroadcast: Sendable {
    private struct State {
        var current: ManagerState = .unknown
        var failure: BLEError = .poweredOff
        var nextID: UInt64 = 0
        var subscribers: [UInt64: AsyncStream<ManagerState>.Continuation] = [:]
        var settledWaiters: [CheckedContinuation<Void, Never>] = []
        var finished = false
    }

    private let state = Mutex(State())

    init() {}

    /// The state now.
    var current: ManagerState { state.withLock { $0.current } }

    /// Moves to `next` (each subscriber gets it once), with `failure` as what calls throw
    /// unless `next` is ``ManagerState/poweredOn``. After ``finish()`` it does nothing: a closed
    /// manager keeps the state it closed in, even when a bring-up still running reaches its end
    /// (and a `resetting` set after it would leave ``poweredOn()`` waiting for ever).
    func set(_ next: ManagerState, failure: BLEError = .poweredOff) {
        let (subscribers, waiters) = state.withLock { state -> ([AsyncStream<ManagerState>.Continuation], [CheckedContinuation<Void, Never>]) in
            guard !state.finished else { return ([], []) }
            guard state.current != next || state.failure != failure else { return ([], []) }
            let changed = state.current != next
            state.current = next
            state.failure = failure
            let settles = next != .unknown && next != .resetting
            let waiters = settles ? state.settledWaiters : []
            if settles { state.settledWaiters = [] }
            return (changed ? Array(state.subscribers.values) : [], waiters)
        }
        for subscriber in subscribers { subscriber.yield(next) }
        for waiter in waiters { waiter.resume() }
    }

    /// A stream that starts with the current state and then gives each change; it finishes
    /// when the manager closes (``finish()``; at once after it), and stops when its iteration ends.
    func updates() -> AsyncStream<ManagerState> {
        let (stream, continuation) = AsyncStream.makeStream(of: ManagerState.self, bufferingPolicy: .bufferingNewest(16))
        let id: UInt64? = state.withLock { state in
            continuation.yield(state.current)
            guard !state.finished else { return nil }
            state.nextID &+= 1
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Waits while the state is ``ManagerState/unknown`` (bring-up) or ``ManagerState/resetting``
    /// (the controller being brought up again), then returns normally when powered on.
    ///
    /// - Throws: what calls throw in the settled state when it is not ``ManagerState/poweredOn``.
    func poweredOn() async throws(BLEError) {
        while true {
            let (now, failure) = state.withLock { ($0.current, $0.failure) }
            switch now {
            case .poweredOn: return
            case .unknown, .resetting:
                await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        guard state.current == .unknown || state.current == .resetting else { return true }
                        state.settledWaiters.append(waiter)
                        return false
                    }
                    if ready { waiter.resume() }
                }
            default:
                throw failure
            }
        }
    }

    /// Finishes every subscriber's stream.
    func finish() {
        let subscribers = state.withLock { state -> [AsyncStream<ManagerState>.Continuation] in
            state.finished = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
