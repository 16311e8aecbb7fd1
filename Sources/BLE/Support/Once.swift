import Synchronization

/// A value set once and awaited by any number of callers: each waiter resumes exactly once,
/// whether the value came before or after it started waiting.
final class Once<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
    }

    private let state = Mutex(State())

    init() {}

    /// The value, once set.
    var value: Value? { state.withLock { $0.value } }

    /// Sets the value and resumes every waiter; later calls do nothing.
    ///
    /// - Returns: whether this call set it.
    @discardableResult
    func resolve(_ value: Value) -> Bool {
        let waiters: [CheckedContinuation<Value, Never>]? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// The value, once set.
    func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let ready: Value? = state.withLock { state in
                if let value = state.value { return value }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// A continuation that any of several racers may resume; the first wins, the others do nothing.
final class FirstResult<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Mutex(continuation)
    }

    /// Resumes the continuation with `value` unless another racer did first.
    func resume(_ value: Value) {
        let taken = continuation.withLock { slot -> CheckedContinuation<Value, Never>? in
            defer { slot = nil }
            return slot
        }
        taken?.resume(returning: value)
    }
}
