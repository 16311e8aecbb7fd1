import BLECore
import HCI
@testable import Host
import Testing

/// The commands that change what the controller does (HCI_Disconnect, scan and advertising
/// enables and disables) run to their answer when the caller's task is cancelled, so the host
/// stays in step with the controller: a stop from cleanup code still stops, a disconnection
/// still disconnects, and an enable already on its way is known to have taken effect.
@Suite("Commands that change the controller's state, for a cancelled caller", .timeLimit(.minutes(1)))
struct CancelledCallerTests {
    /// Runs `body` in a task that is cancelled before `body` begins, as cleanup code in a
    /// cancelled task runs.
    static func inCancelledTask<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await body()
        }.value
    }

    /// LE Set Scan Parameters (active, 60 ms / 30 ms, public, no filter) and LE Set Scan
    /// Enable (enable, duplicates kept), the enable left unanswered.
    static let scanStart = [
        "01 0b 20 07 01 6000 3000 00 00", "04 0e 04 01 0b 20 00",
        "01 0c 20 02 01 00",
    ]

    static func script(_ steps: [String]) throws -> [ScriptedHCITransport.Step] {
        try steps.map { $0.hasPrefix("01") ? try .expect(h4: $0) : try .inject(h4: $0) }
    }

    @Test("a scan stopped from a cancelled task is disabled at the controller")
    func scanStopFromCancelledTask() async throws {
        let transport = ScriptedHCITransport(script: try Self.script(Self.scanStart + ["04 0e 04 01 0c 20 00"]))
        let scanner = LEScanner(flow: patientFlow(transport), capabilities: legacyCapabilities)
        _ = try await scanner.start(LEScanParameters(scanType: .active))
        transport.append(try Self.script(["01 0c 20 02 00 00", "04 0e 04 01 0c 20 00"]))     // LE Set Scan Enable: disable
        try await Self.inCancelledTask { try await scanner.stop() }
        #expect(await scanner.isScanning == false)
        expectScriptPlayed(transport)
    }

    @Test("a start called while a stop waits for its answer reaches the controller after it: the disable before the new parameters")
    func stopThenStartKeepOrder() async throws {
        let transport = ScriptedHCITransport(script: try Self.script(Self.scanStart + ["04 0e 04 01 0c 20 00"]))
        let scanner = LEScanner(flow: patientFlow(transport), capabilities: legacyCapabilities)
        _ = try await scanner.start(LEScanParameters(scanType: .active))
        transport.append(try Self.script(["01 0c 20 02 00 00", "04 0e 04 01 0c 20 00"] + Self.scanStart + ["04 0e 04 01 0c 20 00"]))
        let stop = Task { try await scanner.stop() }
        // The scanner is free again once stop() waits for its disable's answer.
        await eventually("stop() under way") { await !scanner.isScanning }
        _ = try await scanner.start(LEScanParameters(scanType: .active))
        try await stop.value
        #expect(await scanner.isScanning)
        expectScriptPlayed(transport)
    }

    @Test("a scan start cancelled while its enable is on its way returns scanning, as the controller is")
    func scanStartCancelledDuringEnable() async throws {
        let transport = ScriptedHCITransport(script: try Self.script(Self.scanStart))
        let scanner = LEScanner(flow: patientFlow(transport), capabilities: legacyCapabilities)
        let start = Task { _ = try await scanner.start(LEScanParameters(scanType: .active)) }
        await transport.waitForSent(2)
        start.cancel()
        transport.inject(try h4("04 0e 04 01 0c 20 00"))                                     // the enable's Command Complete
        try await start.value
        #expect(await scanner.isScanning)
        expectScriptPlayed(transport)
    }

    @Test("a scan start from a cancelled task sends no enable")
    func scanStartFromCancelledTask() async throws {
        let transport = ScriptedHCITransport()
        let scanner = LEScanner(flow: patientFlow(transport), capabilities: legacyCapabilities)
        let error = await #expect(throws: LEScannerError.self) {
            try await Self.inCancelledTask { _ = try await scanner.start(LEScanParameters(scanType: .active)) }
        }
        #expect(error == .command(.cancelled(opcode: HCILESetScanParameters.opcode)))
        #expect(await scanner.isScanning == false)
        #expect(transport.sent.isEmpty)
    }

    /// Legacy non-connectable advertising (ADV_NONCONN_IND, 100-150 ms) of Flags 0x06 and no
    /// scan response: parameters, data and scan response data, each answered.
    static let advertisingSetUp = [
        "01 06 20 0f a000 f000 03 00 00 000000000000 07 00", "04 0e 04 01 06 20 00",
        "01 08 20 20 03 020106" + String(repeating: " 00", count: 28), "04 0e 04 01 08 20 00",
        "01 09 20 20 00" + String(repeating: " 00", count: 31), "04 0e 04 01 09 20 00",
    ]

    @Test("advertising stopped from a cancelled task is disabled at the controller")
    func advertisingStopFromCancelledTask() async throws {
        let transport = ScriptedHCITransport(script: try Self.script(Self.advertisingSetUp + ["01 0a 20 01 01", "04 0e 04 01 0a 20 00"]))
        let advertiser = LEAdvertiser(flow: patientFlow(transport), capabilities: legacyCapabilities)
        try await advertiser.start(LEAdvertisingParameters(advertisingData: [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported])],
                                                           isConnectable: false))
        transport.append(try Self.script(["01 0a 20 01 00", "04 0e 04 01 0a 20 00"]))          // disable
        try await Self.inCancelledTask { try await advertiser.stop() }
        #expect(await advertiser.isStarted == false)
        expectScriptPlayed(transport)
    }

    @Test("advertising started by a task cancelled while the enable is on its way is started, as the controller is")
    func advertisingStartCancelledDuringEnable() async throws {
        let transport = ScriptedHCITransport(script: try Self.script(Self.advertisingSetUp + ["01 0a 20 01 01"]))
        let advertiser = LEAdvertiser(flow: patientFlow(transport), capabilities: legacyCapabilities)
        let start = Task {
            try await advertiser.start(LEAdvertisingParameters(advertisingData: [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported])],
                                                               isConnectable: false))
        }
        await transport.waitForSent(4)
        start.cancel()
        transport.inject(try h4("04 0e 04 01 0a 20 00"))
        try await start.value
        #expect(await advertiser.isStarted)
        #expect(await advertiser.isAdvertising)
        expectScriptPlayed(transport)
    }

    @Test("a connect waiting for another peer's attempt to end stops waiting when its task is cancelled, and sends nothing")
    func connectWaitingItsTurnCancelled() async throws {
        let transport = ScriptedHCITransport()
        let manager = await LEConnectionManager(flow: patientFlow(transport), controller: LEConnectionManagerBadInputTests.information())
        let first = Task {
            try await manager.connect(to: BluetoothAddress("C0:00:00:00:00:01")!, addressType: .random, timeout: .seconds(600))
        }
        await transport.waitForSent(1)                                                          // its LE Create Connection
        transport.inject(try h4("04 0f 04 00 01 0d 20"))                                        // Command Status: Success
        let second = Task {
            try await manager.connect(to: BluetoothAddress("C0:00:00:00:00:02")!, addressType: .random, timeout: .seconds(600))
        }
        await eventually("the second waits for the turn") { await manager.connectTurnWaiters.count == 1 }
        second.cancel()
        let error = await #expect(throws: LEConnectionError.self) { try await second.value }
        #expect(error == .cancelled)
        #expect(await manager.connectTurnWaiters.isEmpty)
        #expect(transport.sent.count == 1, "only the first attempt's command")
        await manager.controllerFailed()
        let firstError = await #expect(throws: LEConnectionError.self) { try await first.value }
        #expect(firstError == .ended(.hardwareError(0x00)))
    }

    @Test("a disconnect called while another's HCI_Disconnect of the link is under way sends nothing and ends with that one's Reason")
    func secondDisconnectJoinsTheFirst() async throws {
        let (transport, manager, connection) = try await LEConnectionManagerBadInputTests.linked()
        transport.append(try Self.script([
            "01 06 04 03 4000 13",                  // HCI_Disconnect: handle 0x0040, Remote User Terminated Connection
            "04 0f 04 00 01 06 04",                 // Command Status: Success (no Disconnection Complete yet)
        ]))
        let first = Task { try await connection.disconnect() }
        await eventually("the first call's HCI_Disconnect under way") { await manager.links[0x0040]?.disconnecting != nil }
        let second = Task { try await connection.disconnect(reason: .remoteDeviceTerminatedPowerOff) }
        await eventually("the second call waiting for it") { await manager.links[0x0040]?.disconnecting?.waiterCount == 1 }
        transport.inject(try h4("04 05 04 00 4000 16"))   // Disconnection Complete: Connection Terminated By Local Host
        #expect(try await first.value == .connectionTerminatedByLocalHost)
        #expect(try await second.value == .connectionTerminatedByLocalHost)
        expectScriptPlayed(transport)         // one HCI_Disconnect: a second would be a mismatch
    }

    @Test("a link ended from a cancelled task is disconnected at the controller, and the call returns the Reason")
    func disconnectFromCancelledTask() async throws {
        let (transport, _, connection) = try await LEConnectionManagerBadInputTests.linked()
        transport.append(try Self.script([
            "01 06 04 03 4000 13",                  // HCI_Disconnect: handle 0x0040, Remote User Terminated Connection
            "04 0f 04 00 01 06 04",                 // Command Status: Success
            "04 05 04 00 4000 16",                  // Disconnection Complete: Connection Terminated By Local Host
        ]))
        let reason = try await Self.inCancelledTask { try await connection.disconnect() }
        #expect(reason == .connectionTerminatedByLocalHost)
        #expect(connection.disconnectionReason == .connectionTerminatedByLocalHost)
        expectScriptPlayed(transport)
    }
}
