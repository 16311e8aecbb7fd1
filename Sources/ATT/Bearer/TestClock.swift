import Synchronization

/// A `Clock` whose time moves only when told to, so that tests and PDU scripts can check
/// ATT's 30 s transaction timeout (Core v5.4, Vol 3, Part F, 3.3.3) without waiting.
///
/// ```swift
/// let clock = TestClock()
/// let engine = ATTEngine(bearer: bearer, clock: clock)
/// let pending = Task { try await engine.request(.readRequest(ATTReadRequest(handle: 3))) }
/// await clock.waitForSleepers(1)          // the engine has armed its timer
/// clock.advance(by: .seconds(30))         // the request now fails with ATTError.timeout
/// ```
///
/// Time starts at zero. ``sleep(until:tolerance:)`` suspends until ``advance(by:)`` or
/// ``advance(to:)`` reaches the deadline, or until the sleeping task is cancelled (then it
/// throws `CancellationError`). Time never goes backwards.
///
/// The state sits under a `Mutex` (Synchronization): every access is a short critical
/// section that never suspends; continuations are resumed after the lock is released.
public final class TestClock: Clock, Sendable {
    /// A point in the test clock's time: the duration since the clock started.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// Time since the clock started.
        public var offset: Swift.Duration

        /// The instant `offset` after the clock started.
        public init(offset: Swift.Duration) { self.offset = offset }

        /// The instant `duration` later (earlier when negative).
        public func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Swift.Duration { other.offset - offset }

        /// Whether `lhs` is earlier than `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// The offset, such as "30.0 seconds".
        public var description: String { offset.description }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Removes and returns the waiters that now see at least their count of sleepers.
        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            var ready: [CheckedContinuation<Void, Never>] = []
            sleeperWaiters.removeAll { waiter in
                guard sleepers.count >= waiter.count else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
    }

    private let state = Mutex(State())

    /// A clock at time zero with no sleepers.
    public init() {}

    /// The current time.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step: zero (the clock moves exactly by what ``advance(by:)`` is given).
    public var minimumResolution: Swift.Duration { .zero }

    /// The number of tasks sleeping now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock reaches `deadline`; returns at once if it already has.
    ///
    /// - Parameter tolerance: ignored; deadlines are exact.
    /// - Throws: `CancellationError` when the sleeping task is cancelled (before or during
    ///   the sleep); the sleeper is then removed.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID &+= 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case wait([CheckedContinuation<Void, Never>]), now, cancelled }
                let outcome: Outcome = state.withLock { state in
                    if Task.isCancelled { return .cancelled }
                    if deadline <= state.now { return .now }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .wait(state.satisfiedWaiters())
                }
                switch outcome {
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .now: continuation.resume()
                case .wait(let waiters): for waiter in waiters { waiter.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and wakes every sleeper whose deadline is now
    /// reached, earliest deadline first. A negative duration does nothing.
    public func advance(by duration: Swift.Duration) {
        let due: [Sleeper] = state.withLock { state in
            guard duration > .zero else { return [] }
            state.now = state.now.advanced(by: duration)
            return Self.removeDue(&state)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves the clock forward to `instant` (if it is later than now) and wakes the sleepers
    /// whose deadline is reached, earliest first.
    public func advance(to instant: Instant) {
        let due: [Sleeper] = state.withLock { state in
            guard instant > state.now else { return [] }
            state.now = instant
            return Self.removeDue(&state)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Suspends until at least `count` tasks are sleeping on this clock, so a test can advance
    /// time only after the code under test has armed its timer. Not cancellable: use it where
    /// the sleepers are sure to come (a test's time limit bounds it otherwise).
    public func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard state.sleepers.count < count else { return true }
                state.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func removeDue(_ state: inout State) -> [Sleeper] {
        let now = state.now
        let dueIDs = state.sleepers.filter { $0.value.deadline <= now }.keys
        var due = dueIDs.compactMap { state.sleepers.removeValue(forKey: $0) }
        due.sort { $0.deadline < $1.deadline }
        return due
    }
}
