import ATT
import BLECore
import HCI
import Host
import Testing

@Suite("HCICommandFlow: commands, flow control, errors (Vol 4, Part E, 4.4 and 4.5)", .timeLimit(.minutes(1)))
struct HCICommandFlowTests {
    @Test("Command Complete returns the decoded return parameters")
    func returnParameters() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 02 20 00"),                  // LE Read Buffer Size, no parameters
            // Command Complete: Num_HCI_Command_Packets 1, Command_Opcode 0x2002,
            //   Status 0x00, LE_ACL_Data_Packet_Length 251 (0x00fb), Total_Num_LE_ACL_Data_Packets 15
            .inject(h4: "04 0e 07 01 02 20 00 fb00 0f"),
        ])
        let flow = patientFlow(transport)
        let buffer = try await flow.send(HCILEReadBufferSize())
        #expect(buffer.status == .success)
        #expect(buffer.leACLDataPacketLength == 251)
        #expect(buffer.totalNumLEACLDataPackets == 15)
        #expect(await flow.commandCredits == 1)
        expectScriptPlayed(transport)
    }

    @Test("Num_HCI_Command_Packets 0 holds the next command until an event grants a credit")
    func flowControl() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 0c 20 02 01 00"),            // LE Set Scan Enable: enable, no duplicate filter
            .inject(h4: "04 0e 04 00 0c 20 00"),         // Command Complete, Num_HCI_Command_Packets 0, Success
        ])
        let flow = patientFlow(transport)
        try await flow.send(HCILESetScanEnable(enable: true))
        #expect(await flow.commandCredits == 0)

        let second = Task { try await flow.send(HCILESetScanEnable(enable: false)) }
        await eventually("the second command is queued") { await flow.queuedCommandCount == 1 }
        #expect(transport.sent.count == 1, "no command may be sent without a credit")

        transport.append(try [
            .expect(h4: "01 0c 20 02 00 00"),            // LE Set Scan Enable: disable
            .inject(h4: "04 0e 04 01 0c 20 00"),         // Command Complete, 1 credit, Success
        ])
        // Command Complete for opcode 0x0000 (no command): Num_HCI_Command_Packets 1
        transport.inject(try h4("04 0e 03 01 0000"))
        _ = try await second.value
        #expect(await flow.commandCredits == 1)
        #expect(await flow.queuedCommandCount == 0)
        expectScriptPlayed(transport)
    }

    @Test("commands called together go out in call order, one per credit")
    func order() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let first = Task { try await flow.send(HCILEReadLocalSupportedFeatures()) }
        await transport.waitForSent(1)
        let second = Task { try await flow.send(HCILEReadBufferSize()) }
        await eventually("the second command is queued") { await flow.queuedCommandCount == 1 }
        #expect(transport.sent == [try h4("01 03 20 00")])
        // Command Complete for LE Read Local Supported Features: 2 credits, Success,
        //   LE_Features 0x0000000000001001 (LE Encryption, LE Extended Advertising)
        transport.inject(try h4("04 0e 0c 02 03 20 00 01 10 00 00 00 00 00 00"))
        #expect(try await first.value.leFeatures == [.leEncryption, .leExtendedAdvertising])
        await transport.waitForSent(2)
        #expect(transport.sent.last == (try h4("01 02 20 00")))
        transport.inject(try h4("04 0e 07 01 02 20 00 1b00 03"))
        #expect(try await second.value.leACLDataPacketLength == 27)
    }

    @Test("HCI_Reset is a barrier: it waits for the command in flight, and nothing goes after it until its Command Complete, credits or not (7.3.2)")
    func resetIsABarrier() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let first = Task { try await flow.send(HCILEReadBufferSize()) }
        await transport.waitForSent(1)
        // Credits for more, from a Command Complete for no command (opcode 0x0000): 3.
        transport.inject(try h4("04 0e 03 03 0000"))
        await eventually("three credits") { await flow.commandCredits == 3 }
        let reset = Task { try await flow.send(HCIReset()) }
        await eventually("the reset is queued") { await flow.queuedCommandCount == 1 }
        let after = Task { try await flow.send(HCILEReadLocalSupportedFeatures()) }
        await eventually("the command after it is queued") { await flow.queuedCommandCount == 2 }
        #expect(transport.sent.count == 1, "the reset waits for LE Read Buffer Size's answer")

        transport.inject(try h4("04 0e 07 03 02 20 00 1b00 03"))
        _ = try await first.value
        await transport.waitForSent(2)
        #expect(transport.sent.last == (try h4("01 03 0c 00")))
        await eventually("the command after the reset waits") { await flow.queuedCommandCount == 1 }
        #expect(transport.sent.count == 2, "nothing after HCI_Reset before its Command Complete")

        transport.inject(try h4("04 0e 04 01 03 0c 00"))              // Command Complete (HCI_Reset): Success
        _ = try await reset.value
        await transport.waitForSent(3)
        #expect(transport.sent.last == (try h4("01 03 20 00")))
        transport.inject(try h4("04 0e 0c 01 03 20 00 00 00 00 00 00 00 00 00"))
        _ = try await after.value
    }

    @Test("controllerReset ends the command in flight and the queued ones with controllerReset, and HCI_Reset goes at once instead of waiting out their timeouts")
    func controllerResetEndsCommandsInFlight() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let lost = Task { try await flow.send(HCILEReadBufferSize()) }
        await transport.waitForSent(1)
        let queued = Task { try await flow.send(HCILESetScanEnable(enable: false)) }
        await eventually("the second command is queued") { await flow.queuedCommandCount == 1 }
        await flow.controllerReset()                                   // a Hardware Error came: no answer will
        let error = await #expect(throws: HCICommandError.self) { try await lost.value }
        #expect(error == .controllerReset(opcode: .leReadBufferSize))
        let queuedError = await #expect(throws: HCICommandError.self) { try await queued.value }
        #expect(queuedError == .controllerReset(opcode: .leSetScanEnable))
        #expect(transport.sent.count == 1, "the queued command never went")
        let reset = Task { try await flow.send(HCIReset()) }
        await transport.waitForSent(2)
        #expect(transport.sent.last == (try h4("01 03 0c 00")))
        transport.inject(try h4("04 0e 04 01 03 0c 00"))
        _ = try await reset.value
    }

    @Test("a non-zero Status throws the HCI error code, named")
    func statusError() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 0c 20 02 01 00"),
            .inject(h4: "04 0e 04 01 0c 20 0c"),         // Command Complete, Status 0x0C Command Disallowed
        ])
        let flow = patientFlow(transport)
        let error = await #expect(throws: HCICommandError.self) { try await flow.send(HCILESetScanEnable(enable: true)) }
        #expect(error == .status(.commandDisallowed, opcode: .leSetScanEnable))
        #expect(error?.status == .commandDisallowed)
        #expect(error?.description == "LE Set Scan Enable failed: Command Disallowed (0x0C)")
        expectScriptPlayed(transport)
    }

    @Test("Command Status ends a command that completes later; its error Status is thrown")
    func commandStatus() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 06 04 03 4000 13"),          // Disconnect: Connection_Handle 0x0040, Reason 0x13
            .inject(h4: "04 0f 04 00 01 06 04"),         // Command Status: Success, 1 credit, opcode 0x0406
            .expect(h4: "01 06 04 03 4100 13"),          // Disconnect: Connection_Handle 0x0041
            .inject(h4: "04 0f 04 02 01 06 04"),         // Command Status: 0x02 Unknown Connection Identifier
        ])
        let flow = patientFlow(transport)
        let accepted = try await flow.send(HCIDisconnect(connectionHandle: 0x0040))
        #expect(accepted.status == .success)
        let error = await #expect(throws: HCICommandError.self) { try await flow.send(HCIDisconnect(connectionHandle: 0x0041)) }
        #expect(error == .status(.unknownConnectionIdentifier, opcode: .disconnect))
        expectScriptPlayed(transport)
    }

    @Test("Command Status with an error ends a command that returns through Command Complete (4.5)")
    func unknownCommand() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 3a 20 00"),                  // LE Read Maximum Advertising Data Length
            .inject(h4: "04 0f 04 01 01 3a 20"),         // Command Status: 0x01 Unknown HCI Command
        ])
        let flow = patientFlow(transport)
        let error = await #expect(throws: HCICommandError.self) { try await flow.send(HCILEReadMaximumAdvertisingDataLength()) }
        #expect(error == .status(.unknownHCICommand, opcode: .leReadMaximumAdvertisingDataLength))
        expectScriptPlayed(transport)
    }

    @Test("Status 0x00 with short return parameters is a malformed answer, naming the field")
    func malformedReturnParameters() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 02 20 00"),
            .inject(h4: "04 0e 06 01 02 20 00 fb00"),    // Total_Num_LE_ACL_Data_Packets missing
        ])
        let flow = patientFlow(transport)
        let error = await #expect(throws: HCICommandError.self) { try await flow.send(HCILEReadBufferSize()) }
        #expect(error == .malformedReturnParameters(opcode: .leReadBufferSize,
                                                    .truncated(field: "Total_Num_LE_ACL_Data_Packets", offset: 3, needed: 1, available: 0)))
    }

    @Test("no answer within the timeout throws timeout, and a credit is restored")
    func timeout() async throws {
        let clock = TestClock()
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 0c 20 02 01 00"),            // never answered
            .expect(h4: "01 0c 20 02 00 00"),
            .inject(h4: "04 0e 04 01 0c 20 00"),
        ])
        let flow = HCICommandFlow(transport: transport, clock: clock, commandTimeout: .seconds(2))
        let first = Task { try await flow.send(HCILESetScanEnable(enable: true)) }
        await transport.waitForSent(1)
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(1999))
        #expect(await flow.commandsInFlight == 1)
        clock.advance(by: .milliseconds(1))
        let error = await #expect(throws: HCICommandError.self) { try await first.value }
        #expect(error == .timeout(opcode: .leSetScanEnable, after: .seconds(2)))
        #expect(await flow.commandCredits == 1)
        try await flow.send(HCILESetScanEnable(enable: false))
        expectScriptPlayed(transport)
    }

    @Test("a closed transport resumes every pending call once, finishes routes, refuses later calls")
    func closedTransport() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let events = await flow.events([.leMeta(.advertisingReport)], label: "test")
        let inFlight = Task { try await flow.send(HCILEReadBufferSize()) }
        await transport.waitForSent(1)
        let queued = Task { try await flow.send(HCILEReadLocalSupportedFeatures()) }
        await eventually("the second command is queued") { await flow.queuedCommandCount == 1 }
        transport.finish()
        let first = await #expect(throws: HCICommandError.self) { try await inFlight.value }
        let second = await #expect(throws: HCICommandError.self) { try await queued.value }
        #expect(first == .closed(opcode: .leReadBufferSize))
        #expect(second == .closed(opcode: .leReadLocalSupportedFeatures))
        var received = 0
        for await _ in events { received += 1 }
        #expect(received == 0)
        #expect(await flow.closed)
        let later = await #expect(throws: HCICommandError.self) { try await flow.send(HCIReset()) }
        #expect(later == .closed(opcode: .reset))
        #expect(transport.sent.count == 1)
    }

    @Test("close() from the host side ends pending calls with closed")
    func closeByHost() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let pending = Task { try await flow.send(HCIReset()) }
        await transport.waitForSent(1)
        await flow.close()
        let error = await #expect(throws: HCICommandError.self) { try await pending.value }
        #expect(error == .closed(opcode: .reset))
    }

    @Test("events and ACL data that arrive while a command waits reach their routes, in order")
    func nothingDropped() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 0c 20 02 01 00"),
            // LE Connection Complete: Success, handle 0x0040, central, random F0:33:22:11:A2:C3,
            //   interval 0x0018 (30 ms), latency 0, timeout 0x002A (420 ms), accuracy 0
            .inject(h4: "04 3e 13 01 00 4000 00 01 c3a2112233f0 1800 0000 2a00 00"),
            // LE Advertising Report: 1 report, ADV_NONCONN_IND, public 00:11:22:33:44:55,
            //   Data_Length 3 (Flags 0x04), RSSI -70 dBm
            .inject(h4: "04 3e 0f 02 01 03 00 554433221100 03 020104 ba"),
            // ACL data: Connection_Handle 0x0040, first automatically flushable, 5 octets
            .inject(h4: "02 4020 0500 01000400 00"),
            // Command Complete for LE Read Buffer Size, which this flow did not send
            .inject(h4: "04 0e 07 01 02 20 00 fb00 0f"),
            .inject(h4: "04 0e 04 01 0c 20 00"),         // the answer to LE Set Scan Enable
            .inject(h4: "04 05 04 00 4000 13"),          // Disconnection Complete, after the answer
        ])
        let flow = patientFlow(transport)
        let events = await flow.events([.leMeta(.advertisingReport), .leMeta(.connectionComplete),
                                        .event(.commandComplete), .event(.disconnectionComplete)], label: "test")
        try await flow.send(HCILESetScanEnable(enable: true))
        var received: [HCIEventPacket] = []
        for await delivery in events {
            if let packet = delivery.packet { received.append(packet) }
            if received.count == 4 { break }
        }
        #expect(received.map { HCIPacket.event($0) } == [
            try h4("04 3e 13 01 00 4000 00 01 c3a2112233f0 1800 0000 2a00 00"),
            try h4("04 3e 0f 02 01 03 00 554433221100 03 020104 ba"),
            try h4("04 0e 07 01 02 20 00 fb00 0f"),
            try h4("04 05 04 00 4000 13"),
        ])
        // The link's data waited in its route, which the disconnection then finished.
        let acl = try #require(await flow.acl(handle: 0x0040))
        var data: [HCIPacket] = []
        for await delivery in acl { if let packet = delivery.packet { data.append(.acl(packet)) } }
        #expect(data == [try h4("02 4020 0500 01000400 00")])
        #expect(await flow.routingStatistics.isClean)
        expectScriptPlayed(transport)
    }

    @Test("a cancelled call ends with cancelled; the flow goes on")
    func cancellation() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let pending = Task { try await flow.send(HCIReset()) }
        await transport.waitForSent(1)
        pending.cancel()
        let error = await #expect(throws: HCICommandError.self) { try await pending.value }
        #expect(error == .cancelled(opcode: .reset))
        // The controller still answers the Reset it got: that answer ends it (and no other command).
        transport.inject(try h4("04 0e 04 01 03 0c 00"))
        await eventually("the cancelled command is forgotten") { await flow.commandsInFlight == 0 }
    }

    @Test("the scripted transport reports a packet the script did not expect")
    func scriptMismatch() async throws {
        let transport = ScriptedHCITransport(script: try [.expect(h4: "01 03 0c 00")])
        try await transport.send(try h4("01 01 10 00"))
        #expect(transport.mismatches == ["step 0: expected 01 03 0c 00, host sent 01 01 10 00"])
        try await transport.send(try h4("01 01 10 00"))
        #expect(transport.mismatches.last == "after the script's end, host sent 01 01 10 00")
    }
}
