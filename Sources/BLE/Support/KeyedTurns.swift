import Synchronization

/// Turns per key, taken in the order asked: one holder of a key at a time, the others wait in
/// line. What keeps two calls on one characteristic (turning its notifications on, then off)
/// in call order, whatever their requests' answers take.
final class KeyedTurns<Key: Hashable & Sendable>: Sendable {
    private struct State {
        /// The keys held, each with the callers waiting for it, oldest first.
        var lines: [Key: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let state = Mutex(State())

    init() {}

    /// Waits for `key`'s turn; returns holding it. Every ``take(_:)`` is paired with one
    /// ``leave(_:)``. Not cancellable: a turn is short (its holder's requests end with their
    /// answers or the link).
    func take(_ key: Key) async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let free = state.withLock { state -> Bool in
                guard state.lines[key] != nil else {
                    state.lines[key] = []
                    return true
                }
                state.lines[key]!.append(waiter)
                return false
            }
            if free { waiter.resume() }
        }
    }

    /// How many callers wait in line for `key` (its holder not counted).
    func waiting(for key: Key) -> Int { state.withLock { $0.lines[key]?.count ?? 0 } }

    /// Gives `key`'s turn to the next in line, or frees it.
    func leave(_ key: Key) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard var line = state.lines[key] else { return nil }
            guard !line.isEmpty else {
                state.lines[key] = nil
                return nil
            }
            let next = line.removeFirst()
            state.lines[key] = line
            return next
        }
        next?.resume()
    }
}
