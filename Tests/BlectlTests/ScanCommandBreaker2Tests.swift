import BLE
import Foundation
import Glibc
import Synchronization
import Testing
@testable import blectl

/// `blectl scan`'s ending: a scan that `--duration` (or Ctrl-C) stops must still learn whether
/// the controller stopped scanning. HCI_LE_Set_Scan_Enable with LE_Scan_Enable 0x00 answers
/// with a Command Complete whose Status may be an error (Core v5.4, Vol 4, Part E, 7.8.11); the
/// BLE API's `stopScan()` throws it. Here the scan's stream and its stop are played by the test,
/// as a central manager gives them.
@Suite("blectl scan: stopping (breaker 4)", .timeLimit(.minutes(1)))
struct ScanCommandBreaker2Tests {
    /// Runs `ScanCommand.report` on a stream of no discoveries that `stop` (and `end`, at once) may
    /// finish.
    static func scan(duration: Duration = .milliseconds(100),
                     end: (AsyncThrowingStream<Discovery, any Error>.Continuation) -> Void = { _ in },
                     stop: @escaping @Sendable (AsyncThrowingStream<Discovery, any Error>.Continuation) async throws(BLEError) -> Void)
        async throws -> (status: Int32, errors: [String]) {
        let (discoveries, continuation) = AsyncThrowingStream.makeStream(of: Discovery.self, throwing: (any Error).self)
        end(continuation)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        try #require(null >= 0)
        defer { close(null) }
        var output = OutputBuffer(fileDescriptor: null)
        // What blectl would print on standard error, collected to be checked instead.
        var errors: [String] = []
        let status = await ScanCommand.report(discoveries, stop: { () async throws(BLEError) in try await stop(continuation) },
                                              duration: duration, json: false, hci: 0, output: &output, reportError: { errors.append($0) })
        return (status, errors)
    }

    @Test("--duration's stop: a controller that refuses to disable scanning makes the exit status 1, with its answer")
    func refusedDisable() async throws {
        let (status, errors) = try await Self.scan { continuation async throws(BLEError) in
            continuation.finish()
            throw .controllerError("LE Set Scan Enable failed: Command Disallowed (0x0C)")
        }
        #expect(status == 1, "the controller may still be scanning; the exit status says all went well")
        #expect(errors == ["blectl scan: stopping the scan: LE Set Scan Enable failed: Command Disallowed (0x0C)"])
    }

    @Test("--duration's stop: the disable has been answered when the scan returns (before run closes the manager)")
    func disableAnsweredBeforeReturn() async throws {
        let answered = Mutex(false)
        let (status, errors) = try await Self.scan { continuation async throws(BLEError) in
            continuation.finish()                               // the stream finishes before the disable is answered
            try? await Task.sleep(for: .milliseconds(50))
            answered.withLock { $0 = true }
        }
        #expect(status == 0)
        #expect(errors.isEmpty)
        #expect(answered.withLock { $0 }, "returned with the disable unanswered; run's close() would cut it off")
    }

    @Test("a scan that --duration stops with nothing heard says so on standard error, and exits 0")
    func nothingHeardIsSaid() async throws {
        let (discoveries, continuation) = AsyncThrowingStream.makeStream(of: Discovery.self, throwing: (any Error).self)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        try #require(null >= 0)
        defer { close(null) }
        var output = OutputBuffer(fileDescriptor: null)
        var errors: [String] = [], notes: [String] = []
        let status = await ScanCommand.report(discoveries, stop: { () async throws(BLEError) in continuation.finish() },
                                              duration: .milliseconds(50), json: false, hci: 0, output: &output,
                                              nothingHeard: "blectl scan: no advertising heard",
                                              reportError: { errors.append($0) }, reportNote: { notes.append($0) })
        #expect(status == 0)
        #expect(errors.isEmpty)
        #expect(notes == ["blectl scan: no advertising heard"])
    }

    @Test("a controller that refuses to scan: its answer, exit 1")
    func refusedStart() async throws {
        let (status, errors) = try await Self.scan(end: {
            $0.finish(throwing: BLEError.controllerError("LE Set Scan Parameters failed: Command Disallowed (0x0C)"))
        }, stop: { _ async throws(BLEError) in })
        #expect(status == 1)
        #expect(errors == ["blectl scan: LE Set Scan Parameters failed: Command Disallowed (0x0C)"])
    }

    /// Cancelling the duration's timer after the loop used to wake its sleep, which then stopped
    /// the scan all the same: when it ran before the check of "asked to stop", a controller that
    /// went away under a `--duration` scan exited 0 without a word.
    @Test("a controller that goes away under a --duration scan exits 1 (stopped reporting), every time")
    func goneUnderDuration() async throws {
        var statuses: [Int32: Int] = [:]
        var messages: [String: Int] = [:]
        for _ in 0..<300 {
            let (status, errors) = try await Self.scan(duration: .seconds(60), end: { $0.finish(throwing: BLEError.poweredOff) },
                                                       stop: { _ async throws(BLEError) in })
            statuses[status, default: 0] += 1
            for error in errors { messages[error, default: 0] += 1 }
        }
        #expect(statuses == [1: 300])
        #expect(messages == ["blectl scan: hci0 stopped reporting (the adapter went away, was reset or powered off)": 300])
    }
}
