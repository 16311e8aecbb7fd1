import Synchronization

/// The end of a `connect` call's ``ConnectOptions/timeout`` after its link formed: the steps
/// that make the link ready (the ATT MTU exchange, restoration's Database Hash read) count
/// against the same timeout as the link's creation. When it passes, the link is terminated,
/// so that the step waiting on the peer ends at once (with the link), and the call throws
/// ``BLEError/connectionTimeout``.
final class ConnectDeadline: Sendable {
    private struct State {
        var link: (any BackendLink)?
        var expired = false
    }

    private let state = Mutex(State())

    init() {}

    /// Whether the timeout passed.
    var hasExpired: Bool { state.withLock { $0.expired } }

    /// The link formed: terminated at the deadline from now on (at once when it has passed).
    func arm(_ link: any BackendLink) async {
        let expired = state.withLock { state -> Bool in
            state.link = link
            return state.expired
        }
        if expired { await link.terminate() }
    }

    /// The timeout passed: terminates the link, when one formed.
    func expire() async {
        let link = state.withLock { state -> (any BackendLink)? in
            state.expired = true
            return state.link
        }
        await link?.terminate()
    }
}
