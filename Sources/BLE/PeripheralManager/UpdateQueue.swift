import BLECore
import Synchronization

/// The values ``PeripheralManager/updateValue(_:for:onSubscribedCentrals:)`` has accepted and
/// not yet sent: at most ``capacity``; an offer beyond is refused, and the readiness streams are
/// told once the queue has drained to ``readyLevel``.
///
/// An update counts from its offer until every central it went to has finished with it: sent
/// (an indication confirmed), or dropped with the central's link. Each central is sent its
/// indications on its own (``PeripheralManagerCore/sendUpdates()``), so one slow to confirm
/// holds up its own updates only; while it holds some, they count here.
///
/// The low-water mark is what keeps a producer that fills the queue from waking for every single
/// update sent: told at half, it offers 16 updates per wake-up, not one.
final class UpdateQueue: Sendable {
    /// How many updates wait at most: 32.
    static let capacity = 32
    /// How many updates wait at most when the readiness streams are told: 16.
    static let readyLevel = capacity / 2

    /// One value for the subscribers of one characteristic (all, or those named).
    struct Update: Sendable {
        /// Held, and its value handle looked up when it is sent: the database may change
        /// meanwhile.
        var characteristic: MutableCharacteristic
        var value: [UInt8]
        /// The centrals named, held (so that none can be freed and its address given to a new
        /// central while the update waits); nil for every subscriber.
        var centrals: [Central]?
    }

    private struct State {
        var items: [Update] = []
        /// Updates taken by ``next()`` that some central has yet to finish with.
        var outstanding = 0
        var sending = false
        var refused = false
    }

    private let state = Mutex(State())
    private let readiness = StreamFanOut<Void>(bufferingNewest: 1)

    init() {}

    /// Queues `update` unless the queue is full.
    ///
    /// - Returns: whether it was queued, and whether the caller must start sending (no sender runs).
    func offer(_ update: Update) -> (accepted: Bool, startSending: Bool) {
        state.withLock { state in
            guard state.items.count + state.outstanding < Self.capacity else {
                state.refused = true
                return (false, false)
            }
            state.items.append(update)
            defer { state.sending = true }
            return (true, !state.sending)
        }
    }

    /// The next update to hand to the centrals; nil when none is left (the sender stops). It
    /// counts until ``finished()``.
    func next() -> Update? {
        state.withLock { state in
            guard !state.items.isEmpty else {
                state.sending = false
                return nil
            }
            state.outstanding += 1
            return state.items.removeFirst()
        }
    }

    /// An update ``next()`` gave is finished with by every central it went to: tells the
    /// readiness streams when an offer was refused and the queue has drained to ``readyLevel``
    /// since.
    func finished() {
        let ready = state.withLock { state -> Bool in
            state.outstanding -= 1
            guard state.refused, state.items.count + state.outstanding <= Self.readyLevel else { return false }
            state.refused = false
            return true
        }
        if ready { readiness.yield(()) }
    }

    /// A stream that yields each time the queue has room after refusing an update; finished
    /// already when ``finish()`` has run.
    func readinessUpdates() -> AsyncStream<Void> {
        readiness.stream()
    }

    /// Finishes the readiness streams, and those asked for from now on.
    func finish() {
        readiness.finish()
    }
}
