import Synchronization

/// The calls pending on one link, so that its end ends each of them exactly once.
///
/// A call registers an ender before it starts and removes it when it finishes by itself. The
/// link's end (``end(with:)``) calls every ender still registered with the error, once, and
/// answers later registrations with that error at once.
final class PendingCalls: Sendable {
    typealias Ender = @Sendable (BLEError) -> Void

    private struct State {
        var nextID: UInt64 = 0
        var enders: [UInt64: Ender] = [:]
        var ended: BLEError?
    }

    private let state = Mutex(State())

    init() {}

    /// How many calls are pending.
    var count: Int { state.withLock { $0.enders.count } }

    /// The error the link ended with; nil while it is up.
    var endError: BLEError? { state.withLock { $0.ended } }

    /// Registers `ender`.
    ///
    /// - Returns: the call's ticket; or, when the link has ended already, its error (and
    ///   `ender` is not kept).
    func register(_ ender: @escaping Ender) -> Result<UInt64, BLEError> {
        state.withLock { state in
            if let ended = state.ended { return .failure(ended) }
            state.nextID &+= 1
            state.enders[state.nextID] = ender
            return .success(state.nextID)
        }
    }

    /// The call with `ticket` finished by itself.
    func remove(_ ticket: UInt64) {
        _ = state.withLock { $0.enders.removeValue(forKey: ticket) }
    }

    /// Ends every pending call with `error`, once.
    ///
    /// - Returns: whether this call ended them (false when the link had ended already).
    @discardableResult
    func end(with error: BLEError) -> Bool {
        let enders: [Ender]? = state.withLock { state in
            guard state.ended == nil else { return nil }
            state.ended = error
            defer { state.enders = [:] }
            return Array(state.enders.values)
        }
        guard let enders else { return false }
        for ender in enders { ender(error) }
        return true
    }
}
