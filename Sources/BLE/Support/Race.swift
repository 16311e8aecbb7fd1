import Synchronization

/// The first of several racers' values, for one waiter: a racer may finish before the waiter
/// starts waiting (the value is kept), and every later finish does nothing.
final class Race<Value: Sendable>: Sendable {
    private struct State {
        var waiter: CheckedContinuation<Value, Never>?
        var value: Value?
    }

    private let state = Mutex(State())

    init() {}

    /// Ends the race with `value` unless a racer already did.
    func finish(_ value: Value) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, Never>? in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    /// The winning value: at once when the race has ended, else when it does. One waiter only.
    var value: Value {
        get async {
            await withCheckedContinuation { (waiter: CheckedContinuation<Value, Never>) in
                let early = state.withLock { state -> Value? in
                    if let value = state.value { return value }
                    state.waiter = waiter
                    return nil
                }
                if let early { waiter.resume(returning: early) }
            }
        }
    }
}
