/// A peripheral's connection attempt: a `connect` call's, or restoration's reconnection.
///
/// Its number, unique in the manager, is what makes a link current: an attempt that reaches
/// the end of its set-up after another attempt took its place (the application cancelled it
/// and connected again meanwhile) finds a different number, and its link is not used.
struct ConnectionAttempt: Sendable {
    /// The attempt's number in its manager, from 1.
    let number: UInt64
    /// The attempt's outcome, once it has one; cancelling it ends a `connect` call's attempt.
    let task: Task<Result<Void, BLEError>, Never>
}
