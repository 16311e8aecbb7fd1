import Dispatch
import Synchronization

/// Writes one manager's state file off the manager's executor: each change submits the whole
/// new state, and a serial queue replaces the file with the newest one submitted (states
/// submitted meanwhile are skipped; the file always holds a whole state of some moment).
///
/// **Freezing.** When the manager ends (closed, released, its controller or transport gone),
/// its links and scan end with it, but that is not the application's doing: the state file
/// must keep what was running, so that the next manager with the identifier restores it, as it
/// would after a kill. ``freeze()`` makes every later submission a no-op; what was submitted
/// before is still written.
///
/// Write failures are reported once per distinct reason (``RestorationProblem/Kind/unwritable``),
/// and the next change tries again.
final class StateWriter<Body: RestorationBody>: Sendable {
    private struct State {
        var pending: Body?
        var running = false
        var frozen = false
        var lastFailure: String?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The file written.
    let file: StateFile
    /// The restore identifier, in the file's envelope.
    let identifier: String
    private let report: @Sendable (RestorationProblem) -> Void
    private let queue = DispatchQueue(label: "LinuxBLE.restoration-state")
    private let state = Mutex(State())

    /// A writer of `file` for the manager restored under `identifier`; `report` hears of
    /// failed writes.
    init(file: StateFile, identifier: String, report: @escaping @Sendable (RestorationProblem) -> Void) {
        self.file = file
        self.identifier = identifier
        self.report = report
    }

    /// Whether ``freeze()`` was called.
    var isFrozen: Bool { state.withLock { $0.frozen } }

    /// Schedules `body` to be written (unless frozen).
    func submit(_ body: Body) {
        let start = state.withLock { state -> Bool in
            guard !state.frozen else { return false }
            state.pending = body
            defer { state.running = true }
            return !state.running
        }
        if start { queue.async { self.drain() } }
    }

    /// Ignores every later ``submit(_:)``.
    func freeze() { state.withLock { $0.frozen = true } }

    /// Takes ``submit(_:)`` calls again after ``freeze()`` (the mode came back after a controller
    /// reset, and the manager runs on).
    func unfreeze() { state.withLock { $0.frozen = false } }

    /// Returns once every state submitted so far is written (or failed).
    func written() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                guard state.running else { return true }
                state.waiters.append(waiter)
                return false
            }
            if idle { waiter.resume() }
        }
    }

    private func drain() {
        while true {
            let next: Body? = state.withLock { state in
                defer { state.pending = nil }
                return state.pending
            }
            guard let next else {
                // Stop only if nothing came in since the take above; a later submission then
                // finds the writer stopped and starts it again.
                let waiters: [CheckedContinuation<Void, Never>]? = state.withLock { state in
                    guard state.pending == nil else { return nil }
                    state.running = false
                    defer { state.waiters = [] }
                    return state.waiters
                }
                guard let waiters else { continue }
                for waiter in waiters { waiter.resume() }
                return
            }
            let failure: String?
            do {
                try file.replace(with: StateFile.octets(of: next, identifier: identifier))
                failure = nil
            } catch {
                failure = error.description
            }
            let fresh = state.withLock { state -> Bool in
                defer { state.lastFailure = failure }
                return failure != nil && failure != state.lastFailure
            }
            if fresh, let failure { report(RestorationProblem(kind: .unwritable, file: file.url, reason: failure)) }
        }
    }
}
