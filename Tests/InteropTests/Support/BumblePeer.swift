import Foundation
import Glibc
import Synchronization

/// A Google Bumble host running one of the peer scripts of Tests/Interop as a child process
/// (`python3 SCRIPT ARGUMENTS...`), and the JSON lines it reports (Tests/Interop/interop.py).
///
/// Test-only. The python comes from ``pythonVariable`` (LINUXBLE_BUMBLE_PYTHON), which
/// `make test` sets to the pinned venv's python (`.build/bumble-venv`, bumble==0.0.236). Every
/// line the script writes, on standard output or standard error, is copied to this process's
/// standard error with the script's name in front, so it shows in the test's output; the last
/// lines are also part of every ``BumblePeerError``.
///
/// Every wait has a timeout, the script has its own deadline (`--timeout`), and ``kill()``
/// ends it (call it in a `defer`): a peer can never outlive its test.
final class BumblePeer: Sendable {
    /// The environment variable that names the python of a venv with bumble==0.0.236.
    static let pythonVariable = "LINUXBLE_BUMBLE_PYTHON"

    /// The python to run the scripts with, when ``pythonVariable`` names an executable file.
    static var python: String? {
        guard let path = ProcessInfo.processInfo.environment[pythonVariable], !path.isEmpty,
              FileManager.default.isExecutableFile(atPath: path) else { return nil }
        return path
    }

    /// Tests/Interop, where the peer scripts are.
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Interop")

    /// The script's file name, in front of every copied line.
    let name: String
    private let process: Process
    private let input: FileHandle
    private let reports = ReportQueue()
    private let log = Mutex<[String]>([])
    private let exit = ExitWatch()

    /// Starts `script` (a file in Tests/Interop) with `arguments`, and `--timeout` seconds as
    /// its own deadline.
    ///
    /// - Throws: ``BumblePeerError/notConfigured`` without ``python``; the launch's error.
    init(script: String, arguments: [String], deadline: Int = 90) throws {
        guard let python = Self.python else { throw BumblePeerError.notConfigured }
        name = (script as NSString).deletingPathExtension
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Self.scripts.appendingPathComponent(script).path] + arguments + ["--timeout", String(deadline)]
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        input = stdin.fileHandleForWriting
        process.terminationHandler = { [exit] finished in exit.finished(finished.terminationStatus) }
        try process.run()
        readLines(stdout.fileHandleForReading, isReport: true)
        readLines(stderr.fileHandleForReading, isReport: false)
    }

    /// Reads `handle` to its end on a thread of its own, line by line: reports go to the
    /// queue, every line to the log and to standard error.
    private func readLines(_ handle: FileHandle, isReport: Bool) {
        let thread = Thread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    record(line, isReport: isReport)
                }
            }
            if !pending.isEmpty { record(String(decoding: pending, as: UTF8.self), isReport: isReport) }
            if isReport { reports.close(log: recentLog) }
        }
        thread.start()
    }

    private func record(_ line: String, isReport: Bool) {
        log.withLock { lines in
            lines.append(line)
            if lines.count > 200 { lines.removeFirst(lines.count - 200) }
        }
        FileHandle.standardError.write(Data("[\(name)] \(line)\n".utf8))
        guard isReport, let report = PeerReport(line: line) else { return }
        reports.add(report, log: recentLog)
    }

    /// The last 40 lines the script wrote, for error messages.
    var recentLog: String { log.withLock { $0.suffix(40).joined(separator: "\n") } }

    /// The next report named `event` (earlier reports of other names stay queued).
    ///
    /// - Throws: ``BumblePeerError/timedOut(waitingFor:log:)`` after `timeout`;
    ///   ``BumblePeerError/failed(reason:log:)`` when the script reported a failure;
    ///   ``BumblePeerError/ended(waitingFor:log:)`` when its output ended first.
    func next(_ event: String, timeout: Duration = .seconds(20)) async throws -> PeerReport {
        try await reports.next(event, timeout: timeout, log: { [self] in recentLog })
    }

    /// Sends a command line, `{"command": NAME, KEY: VALUE, ...}`, to the script's standard input.
    func send(_ command: String, _ fields: KeyValuePairs<String, Int> = [:]) throws {
        var line = "{\"command\":\"\(command)\""
        for (key, value) in fields { line += ",\"\(key)\":\(value)" }
        line += "}\n"
        try input.write(contentsOf: Data(line.utf8))
    }

    /// Waits for the script to exit and returns its status; kills it after `timeout`.
    func exitStatus(timeout: Duration = .seconds(20)) async throws -> Int32 {
        let status = try? await withDeadline(timeout, "\(name) to exit") { [exit] in await exit.status() }
        guard let status else {
            kill()
            throw BumblePeerError.timedOut(waitingFor: "\(name) to exit", log: recentLog)
        }
        return status
    }

    /// Ends the script if it still runs: SIGTERM, then SIGKILL a second later.
    func kill() {
        guard process.isRunning else { return }
        process.terminate()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [process] in
            if process.isRunning { Glibc.kill(pid, SIGKILL) }
        }
    }
}

/// The exit status of a child process, once it has exited (test-only).
private final class ExitWatch: Sendable {
    private let state = Mutex<(status: Int32?, waiters: [CheckedContinuation<Int32, Never>])>((nil, []))

    /// Called by the process's termination handler.
    func finished(_ status: Int32) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int32, Never>] in
            state.status = status
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    /// Waits for the exit status.
    func status() async -> Int32 {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Int32? in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}

/// What went wrong with a Bumble peer (test-only).
enum BumblePeerError: Error, CustomStringConvertible {
    /// ``BumblePeer/pythonVariable`` is not set.
    case notConfigured
    /// Nothing came in time.
    case timedOut(waitingFor: String, log: String)
    /// The script reported `{"event": "failed", "reason": ...}`.
    case failed(reason: String, log: String)
    /// The script's output ended before the report.
    case ended(waitingFor: String, log: String)

    var description: String {
        switch self {
        case .notConfigured:
            "set \(BumblePeer.pythonVariable) to the python of a venv with bumble==0.0.236 (make test does)"
        case .timedOut(let what, let log): "timed out waiting for \(what); the peer's last lines:\n\(log)"
        case .failed(let reason, let log): "the peer failed: \(reason); its last lines:\n\(log)"
        case .ended(let what, let log): "the peer's output ended while waiting for \(what); its last lines:\n\(log)"
        }
    }
}

/// The reports of one peer, in arrival order, and the tests waiting for them. A lock, not an
/// actor, so that reports are queued in the order the reader thread saw them.
private final class ReportQueue: Sendable {
    private struct State {
        var queued: [PeerReport] = []
        var waiters: [UInt64: (event: String, continuation: CheckedContinuation<PeerReport, any Error>)] = [:]
        var nextWaiter: UInt64 = 0
        var failure: BumblePeerError?
        var isClosed = false
    }

    private let state = Mutex(State())

    func add(_ report: PeerReport, log: String) {
        if report.event == "failed" {
            let error = BumblePeerError.failed(reason: report.string("reason") ?? report.line, log: log)
            let waiters = state.withLock { state in
                state.failure = error
                defer { state.waiters = [:] }
                return state.waiters.values.map(\.continuation)
            }
            for waiter in waiters { waiter.resume(throwing: error) }
            return
        }
        let waiter = state.withLock { state -> CheckedContinuation<PeerReport, any Error>? in
            if let (id, waiter) = state.waiters.sorted(by: { $0.key < $1.key }).first(where: { $0.value.event == report.event }) {
                state.waiters[id] = nil
                return waiter.continuation
            }
            state.queued.append(report)
            return nil
        }
        waiter?.resume(returning: report)
    }

    func close(log: String) {
        let waiters = state.withLock { state in
            state.isClosed = true
            defer { state.waiters = [:] }
            return state.waiters.values.map { ($0.event, $0.continuation, state.failure) }
        }
        for (event, waiter, failure) in waiters { waiter.resume(throwing: failure ?? .ended(waitingFor: event, log: log)) }
    }

    func next(_ event: String, timeout: Duration, log: @escaping @Sendable () -> String) async throws -> PeerReport {
        try await withCheckedThrowingContinuation { continuation in
            enum Outcome { case report(PeerReport), error(BumblePeerError), waiting(UInt64) }
            let outcome = state.withLock { state -> Outcome in
                if let index = state.queued.firstIndex(where: { $0.event == event }) { return .report(state.queued.remove(at: index)) }
                if let failure = state.failure { return .error(failure) }
                if state.isClosed { return .error(.ended(waitingFor: event, log: log())) }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = (event, continuation)
                return .waiting(state.nextWaiter)
            }
            switch outcome {
            case .report(let report): continuation.resume(returning: report)
            case .error(let error): continuation.resume(throwing: error)
            case .waiting(let id):
                Task {
                    try? await Task.sleep(for: timeout)
                    self.expire(id, log: log())
                }
            }
        }
    }

    private func expire(_ id: UInt64, log: String) {
        guard let waiter = state.withLock({ $0.waiters.removeValue(forKey: id) }) else { return }
        waiter.continuation.resume(throwing: BumblePeerError.timedOut(waitingFor: "the report \"\(waiter.event)\"", log: log))
    }
}
