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
        let flow = patientFlow(transport)
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

@Suite("LEAdvertiser: connectable extended advertising fits one AUX_ADV_IND")
struct LEAdvertiserConnectableLengthBreakerTests {
    /// Manufacturer Specific Data of `count` octets in all (Length, 0xFF, company 0x05F1, data).
    func manufacturer(octets count: Int) -> ADStructure {
        .manufacturerSpecificData(ADManufacturerSpecificData(companyIdentifier: 0x05F1, data: Array(repeating: 0x5A, count: count - 4)))
    }

    @Test("connectable advertising data over 245 octets is refused before anything is sent, not fragmented for the enable to fail")
    func connectableTooLong() throws {
        let connectable = LEAdvertisingParameters(advertisingData: [manufacturer(octets: 246)], isConnectable: true)
        #expect(throws: LEAdvertiserError.dataTooLong(.advertisingData, length: 246, maximum: 245, family: .extended)) {
            try LEAdvertiser.commands(for: connectable, capabilities: extendedCapabilities())
        }
        // 245 octets fit: one Complete operation, connectable extended PDUs.
        let fits = LEAdvertisingParameters(advertisingData: [manufacturer(octets: 245)], isConnectable: true)
        let commands = try LEAdvertiser.commands(for: fits, capabilities: extendedCapabilities())
        #expect((commands.first as? HCILESetExtendedAdvertisingParameters)?.advertisingEventProperties == [.connectable])
        #expect(commands.compactMap { ($0 as? HCILESetExtendedAdvertisingData)?.operation } == [.complete])
        // Non-connectable sets may still chain up to Max_Advertising_Data_Length: 400 octets in
        // a first and a last fragment.
        let beacon = LEAdvertisingParameters(advertisingData: [manufacturer(octets: 200), manufacturer(octets: 200)], isConnectable: false)
        let chained = try LEAdvertiser.commands(for: beacon, capabilities: extendedCapabilities())
        #expect(chained.compactMap { ($0 as? HCILESetExtendedAdvertisingData)?.operation } == [.firstFragment, .lastFragment])
    }
}
