import BLECore
import Synchronization

/// The writes without response one link lets wait for the controller at once, and the
/// readiness that ``Peripheral/canSendWriteWithoutResponse`` and
/// ``Peripheral/readyToSendWriteWithoutResponse`` report.
///
/// A write without response holds a place from the moment it is called until the controller
/// has taken its packet (host mode: until ACL credits let it go, Core v5.4, Vol 4, Part E,
/// 4.1.1). With every place taken, a further write waits for one (first come, first served):
/// nothing is dropped. The link's end releases every waiter.
final class WriteWithoutResponseWindow: Sendable {
    /// How many writes without response may wait for the controller at once: 8.
    static let places = 8

    private struct State {
        var taken = 0
        var waiters: [CheckedContinuation<Bool, Never>] = []
        var ended = false
        var fullWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let readiness = StreamFanOut<Void>(bufferingNewest: 1)

    init() {}

    /// Whether a write now would get a place at once.
    var hasRoom: Bool { state.withLock { !$0.ended && $0.taken < Self.places } }

    /// Takes a place, waiting for one when all are taken.
    ///
    /// - Returns: true with a place; false when the link has ended (no place taken).
    func acquire() async -> Bool {
        await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
            let (granted, full): (Bool?, [CheckedContinuation<Void, Never>]) = state.withLock { state in
                if state.ended { return (false, []) }
                if state.taken < Self.places {
                    state.taken += 1
                    guard state.taken == Self.places else { return (true, []) }
                    defer { state.fullWaiters = [] }
                    return (true, state.fullWaiters)
                }
                state.waiters.append(waiter)
                return (nil, [])
            }
            for waiter in full { waiter.resume() }
            if let granted { waiter.resume(returning: granted) }
        }
    }

    /// Gives a place back: to the first waiter, else to the window, telling the readiness
    /// streams when the window was full, unless `linkEnding`: the write found its link's
    /// bearer closed, and the streams finish with the link rather than announce room on it.
    func release(linkEnding: Bool) {
        let (next, ready): (CheckedContinuation<Bool, Never>?, Bool) = state.withLock { state in
            if !state.waiters.isEmpty { return (state.waiters.removeFirst(), false) }
            let wasFull = state.taken == Self.places
            state.taken = max(0, state.taken - 1)
            return (nil, wasFull && !state.ended && !linkEnding)
        }
        next?.resume(returning: true)
        if ready { readiness.yield(()) }
    }

    /// Returns once every place is taken (at once when they are, or when the link has ended).
    func untilFull() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard !state.ended, state.taken < Self.places else { return true }
                state.fullWaiters.append(waiter)
                return false
            }
            if now { waiter.resume() }
        }
    }

    /// A stream that yields each time the window goes from full to having room; it finishes
    /// when the link ends.
    func readinessUpdates() -> AsyncStream<Void> {
        readiness.stream()
    }

    /// The link ended: waiters get no place, readiness streams finish.
    func end() {
        let (waiters, full) = state.withLock { state -> ([CheckedContinuation<Bool, Never>], [CheckedContinuation<Void, Never>]) in
            state.ended = true
            defer {
                state.waiters = []
                state.fullWaiters = []
            }
            return (state.waiters, state.fullWaiters)
        }
        for waiter in full { waiter.resume() }
        for waiter in waiters { waiter.resume(returning: false) }
        readiness.finish()
    }
}
