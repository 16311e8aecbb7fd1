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
}
