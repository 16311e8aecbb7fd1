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
    /// libFuzzer's -timeout, so that a hang is reported with what was waited for. The bound traps
    /// from its own task: a task group would wait for an operation that ignores cancellation.
    /// `what` is evaluated when the bound fires, so it can say how far things got.
    public static func within<T: Sendable>(_ seconds: Double, _ what: @escaping @Sendable @autoclosure () -> String,
                                           _ operation: @escaping @Sendable () async -> T) async -> T {
        let bound = Task {
            do { try await Task.sleep(for: .milliseconds(Int(seconds * 1000))) } catch { return }
            FuzzProperty.fail("hang: \(what()) did not end within \(seconds) s")
        }
        let result = await operation()
        bound.cancel()
        return result
    }
}

extension FuzzAsync {
    /// Waits until `isReleased` holds, for at most `seconds` of wall-clock time, and breaks a
    /// property naming `what` if it never does: the engine harnesses' leak check, cheaper than
    /// LeakSanitizer's scan of the heap after every input whose tasks outlive it.
    public static func expectReleased(_ what: @autoclosure () -> String, within seconds: Double = 5,
                                      _ isReleased: () -> Bool) async {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !isReleased() {
            guard ContinuousClock.now < deadline else { FuzzProperty.fail("leak: \(what()) still alive \(seconds) s after the input") }
            await Task.yield()
            try? await Task.sleep(for: .microseconds(200))
        }
    }
}
