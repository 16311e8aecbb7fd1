import Foundation
import Synchronization

/// One manager's restoration state (a ``RestorationBody``: ``CentralState`` or
/// ``PeripheralManagerState``), kept in memory as the application changes it and written to
/// its state file by a ``StateWriter`` after each change (docs/state-restoration.md).
final class RestorationStore<Body: RestorationBody>: Sendable {
    /// The identifier restored under.
    let identifier: String
    /// The state file.
    let file: StateFile
    /// Its writer; frozen when the manager ends, so the file keeps what was running.
    let writer: StateWriter<Body>
    /// The problems reported so far.
    let problems: RestorationProblemLog
    private let state = Mutex(Body())

    /// The store of the manager restored under `identifier`, its file in `directory`; problems
    /// go to `problems`.
    init(identifier: String, directory: URL, problems: RestorationProblemLog) {
        self.identifier = identifier
        file = StateFile(directory: directory, role: Body.role, identifier: identifier)
        self.problems = problems
        writer = StateWriter(file: file, identifier: identifier) { problems.report($0) }
    }

    /// Reads the state file (setting aside one that cannot be trusted, and reporting it), and
    /// starts from what it held.
    ///
    /// - Returns: the state found; nil when there was none to trust.
    func load() -> Body? {
        switch file.load(Body.self, identifier: identifier) {
        case .nothing:
            return nil
        case .problem(let problem):
            problems.report(problem)
            return nil
        case .restored(let restored):
            state.withLock { $0 = restored }
            return restored
        }
    }

    /// The state now (what the next write holds).
    var current: Body { state.withLock { $0 } }

    /// Applies `change` and schedules the write, unless the writer is frozen.
    func update(_ change: (inout Body) -> Void) {
        guard !writer.isFrozen else { return }
        state.withLock { state in
            change(&state)
            writer.submit(state)   // under the lock, so the writes keep the changes' order
        }
    }

    /// Reports a part of the state that could not be brought back.
    func notRestored(_ reason: String) {
        problems.report(RestorationProblem(kind: .notRestored, file: file.url, reason: reason))
    }
}
