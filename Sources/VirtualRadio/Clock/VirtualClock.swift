/// The radio's virtual time as a Swift `Clock`, so hosts can run their own timeouts (such as
/// ``HCICommandFlow``'s command timeout or ATT's 30 s transaction timer) on the same time as the
/// controllers, and a test in ``VirtualRadio/Timing/manual`` timing stays deterministic.
///
/// ```swift
/// let radio = VirtualRadio(timing: .manual)
/// let flow = HCICommandFlow(transport: controller.attach(), clock: radio.clock)
/// await radio.advance(by: .seconds(2))     // a command left unanswered now times out
/// ```
///
/// Time starts at zero when the radio is made. In manual timing it moves only with
/// ``VirtualRadio/advance(by:)``; in paced timing it follows real time times the speed. A
/// sleeper wakes when the radio's time reaches its deadline, in deadline order among the radio's
/// own events; a cancelled sleeper throws `CancellationError`.
public final class VirtualClock: Clock, Sendable {
    /// A point in virtual time: the duration since the radio started.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// Time since the radio started.
        public var offset: Duration

        /// The instant `offset` after the radio started.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later (earlier when negative).
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether `lhs` is earlier than `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// The offset, such as "1.25 seconds".
        public var description: String { offset.description }
    }

    let core: RadioCore
    let lifetime: RadioLifetime

    init(core: RadioCore, lifetime: RadioLifetime) {
        self.core = core
        self.lifetime = lifetime
    }

    /// The radio's current virtual time (in paced timing, after every event already due has run).
    public var now: Instant { Instant(offset: .micros(core.currentTime())) }

    /// One microsecond: the radio's time step.
    public var minimumResolution: Duration { .microseconds(1) }

    /// Suspends until the radio's time reaches `deadline` (rounded up to a microsecond); returns
    /// at once if it already has.
    ///
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let due = deadline.offset.microsRoundedUp
        let id = core.makeSleeperID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    core.addSleeper(id, due: due, continuation)
                }
            }
        } onCancel: {
            core.cancelSleeper(id)
        }
    }
}
