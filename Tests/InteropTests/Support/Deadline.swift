import Synchronization

/// What did not happen in time (test-only).
struct DeadlineExceeded: Error, CustomStringConvertible {
    /// What was being waited for.
    let what: String
    /// How long the wait was allowed to take.
    let timeout: Duration

    var description: String { "timed out after \(timeout) waiting for \(what)" }
}

/// Runs `body` and returns its result, or throws ``DeadlineExceeded`` after `timeout`, even when
/// `body` ignores cancellation (it is cancelled, and left to finish on its own). Test-only: it
/// bounds every wait of the interop tests on our own stack (scans, links, subscriptions).
func withDeadline<T: Sendable>(_ timeout: Duration, _ what: String,
                               _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let outcome = Outcome<T>()
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        outcome.set(continuation)
        let work = Task {
            do { outcome.finish(.success(try await body())) } catch { outcome.finish(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: timeout)
            outcome.finish(.failure(DeadlineExceeded(what: what, timeout: timeout)))
            work.cancel()
        }
    }
}

/// The one resumption of a ``withDeadline(_:_:_:)`` wait: the first result wins.
private final class Outcome<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)

    func set(_ waiting: CheckedContinuation<T, any Error>) { continuation.withLock { $0 = waiting } }

    func finish(_ result: Result<T, any Error>) {
        continuation.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }?.resume(with: result)
    }
}
