import Synchronization

/// A value that is set once and awaited by any number of callers: each waiter resumes exactly
/// once, with the value, whether it came before or after the wait. Links' ends, pending
/// attempts, and races (the first of several finishers sets it, the others do nothing) use it.
///
/// ```swift
/// let ended = OneShot<HCIStatus>()
/// Task { print(await ended.wait()) }       // 0x13, once
/// ended.resolve(.remoteUserTerminatedConnection)
/// ```
public final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
    }

    private let state = Mutex(State())

    /// A value not set yet.
    public init() {}

    /// The value, if it has been set.
    public var value: Value? { state.withLock { $0.value } }

    /// How many callers of ``wait()`` wait for the value now (0 once it is set).
    public var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Sets the value and resumes every waiter; later calls do nothing.
    /// - Returns: whether this call set it.
    @discardableResult
    public func resolve(_ value: Value) -> Bool {
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
    public func wait() async -> Value {
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
