import BLECore
import HCI
import Host
import Testing

/// The test controller itself: what tests rely on when they wait for the host's packets.
@Suite("ScriptedHCITransport", .timeLimit(.minutes(1)))
struct ScriptedHCITransportTests {
    @Test("waitForSent returns once the count is reached, and at once when the transport has finished")
    func waitForSent() async throws {
        let transport = ScriptedHCITransport()
        let waiting = Task { await transport.waitForSent(2) }          // one packet will never come
        try await transport.send(try h4("01 03 0c 00"))                  // HCI_Reset
        await transport.waitForSent(1)
        transport.finish()
        await waiting.value                                              // returned: the transport ended
        await transport.waitForSent(5)                                   // after the end: returns at once
        #expect(transport.sent == [try h4("01 03 0c 00")])
        await #expect(throws: HCITransportError.self) { try await transport.send(try h4("01 03 0c 00")) }
    }
}
