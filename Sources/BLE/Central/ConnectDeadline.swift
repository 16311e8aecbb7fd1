import Synchronization

/// The end of a `connect` call's ``ConnectOptions/timeout`` for the steps after its link formed
/// (the ATT MTU exchange, restoration's Database Hash read): when it passes first, the link is
/// terminated, so that the step waiting on the peer ends at once (with the link), and the call
/// throws ``BLEError/connectionTimeout``. Once the steps are done (``settle()``), the deadline
/// does nothing.
final class ConnectDeadline: Sendable {
    private enum Phase {
        case running
        case expired
        case settled
    }

    private let link: any BackendLink
    private let phase = Mutex(Phase.running)

    /// A deadline for the steps on `link`.
    init(link: any BackendLink) {
        self.link = link
    }

    /// Whether the timeout passed before the steps were done.
    var hasExpired: Bool { phase.withLock { $0 == .expired } }

    /// The steps are done: the link is handed over and the deadline can no longer end it.
    ///
    /// - Returns: false when the deadline passed first (the link is being terminated).
    func settle() -> Bool {
        phase.withLock { phase -> Bool in
            guard phase == .running else { return phase == .settled }
            phase = .settled
            return true
        }
    }

    /// The timeout passed: terminates the link, unless the steps were done first.
    func expire() async {
        let expires = phase.withLock { phase -> Bool in
            guard phase == .running else { return false }
            phase = .expired
            return true
        }
        if expires { await link.terminate() }
    }
}
