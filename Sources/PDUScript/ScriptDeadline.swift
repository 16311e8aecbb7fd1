import ATT
import Synchronization

/// Waits for an event with a wall-clock bound, for triggers that wait on the stack (a timer
/// being armed, a bearer ending): the event resumes the wait at once, and the bound only turns
/// a stack that never gets there into a result the script reports, never into a hang.
enum ScriptDeadline {
    /// Whether `event` finished within `bound`. When it does not, it is left running; its
    /// result is ignored.
    static func wait(for event: @escaping @Sendable () async -> Void, within bound: Duration = .seconds(20)) async -> Bool {
        final class Once: Sendable {
            let continuation = Mutex<CheckedContinuation<Bool, Never>?>(nil)
            func resume(_ value: Bool) {
                continuation.withLock { $0.take() }?.resume(returning: value)
            }
        }
        let once = Once()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            once.continuation.withLock { $0 = continuation }
            let timer = Task {
                try? await Task.sleep(for: bound)
                once.resume(false)
            }
            Task {
                await event()
                once.resume(true)
                timer.cancel()
            }
        }
    }

    /// Moves `clock` on by `duration` once something sleeps on it (the stack has armed a timer).
    ///
    /// - Throws: ``PDUScriptDeviceError`` when no timer is armed within 20 s; the clock stays.
    static func advance(_ clock: TestClock, by duration: Duration) async throws(PDUScriptDeviceError) {
        guard await wait(for: { await clock.waitForSleepers() }) else {
            throw PDUScriptDeviceError("the stack armed no timer within 20 s")
        }
        clock.advance(by: duration)
    }
}
