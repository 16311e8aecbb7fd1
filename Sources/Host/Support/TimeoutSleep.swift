/// The sleep of Host's timeout timers (command, connection and procedure timeouts), on an
/// injected clock.
package enum TimeoutSleep {
    /// The longest a timer sleeps: 100 years. A longer timeout (such as `.seconds(Int64.max)`
    /// for "never") is the same wait in practice, and its deadline would pass the seconds a
    /// clock's sleep can hold (the sleep traps).
    package static let longest: Duration = .seconds(100 * 365 * 24 * 3600)

    /// Sleeps `duration` (at most ``longest``) on `clock`.
    ///
    /// - Throws: `CancellationError` when the timer's task is cancelled.
    package static func sleep<C: Clock>(on clock: C, for duration: Duration) async throws where C.Duration == Duration {
        try await clock.sleep(until: clock.now.advanced(by: min(duration, longest)), tolerance: nil)
    }

    /// A timer: a task that runs `expiry` once `duration` has passed on `clock`, and nothing
    /// when it is cancelled first (the wait it bounds ended sooner).
    package static func timer<C: Clock>(after duration: Duration, on clock: C,
                                        _ expiry: @escaping @Sendable () async -> Void) -> Task<Void, Never> where C.Duration == Duration {
        Task {
            guard (try? await sleep(on: clock, for: duration)) != nil else { return }
            await expiry()
        }
    }
}
