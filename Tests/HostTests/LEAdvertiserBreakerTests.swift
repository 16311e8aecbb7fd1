import BLECore
import HCI
import Host
import Testing

/// Breaker findings for ``LEAdvertiser``: each test failed before its fix.
@Suite("LEAdvertiser: breaker findings", .timeLimit(.minutes(1)))
struct LEAdvertiserBreakerTests {
    /// Answers every command the host sends with a Command Complete (1 credit, Success) for its
    /// opcode, as a controller that accepts everything, until `done` holds.
    func answerEverything(_ transport: ScriptedHCITransport, until done: () async -> Bool) async throws {
        var answered = 0
        while true {
            for _ in 0..<200 { await Task.yield() }
            let sent = transport.sent
            if answered < sent.count {
                let octets = sent[answered].h4Encoded                  // 01, opcode (2, little-endian), ...
                transport.inject(try h4("04 0e 04 01 " + Hex.encode(Array(octets[1...2])) + " 00"))
                answered += 1
            } else if await done() {
                return
            }
        }
    }

    @Test("stop() while start() sets up: nothing is enabled after stop's disable, and the state says stopped")
    func stopDuringStart() async throws {
        let transport = ScriptedHCITransport()
        let flow = HCICommandFlow(transport: transport)
        let advertiser = LEAdvertiser(flow: flow, capabilities: legacyCapabilities)
        let starting = Task { try await advertiser.start(LEAdvertisingParameters()) }
        await transport.waitForSent(1)                                   // LE Set Advertising Parameters, unanswered
        let stopping = Task { try await advertiser.stop() }
        await eventually("stop's disable waits for a credit") { await flow.queuedCommandCount == 1 }
        let finished = Finished()
        let controller = Task { try await answerEverything(transport) { await finished.value } }
        try await stopping.value
        _ = await starting.result
        await finished.set()
        try await controller.value
        #expect(await advertiser.isStarted == false)
        #expect(await advertiser.isAdvertising == false, "isAdvertising must not say true once stopped")
        #expect(transport.sent.last == (try h4("01 0a 20 01 00")),
                "the last command must disable advertising, not enable it: \(transport.sent.map { Hex.encode($0.h4Encoded) })")
        let disable = try h4("01 0a 20 01 00"), enable = try h4("01 0a 20 01 01")
        let stopAt = try #require(transport.sent.firstIndex(of: disable))
        #expect(!transport.sent[stopAt...].contains(enable), "no LE Set Advertising Enable (enable) after stop's disable")
    }
}

/// A flag one task sets and another reads.
actor Finished {
    private(set) var value = false
    func set() { value = true }
}
