import Foundation

/// Times a body over repeated rounds and reports the best and median rates; one warm-up round
/// runs first. Wall-clock time from `ContinuousClock` in a release build.
struct Bench {
    struct Result {
        var name: String
        var unit: String
        var operationsPerRound: Int
        var roundSeconds: [Double]

        var median: Double { roundSeconds.sorted()[roundSeconds.count / 2] }
        var best: Double { roundSeconds.min() ?? .nan }
        var medianRate: Double { Double(operationsPerRound) / median }
        var bestRate: Double { Double(operationsPerRound) / best }
    }

    /// Runs `body` once to warm up, then `rounds` times, timing each round; `body` returns a
    /// number derived from its work so that the optimiser keeps the work.
    static func measure(_ name: String, unit: String, operations: Int, rounds: Int = 7,
                        _ body: () async throws -> Int) async rethrows -> Result {
        var sink = try await body()
        var times: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<rounds {
            let start = clock.now
            sink &+= try await body()
            times.append(seconds(clock.now - start))
        }
        if sink == 42_424_242 { print("") }  // keep the work observable
        return Result(name: name, unit: unit, operationsPerRound: operations, roundSeconds: times)
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Runs `executable` with `arguments`, standard output and error to /dev/null, `rounds`
    /// times after one warm-up run (unless `warmUp` is false); returns the wall seconds of each.
    /// It uses posix_spawn and waitpid directly: Foundation's Process adds a polling delay of its
    /// own to every run.
    static func timeProcess(_ executable: String, _ arguments: [String], rounds: Int = 5, warmUp: Bool = true) throws -> [Double] {
        var times: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<(rounds + (warmUp ? 1 : 0)) {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let start = clock.now
            let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
            guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            times.append(seconds(clock.now - start))
        }
        return warmUp ? Array(times.dropFirst()) : times  // the first run warms the page cache
    }

    static func format(_ rate: Double) -> String {
        if rate >= 1e6 { return String(format: "%.2f M", rate / 1e6) }
        if rate >= 1e3 { return String(format: "%.1f k", rate / 1e3) }
        return String(format: "%.0f", rate)
    }
}
