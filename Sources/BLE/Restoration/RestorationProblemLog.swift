import Synchronization

/// A manager's ``RestorationProblem``s: kept (the newest 32) for its `restorationProblems`
/// property, and handed to its events stream as they happen.
final class RestorationProblemLog: Sendable {
    /// How many problems are kept: 32, the newest.
    static let capacity = 32

    private let problems = Mutex<[RestorationProblem]>([])
    private let sink: @Sendable (RestorationProblem) -> Void

    /// A log that hands each problem to `sink` (the manager's events) as it is reported.
    init(sink: @escaping @Sendable (RestorationProblem) -> Void) { self.sink = sink }

    /// The problems so far, oldest first.
    var all: [RestorationProblem] { problems.withLock { $0 } }

    /// Keeps `problem` and hands it on.
    func report(_ problem: RestorationProblem) {
        problems.withLock { list in
            list.append(problem)
            if list.count > Self.capacity { list.removeFirst(list.count - Self.capacity) }
        }
        sink(problem)
    }
}
