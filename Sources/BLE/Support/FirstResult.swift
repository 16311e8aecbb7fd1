import Synchronization

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
