import ATT
import BLECore
import HCI
@testable import Host
import Testing

/// A controller that accepts a command and then never sends the event it owes: the call that
/// waits for that event ends with a typed error within a bound, instead of waiting forever.
@Suite("LEConnectionManager against a controller that goes silent", .timeLimit(.minutes(1)))
struct SilentControllerTests {

    static let configuration = LEConnectionManager.Configuration(procedureTimeout: .seconds(5))

    /// A manager on a scripted controller, its timeouts (procedure timeout 5 s) on a test clock.
    static func silentController() async -> (ScriptedHCITransport, TestClock, LEConnectionManager) {
        let transport = ScriptedHCITransport()
        let clock = TestClock()
        let manager = await LEConnectionManager(flow: patientFlow(transport), controller: LEConnectionManagerBadInputTests.information(),
                                                configuration: configuration, clock: clock)
        return (transport, clock, manager)
    }
    /// LE Create Connection to random C0:00:00:00:00:01 (60 ms / 30 ms scan, 30-50 ms, 4 s),
    /// and its Command Status: Success.
    static let createConnection = ["01 0d 20 19 6000 3000 00 01 010000 0000c0 00 1800 2800 0000 9001 0000 0000",
                                   "04 0f 04 00 01 0d 20"]

    /// A Disconnection Complete for handle 0x0040 after its link was let go of is ignored: the
    /// handle's next link stays up, and the manager goes on.
    static func expectLateDisconnectionIgnored(_ transport: ScriptedHCITransport, _ manager: LEConnectionManager) async throws {
        transport.inject(try h4("04 05 04 00 4000 16"))
        transport.inject(try h4(LEConnectionManagerBadInputTests.incoming))
        let next = try #require(await LEConnectionManagerBadInputTests.firstIncoming(manager))
        #expect(next.disconnectionReason == nil, "the late event did not end the handle's next link")
        #expect(await manager.ended == nil)
    }

    @Test("a Disconnect the controller accepted but never completes throws procedureTimeout after the supervision timeout plus the procedure timeout, and the link ends here with Unspecified Error")
    func disconnectionCompleteNeverComes() async throws {
        let (transport, clock, manager) = await Self.silentController()
        transport.inject(try h4(LEConnectionManagerBadInputTests.incoming))     // supervision timeout 420 ms
        let connection = try #require(await LEConnectionManagerBadInputTests.firstIncoming(manager))
        transport.append(try CancelledCallerTests.script([
            "01 06 04 03 4000 13",                  // HCI_Disconnect: handle 0x0040, Remote User Terminated Connection
            "04 0f 04 00 01 06 04",                 // Command Status: Success, and no Disconnection Complete
        ]))
        let disconnect = Task { try await connection.disconnect() }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(5_419))
        await Task.yield()
        #expect(connection.disconnectionReason == nil)
        clock.advance(by: .milliseconds(1))
        let error = await #expect(throws: LEConnectionError.self) { try await disconnect.value }
        #expect(error == .procedureTimeout("Disconnection Complete"))
        #expect(await connection.disconnected() == .unspecifiedError)
        await #expect(throws: ATTBearerError.closed) { try await connection.att.send([0x52, 0x03, 0x00, 0x01]) }
        #expect(await manager.connections.isEmpty)
        // The event, when it comes after all, is ignored; the manager goes on.
        try await Self.expectLateDisconnectionIgnored(transport, manager)
        expectScriptPlayed(transport)
    }

    @Test("a Disconnection Complete whose Status says the disconnection failed ends the disconnect call with that Status at once, and the link stays up")
    func failedDisconnectionCompleteKeepsTheLink() async throws {
        let (transport, _, manager) = await Self.silentController()
        transport.inject(try h4(LEConnectionManagerBadInputTests.incoming))
        let connection = try #require(await LEConnectionManagerBadInputTests.firstIncoming(manager))
        transport.append(try CancelledCallerTests.script([
            "01 06 04 03 4000 13",                  // HCI_Disconnect: handle 0x0040, Remote User Terminated Connection
            "04 0f 04 00 01 06 04",                 // Command Status: Success,
            "04 05 04 0c 4000 13",                  // and right behind it Disconnection Complete: Command Disallowed
        ]))
        let disconnect = Task { try await connection.disconnect() }
        let error = await #expect(throws: LEConnectionError.self) { try await disconnect.value }
        #expect(error == .command(.status(.commandDisallowed, opcode: HCIDisconnect.opcode)))
        #expect(connection.disconnectionReason == nil)
        #expect(await manager.connections.map(\.handle) == [0x0040], "the link is still up")
        // It ends when the controller says so.
        transport.inject(try h4("04 05 04 00 4000 08"))
        #expect(await connection.disconnected() == .connectionTimeout)
        expectScriptPlayed(transport)
    }

    @Test("abandon lets go of a link the controller will not end: its calls end, disconnected() gives Unspecified Error, and a late Disconnection Complete is ignored")
    func abandonLetsGo() async throws {
        let (transport, _, manager) = await Self.silentController()
        transport.inject(try h4(LEConnectionManagerBadInputTests.incoming))
        let connection = try #require(await LEConnectionManagerBadInputTests.firstIncoming(manager))
        await connection.abandon()
        #expect(await connection.disconnected() == .unspecifiedError)
        await #expect(throws: ATTBearerError.closed) { try await connection.att.send([0x52, 0x03, 0x00, 0x01]) }
        #expect(await manager.connections.isEmpty)
        try await Self.expectLateDisconnectionIgnored(transport, manager)
    }

    @Test("a connect whose cancel the controller accepted but never completes ends with its timeout after the procedure timeout; the next connect is sent")
    func connectionCompleteAfterCancelNeverComes() async throws {
        let (transport, clock, manager) = await Self.silentController()
        let peer = BluetoothAddress("C0:00:00:00:00:01")!
        transport.append(try CancelledCallerTests.script(Self.createConnection + [
            "01 0e 20 00",                          // LE Create Connection Cancel
            "04 0e 04 01 0e 20 00",                 // Command Complete: Success, and no LE Connection Complete
        ]))
        let connect = Task { try await manager.connect(to: peer, addressType: .random, timeout: .seconds(2)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        await transport.waitForSent(2)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(5))
        let error = await #expect(throws: LEConnectionError.self) { try await connect.value }
        #expect(error == .connectionTimeout(after: .seconds(2)))
        expectScriptPlayed(transport)
        // The next attempt goes out; the first one's late Unknown Connection Identifier, which
        // comes while it waits, is not its answer: it was never cancelled.
        transport.append(try CancelledCallerTests.script(Self.createConnection))
        let next = Task { try await manager.connect(to: peer, addressType: .random, timeout: .seconds(2)) }
        await transport.waitForSent(3)
        expectScriptPlayed(transport)
        await eventually("the next attempt waits") { await manager.pendingConnect != nil }
        transport.inject(try h4("04 3e 13 01 02 0000 00 01 010000000000 0000 0000 0000 00"))
        // A peripheral link after it, taken in once the manager has handled the event before.
        transport.inject(try h4(LEConnectionManagerBadInputTests.incoming))
        _ = try #require(await LEConnectionManagerBadInputTests.firstIncoming(manager))
        #expect(await manager.pendingConnect != nil)
        await manager.controllerFailed()
        let nextError = await #expect(throws: LEConnectionError.self) { try await next.value }
        #expect(nextError == .ended(.hardwareError(0x00)))
    }

    @Test("a cancel answered by its LE Connection Complete in time leaves no backstop behind")
    func connectionCompleteAfterCancelComes() async throws {
        let (transport, clock, manager) = await Self.silentController()
        transport.append(try CancelledCallerTests.script(Self.createConnection + [
            "01 0e 20 00",
            "04 0e 04 01 0e 20 00",
        ]))
        let connect = Task { try await manager.connect(to: BluetoothAddress("C0:00:00:00:00:01")!, addressType: .random, timeout: .seconds(2)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        await clock.waitForSleepers(1)                                      // the backstop, armed
        transport.inject(try h4("04 3e 13 01 02 0000 00 01 010000000000 0000 0000 0000 00"))     // LE Connection Complete: Unknown Connection Identifier
        let error = await #expect(throws: LEConnectionError.self) { try await connect.value }
        #expect(error == .connectionTimeout(after: .seconds(2)))
        await eventually("the backstop disarmed") { clock.sleeperCount == 0 }
        expectScriptPlayed(transport)
    }

    @Test("a link to an earlier attempt's peer, reported while another attempt waits, is not that attempt's: it comes on incomingConnections")
    func lateLinkOfAnAbandonedAttempt() async throws {
        let transport = ScriptedHCITransport()
        let manager = await LEConnectionManager(flow: patientFlow(transport), controller: LEConnectionManagerBadInputTests.information())
        transport.append(try CancelledCallerTests.script([
            "01 0d 20 19 6000 3000 00 01 020000 0000c0 00 1800 2800 0000 9001 0000 0000",      // to C0:00:00:00:00:02
            "04 0f 04 00 01 0d 20",
        ]))
        let attempt = Task { try await manager.connect(to: BluetoothAddress("C0:00:00:00:00:02")!, addressType: .random, timeout: .seconds(600)) }
        await eventually("the attempt waits") { await manager.pendingConnect != nil }
        // LE Connection Complete: Success, handle 0x0041, central, random C0:00:00:00:00:01.
        transport.inject(try h4("04 3e 13 01 00 4100 00 01 010000 0000c0 1800 0000 9001 00"))
        let stray = try #require(await LEConnectionManagerBadInputTests.firstIncoming(manager))
        #expect(stray.peerAddress == BluetoothAddress("C0:00:00:00:00:01"))
        #expect(await manager.pendingConnect != nil, "the attempt still waits for its own peer")
        // And its own.
        transport.inject(try h4("04 3e 13 01 00 4200 00 01 020000 0000c0 1800 0000 9001 00"))
        let connection = try await attempt.value
        #expect(connection.handle == 0x0042)
        #expect(connection.peerAddress == BluetoothAddress("C0:00:00:00:00:02"))
        expectScriptPlayed(transport)
    }
}
