import BLECore
import Synchronization

/// A manager's ``ManagerState``, the error its calls throw when it is not powered on, and every
/// subscriber of its `stateUpdates`.
final class StateBroadcast: Sendable {
    private struct State {
        var current: ManagerState = .unknown
        var failure: BLEError = .poweredOff
        var settledWaiters: [(id: UInt64, waiter: CheckedContinuation<Void, Never>)] = []
        var lastWaiterID: UInt64 = 0
        var finished = false
    }

    private let state = Mutex(State())
    /// The `stateUpdates` streams. Their first state and each change are given under `state`'s
    /// lock, so that a new stream neither misses a change nor gets one twice, and every stream
    /// sees the changes in the order they were made.
    private let subscribers = StreamFanOut<ManagerState>(bufferingNewest: 16)

    init() {}

    /// The state now.
    var current: ManagerState { state.withLock { $0.current } }

    /// Moves to `next` (each subscriber gets it once), with `failure` as what calls throw
    /// unless `next` is ``ManagerState/poweredOn``. After ``finish()`` it does nothing: a closed
    /// manager keeps the state it closed in, even when a bring-up still running reaches its end
    /// (and a `resetting` set after it would leave ``poweredOn()`` waiting for ever).
    func set(_ next: ManagerState, failure: BLEError = .poweredOff) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.finished else { return [] }
            guard state.current != next || state.failure != failure else { return [] }
            let changed = state.current != next
            state.current = next
            state.failure = failure
            if changed { subscribers.yield(next) }
            guard next != .unknown && next != .resetting else { return [] }
            defer { state.settledWaiters = [] }
            return state.settledWaiters.map(\.waiter)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// A stream that starts with the current state and then gives each change; it finishes
    /// when the manager closes (``finish()``; at once after it), and stops when its iteration ends.
    func updates() -> AsyncStream<ManagerState> {
        state.withLock { subscribers.stream(startingWith: $0.current) }
    }

    /// Waits while the state is ``ManagerState/unknown`` (bring-up) or ``ManagerState/resetting``
    /// (the controller being brought up again), then returns normally when powered on.
    ///
    /// - Parameter cancellable: whether the calling task's cancellation ends the wait; false for
    ///   cleanup that must reach the controller (a stop of advertising).
    /// - Throws: what calls throw in the settled state when it is not ``ManagerState/poweredOn``;
    ///   ``BLEError/cancelled`` when `cancellable` and the calling task is cancelled while it waits.
    func poweredOn(cancellable: Bool = true) async throws(BLEError) {
        while true {
            let (now, failure) = state.withLock { ($0.current, $0.failure) }
            switch now {
            case .poweredOn: return
            case .unknown, .resetting:
                let id = state.withLock { state in
                    state.lastWaiterID &+= 1
                    return state.lastWaiterID
                }
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                        // Under the lock: a cancellation either came before (the task is
                        // cancelled already) or finds the waiter to resume.
                        let ready = state.withLock { state -> Bool in
                            guard state.current == .unknown || state.current == .resetting, !(cancellable && Task.isCancelled) else { return true }
                            state.settledWaiters.append((id, waiter))
                            return false
                        }
                        if ready { waiter.resume() }
                    }
                } onCancel: {
                    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                        guard cancellable, let index = state.settledWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                        return state.settledWaiters.remove(at: index).waiter
                    }
                    waiter?.resume()
                }
                let stillSettling = state.withLock { $0.current == .unknown || $0.current == .resetting }
                if stillSettling && cancellable && Task.isCancelled { throw .cancelled }
            default:
                throw failure
            }
        }
    }

    /// Calls waiting in ``poweredOn()``, for tests.
    var waiterCount: Int { state.withLock { $0.settledWaiters.count } }

    /// Finishes every subscriber's stream; the state stays as it is from now on.
    func finish() {
        state.withLock { $0.finished = true }
        subscribers.finish()
    }
}
