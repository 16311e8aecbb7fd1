import BLECore
import HCI
import Host
import L2CAP
import Testing

/// The connection manager against a scripted controller that misbehaves: events that do not
/// decode, completions for packets never sent, and a transport that closes under pending work.
@Suite("LEConnectionManager against a bad controller")
struct LEConnectionManagerBadInputTests {
    static func information(buffers: Int = 4) -> ControllerInformation {
        ControllerInformation(version: .init(hciVersion: 13, hciSubversion: 0, lmpVersion: 13, companyIdentifier: 0xFFFF, lmpSubversion: 0),
                              lmpFeatures: .leSupportedController, capabilities: legacyCapabilities,
                              publicAddress: BluetoothAddress("00:11:22:33:44:55"), address: BluetoothAddress("00:11:22:33:44:55")!,
                              ownAddressType: .public, aclBuffers: ACLBufferSize(length: 27, count: buffers, source: .leV1),
                              eventMask: ControllerBringUp.eventMask, leEventMask: ControllerBringUp.leEventMask(for: .legacy))
    }

    // LE Connection Complete: Success, handle 0x0040, peripheral, random F0:33:22:11:A2:C3, 30 ms, 0, 420 ms
    static let incoming = "04 3e 13 01 00 4000 01 01 c3a2112233f0 1800 0000 2a00 00"

    static func firstIncoming(_ manager: LEConnectionManager) async -> LEConnection? {
        for await connection in manager.incomingConnections { return connection }
        return nil
    }

    @Test("an event that does not decode is skipped, and the next link still forms")
    func malformedEventSkipped() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let manager = await LEConnectionManager(flow: flow, controller: Self.information())
        transport.inject(try h4("04 3e 05 01 00 4000 01"))              // LE Connection Complete cut short
        transport.inject(try h4("04 05 02 00 40"))                       // Disconnection Complete cut short
        transport.inject(try h4(Self.incoming))
        let connection = try #require(await Self.firstIncoming(manager))
        #expect(connection.handle == 0x0040)
        #expect(connection.role == .peripheral)
        #expect(connection.state.connectionInterval.rawValue == 0x0018)
        #expect(await manager.ended == nil)
    }

    @Test("Number Of Completed Packets for packets never sent is ignored and counted")
    func excessCompletionsCounted() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let manager = await LEConnectionManager(flow: flow, controller: Self.information())
        transport.inject(try h4(Self.incoming))
        _ = try #require(await Self.firstIncoming(manager))
        transport.inject(try h4("04 13 05 01 4000 0500"))                // 5 packets completed on 0x0040
        transport.inject(try h4("04 13 05 01 9900 0200"))                // 2 on a handle with no link
        await eventually("counted") { await manager.diagnostics.excessCompletions == 7 }
    }

    @Test("a transport that closes ends the link, a send waiting for credits and a connect attempt, each once")
    func transportClosesUnderPendingWork() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let manager = await LEConnectionManager(flow: flow, controller: Self.information(buffers: 1))
        transport.inject(try h4(Self.incoming))
        let connection = try #require(await Self.firstIncoming(manager))
        // The one credit goes to the first PDU; the second waits for a completion that never comes.
        try await connection.att.send([0x52, 0x03, 0x00, 0x01])        // Write Command
        let waiting = Task { try await connection.att.send([0x52, 0x03, 0x00, 0x02]) }
        await transport.waitForSent(1)
        transport.finish()
        await #expect(throws: (any Error).self) { try await waiting.value }
        #expect(await connection.disconnected() == .hardwareFailure)
        #expect(await manager.ended == .transportClosed)
        let error = await #expect(throws: LEConnectionError.self) {
            try await manager.connect(to: BluetoothAddress("C0:00:00:00:00:01")!, addressType: .random)
        }
        #expect(error == .ended(.transportClosed))
        var after = 0
        for await _ in manager.incomingConnections { after += 1 }
        #expect(after == 0)
        #expect(transport.sent.count == 1, "the waiting PDU was never sent")
    }
}
