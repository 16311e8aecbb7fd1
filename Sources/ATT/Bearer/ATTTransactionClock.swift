/// The engine's view of its clock for the transaction timer (Core v5.4, Vol 3, Part F, 3.3.3):
/// time as a `Duration` elapsed since the engine started, and a sleep until a given elapsed
/// time. It opens the injected `any Clock<Duration>` once, so deadlines can be stored and
/// compared without the clock's own `Instant` type.
struct ATTTransactionClock: Sendable {
    /// The time elapsed on the clock since the engine started.
    let elapsed: @Sendable () -> Duration
    /// Sleeps until ``elapsed`` reaches the given value; throws `CancellationError` when the
    /// sleeping task is cancelled.
    let sleep: @Sendable (Duration) async throws -> Void

    init(_ clock: some Clock<Duration>) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleep = { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) }
    }
}
