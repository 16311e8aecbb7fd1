import Foundation
import Glibc
import Testing
import BLECore
import HCI
import Host
@testable import blectl

/// `blectl scan`'s ending, on a scripted controller: a scan that `--duration` (or Ctrl-C) stops
/// must still learn whether the controller stopped scanning. HCI_LE_Set_Scan_Enable with
/// LE_Scan_Enable 0x00 answers with a Command Complete whose Status may be an error (Core v5.4,
/// Vol 4, Part E, 7.8.11); a controller left scanning refuses the next scan's
/// HCI_LE_Set_Scan_Parameters with Command Disallowed (7.8.10).
@Suite("blectl scan: stopping (breaker 4)", .timeLimit(.minutes(1)))
struct ScanCommandBreaker2Tests {
    static let start: [ScriptedHCITransport.Step] = (try? [
        .expect(h4: "01 0b 20 07 01 6000 3000 00 00"),        // LE Set Scan Parameters (active)
        .inject(h4: "04 0e 04 01 0b 20 00"),
        .expect(h4: "01 0c 20 02 01 01"),                     // LE Set Scan Enable, duplicates filtered
        .inject(h4: "04 0e 04 01 0c 20 00"),
    ]) ?? []

    static func scan(_ stop: [ScriptedHCITransport.Step], duration: Duration = .milliseconds(100),
                     controllerGoesAway: Bool = false) async throws
        -> (status: Int32, errors: [String], transport: ScriptedHCITransport, flow: HCICommandFlow) {
        let transport = ScriptedHCITransport(script: Self.start + stop)
        let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(60))
        let capabilities = LEControllerCapabilities(leFeatures: [.leEncryption],
                                                    supportedCommands: HCISupportedCommands(octets: [UInt8](repeating: 0, count: HCISupportedCommands.octetCount)))
        let scanner = LEScanner(flow: flow, capabilities: capabilities)
        let discoveries = try await scanner.start(LEScanParameters(scanType: .active, filterDuplicates: true))
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        try #require(null >= 0)
        defer { close(null) }
        var output = OutputBuffer(fileDescriptor: null)
        if controllerGoesAway { await transport.close() }
        // What blectl would print on standard error, collected to be checked instead.
        var errors: [String] = []
        let status = await ScanCommand.report(discoveries, scanner: scanner, duration: duration, json: false,
                                              hci: 0, output: &output, reportError: { errors.append($0) })
        return (status, errors, transport, flow)
    }

    /// The duration's stop ran `scanner.stop()` in a task of its own with `try?`: its error was
    /// dropped, and the stop after the loop found no scan left to stop, so exit 0.
    @Test("--duration's stop: a controller that refuses to disable scanning makes the exit status 1")
    func refusedDisable() async throws {
        let (status, errors, transport, flow) = try await Self.scan(try [
            .expect(h4: "01 0c 20 02 00 00"),                 // LE Set Scan Enable, disabled
            .inject(h4: "04 0e 04 01 0c 20 0c"),              // Command Complete, Status 0x0C Command Disallowed
        ])
        #expect(status == 1, "the controller may still be scanning; the exit status says all went well")
        #expect(errors == ["blectl scan: stopping the scan: LE Set Scan Enable failed: Command Disallowed (0x0C)"])
        #expect(transport.mismatches.isEmpty)
        await flow.close()
    }

    /// The stream finishes before the disable is sent; `run` then closed the session at once.
    @Test("--duration's stop: the disable has been sent and answered when the scan returns (before run closes the session)")
    func disableAnsweredBeforeReturn() async throws {
        let (status, errors, transport, flow) = try await Self.scan(try [
            .expect(h4: "01 0c 20 02 00 00"),                 // LE Set Scan Enable, disabled
            .inject(h4: "04 0e 04 01 0c 20 00"),              // Command Complete, Success
        ])
        #expect(status == 0)
        #expect(errors.isEmpty)
        #expect(transport.isFinished, "returned with the disable unsent or unanswered; run's session.close() would cut it off")
        #expect(transport.mismatches.isEmpty)
        await flow.close()
    }

    /// Cancelling the duration's timer after the loop woke its `try? await Task.sleep`, which
    /// then called stop() all the same: when it ran before the check of "asked to stop", a
    /// controller that went away under a `--duration` scan exited 0 without a word.
    @Test("a controller that goes away under a --duration scan exits 1 (stopped reporting), every time")
    func goneUnderDuration() async throws {
        var statuses: [Int32: Int] = [:]
        var messages: [String: Int] = [:]
        for _ in 0..<300 {
            let (status, errors, _, flow) = try await Self.scan([], duration: .seconds(60), controllerGoesAway: true)
            statuses[status, default: 0] += 1
            for error in errors { messages[error, default: 0] += 1 }
            await flow.close()
        }
        #expect(statuses == [1: 300])
        #expect(messages == ["blectl scan: hci0 stopped reporting (the adapter went away, was reset or powered off)": 300])
    }
}
