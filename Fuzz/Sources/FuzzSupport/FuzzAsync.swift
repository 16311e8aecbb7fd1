import Dispatch

/// Runs async harness code from libFuzzer's synchronous callback.
public enum FuzzAsync {
    /// Runs `body` in a task and blocks the calling thread (libFuzzer's, never one of the
    /// concurrency pool's) until it returns.
    public static func run(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }

    /// The value of `operation`, or a broken property naming `what` when it has not returned
    /// within `seconds` of wall-clock time: the harnesses' own hang bound, far below
    /// libFuzzer's -timeout, so that a hang is reported with what was waited for.
    public static func within<T: Sendable>(_ seconds: Double, _ what: @autoclosure () -> String,
                                           _ operation: @escaping @Sendable () async -> T) async -> T {
        let result = await withTaskGroup(of: T?.self) { group in
            group.addTask { await operation() }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let result else { FuzzProperty.fail("hang: \(what()) did not end within \(seconds) s") }
        return result
    }
}
