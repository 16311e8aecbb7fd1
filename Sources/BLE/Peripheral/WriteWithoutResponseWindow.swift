import BLECore
import Synchronization

/// The writes without response one link lets wait for the controller at once, and the
/// readiness that ``Peripheral/canSendWriteWithoutResponse`` and
/// ``Peripheral/readyToSendWriteWithoutResponse`` report.
///
/// A write without response holds a place from the moment it is called until the controller
/// has taken its packet (host mode: until ACL credits let it go, Core v5.4, Vol 4, Part E,
/// 4.1.1). With every place taken, a further write waits for one (first come, first served):
/// nothing is dropped. The link's end releases every waiter, and a waiter whose caller is
/// cancelled stops waiting (``abandon(_:)``).
final class WriteWithoutResponseWindow: Sendable {
    /// How many writes without response may wait for the controller at once: 8.
    static let places = 8

    /// What ``acquire(_:)`` got.
    enum Acquisition: Sendable, Equatable {
        /// A place, to give back with ``release(linkEnding:)``.
        case granted
        /// No place: the link has ended.
        case ended
        /// No place: the caller was cancelled while every place was taken.
        case cancelled
    }

    /// One write's claim, from ``ticket()`` until ``forget(_:)``.
    typealias Ticket = UInt64

    private struct State {
        var taken = 0
        var waiters: [(ticket: Ticket, waiter: CheckedContinuation<Acquisition, Never>)] = []
        var ended = false
        var fullWaiters: [CheckedContinuation<Void, Never>] = []
        var lastTicket: Ticket = 0
        /// Tickets whose callers were cancelled before they waited.
        var abandoned: Set<Ticket> = []
    }

    private let state = Mutex(State())
    private let readiness = StreamFanOut<Void>(bufferingNewest: 1)

    init() {}

    /// Whether a write now would get a place at once.
    var hasRoom: Bool { state.withLock { !$0.ended && $0.taken < Self.places } }

    /// A new claim for one write; ``forget(_:)`` it when the write is over.
    func ticket() -> Ticket {
        state.withLock { state in
            state.lastTicket &+= 1
            return state.lastTicket
        }
    }

    /// Takes a place for `ticket`, waiting for one when all are taken.
    ///
    /// - Returns: ``Acquisition/granted`` with a place; ``Acquisition/ended`` when the link
    ///   has ended; ``Acquisition/cancelled`` when every place was taken and the caller was
    ///   cancelled (``abandon(_:)``), before or while it waited. A place free at once is taken
    ///   whatever the caller's cancellation: only the wait is cancelled.
    func acquire(_ ticket: Ticket) async -> Acquisition {
        await withCheckedContinuation { (waiter: CheckedContinuation<Acquisition, Never>) in
            let (answer, full): (Acquisition?, [CheckedContinuation<Void, Never>]) = state.withLock { state in
                if state.ended { return (.ended, []) }
                if state.taken < Self.places {
                    state.taken += 1
                    guard state.taken == Self.places else { return (.granted, []) }
                    defer { state.fullWaiters = [] }
                    return (.granted, state.fullWaiters)
                }
                if state.abandoned.remove(ticket) != nil { return (.cancelled, []) }
                state.waiters.append((ticket, waiter))
                return (nil, [])
            }
            for waiter in full { waiter.resume() }
            if let answer { waiter.resume(returning: answer) }
        }
    }

    /// The caller of `ticket` was cancelled: if it waits for a place, it stops waiting, with
    /// ``Acquisition/cancelled``; if it has not asked yet, it will not wait when it does.
    func abandon(_ ticket: Ticket) {
        let waiting: CheckedContinuation<Acquisition, Never>? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.ticket == ticket }) else {
                state.abandoned.insert(ticket)
                return nil
            }
            return state.waiters.remove(at: index).waiter
        }
        waiting?.resume(returning: .cancelled)
    }

    /// The write of `ticket` is over: nothing more is kept for it.
    func forget(_ ticket: Ticket) {
        state.withLock { _ = $0.abandoned.remove(ticket) }
    }

    /// Gives a place back: to the first waiter, else to the window, telling the readiness
    /// streams when the window was full, unless `linkEnding`: the write found its link's
    /// bearer closed, and the streams finish with the link rather than announce room on it.
    func release(linkEnding: Bool) {
        let (next, ready): (CheckedContinuation<Acquisition, Never>?, Bool) = state.withLock { state in
            if !state.waiters.isEmpty { return (state.waiters.removeFirst().waiter, false) }
            let wasFull = state.taken == Self.places
            state.taken = max(0, state.taken - 1)
            return (nil, wasFull && !state.ended && !linkEnding)
        }
        next?.resume(returning: .granted)
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

    /// Writes waiting for a place, for tests.
    var waitingCount: Int { state.withLock { $0.waiters.count } }
    /// Cancelled tickets not yet forgotten, for tests.
    var abandonedCount: Int { state.withLock { $0.abandoned.count } }

    /// The link ended: waiters get no place, readiness streams finish.
    func end() {
        let (waiters, full) = state.withLock { state -> ([CheckedContinuation<Acquisition, Never>], [CheckedContinuation<Void, Never>]) in
            state.ended = true
            defer {
                state.waiters = []
                state.fullWaiters = []
            }
            return (state.waiters.map(\.waiter), state.fullWaiters)
        }
        for waiter in full { waiter.resume() }
        for waiter in waiters { waiter.resume(returning: .ended) }
        readiness.finish()
    }
}
