import BLECore
import HCI
import Host
import Testing

/// Breaker findings for ``LEScanner``: each test failed before its fix.
@Suite("LEScanner: stop() racing start()", .timeLimit(.minutes(1)))
struct LEScannerBreakerTests {
    /// The H4 frame of a Command Complete with 1 credit and Status Success for `opcode` (no
    /// further return parameters), e.g. "04 0e 04 01 0c 20 00" for LE Set Scan Enable.
    func success(_ opcode: HCIOpcode) throws -> HCIPacket {
        try h4("04 0e 04 01 " + Hex.encode([UInt8(opcode.rawValue & 0xff), UInt8(opcode.rawValue >> 8)]) + " 00")
    }

    @Test("stop() while LE Set Scan Parameters is in flight: scanning is never enabled, start returns a finished stream")
    func stopDuringParameters() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let scanner = LEScanner(flow: flow, capabilities: legacyCapabilities)
        let starting = Task { try await scanner.start() }
        await transport.waitForSent(1)                                   // LE Set Scan Parameters, unanswered
        let stopping = Task { try await scanner.stop() }
        await eventually("stop's disable waits for a credit") { await flow.queuedCommandCount == 1 }
        transport.inject(try success(.leSetScanParameters))
        await transport.waitForSent(2)
        transport.inject(try success(.leSetScanEnable))                  // the answer to stop's disable
        try await stopping.value
        let discoveries = try await starting.value
        var iterator = discoveries.makeAsyncIterator()
        #expect(await iterator.next() == nil, "the scan was stopped before it started")
        #expect(await scanner.isScanning == false)
        #expect(transport.sent == [
            try h4("01 0b 20 07 00 6000 3000 00 00"),                    // LE Set Scan Parameters: passive, 60 ms, 30 ms
            try h4("01 0c 20 02 00 00"),                                 // LE Set Scan Enable: disable (stop)
        ], "no LE Set Scan Enable (enable) after stop's disable")

        // The scanner starts again cleanly: nothing was left enabled on the controller.
        transport.append(try [
            .expect(h4: "01 0b 20 07 00 6000 3000 00 00"), .inject(h4: "04 0e 04 01 0b 20 00"),
            .expect(h4: "01 0c 20 02 01 00"), .inject(h4: "04 0e 04 01 0c 20 00"),
        ])
        _ = try await scanner.start()
        #expect(await scanner.isScanning)
        #expect(transport.isFinished)
        #expect(Array(transport.sent.dropFirst(2)) == [try h4("01 0b 20 07 00 6000 3000 00 00"), try h4("01 0c 20 02 01 00")])
    }
}
