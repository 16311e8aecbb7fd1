import ATT
import BLECore
import HCI
import Host
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Breaker findings for ``HCICommandFlow``: each test failed before its fix.
@Suite("HCICommandFlow: breaker findings", .timeLimit(.minutes(1)))
struct HCICommandFlowBreakerTests {
    /// A command timeout of `.seconds(Int64.max)` (a caller's "never time out") made the timer's
    /// Task.sleep trap: its deadline, now plus the timeout, has more seconds than Int64 holds.
    /// Run in a child process, so the crash before the fix fails this test alone.
    @Test("a huge command timeout never fires instead of trapping in the timer's sleep")
    func hugeCommandTimeout() async {
        await #expect(processExitsWith: .success) {
            let transport = ScriptedHCITransport(script: try [
                .expect(h4: "01 03 0c 00"),                       // HCI_Reset
                .inject(h4: "04 0e 04 01 03 0c 00"),              // Command Complete, 1 credit, Success
            ])
            let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(Int64.max))
            try await flow.send(HCIReset())
            let unanswered = Task { try await flow.send(HCIReset()) }
            try await Task.sleep(for: .milliseconds(200))         // its timer is asleep by now
            unanswered.cancel()
            guard case .failure(HCICommandError.cancelled(opcode: .reset)) = await unanswered.result else { exit(EXIT_FAILURE) }
            exit(EXIT_SUCCESS)
        }
    }

    /// HCICommandError.cancelled says a command already sent "still runs on the controller; its
    /// completion is then ignored". The flow forgot the cancelled command instead, so its Command
    /// Complete ended the next command with the same opcode, with the cancelled one's Status.
    @Test("the Command Complete of a cancelled command that was sent is ignored, not taken for the next one with its opcode")
    func cancelledCompletionIgnored() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 03 20 00"),                           // LE Read Local Supported Features
            // Command Complete: Num_HCI_Command_Packets 2, Success, LE_Features 0 (two credits now)
            .inject(h4: "04 0e 0c 02 03 20 00 0000000000000000"),
        ])
        let flow = patientFlow(transport)
        _ = try await flow.send(HCILEReadLocalSupportedFeatures())
        #expect(await flow.commandCredits == 2)

        let enable = Task { try await flow.send(HCILESetAdvertisingEnable(enable: true)) }
        await transport.waitForSent(2)                            // LE Set Advertising Enable: enable
        enable.cancel()
        #expect(await enable.result.error == .cancelled(opcode: .leSetAdvertisingEnable))

        let disable = Task { try await flow.send(HCILESetAdvertisingEnable(enable: false)) }
        await transport.waitForSent(3)                            // sent at once, on the second credit
        // The cancelled enable's answer: Command Disallowed. It must not end the disable.
        transport.inject(try h4("04 0e 04 01 0a 20 0c"))
        // The disable's own answer: Success.
        transport.inject(try h4("04 0e 04 01 0a 20 00"))
        #expect(await disable.result.error == nil, "the disable got the cancelled enable's Command Disallowed")
        #expect(await flow.commandsInFlight == 0)
    }

    /// A controller that answers with Num_HCI_Command_Packets 0 and then never grants a credit
    /// (no Command Complete for opcode 0x0000, no other answer) would stall the flow for good:
    /// every later command waits for a credit and times out unsent, so the host could never send
    /// again (not even HCI_Reset). A command that times out waiting, with nothing in flight,
    /// takes one credit back (BlueZ's command timer does the same).
    @Test("a controller that keeps Num_HCI_Command_Packets at 0 does not stall the flow for good")
    func zeroCreditsForever() async throws {
        let clock = TestClock()
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 03 0c 00"),                           // HCI_Reset
            .inject(h4: "04 0e 04 00 03 0c 00"),                  // Command Complete, Num_HCI_Command_Packets 0
        ])
        let flow = HCICommandFlow(transport: transport, clock: clock, commandTimeout: .seconds(2))
        try await flow.send(HCIReset())
        let first = Task { try await flow.send(HCIReset()) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(await first.result.error == .timeout(opcode: .reset, after: .seconds(2)))
        let second = Task { try await flow.send(HCIReset()) }
        await eventually("the next command goes out") { transport.sent.count == 2 }
        second.cancel()
    }
}

extension Result where Failure == any Error {
    /// The error as an ``HCICommandError``, or nil for a success.
    var error: HCICommandError? {
        if case .failure(let error) = self { return error as? HCICommandError }
        return nil
    }
}
