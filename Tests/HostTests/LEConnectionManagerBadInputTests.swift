import ATT
import BLECore
import HCI
@testable import Host
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

    /// A manager on a scripted controller with `buffers` ACL buffers, and the link the controller
    /// then reports (``incoming``).
    static func linked(buffers: Int = 4) async throws -> (ScriptedHCITransport, LEConnectionManager, LEConnection) {
        let transport = ScriptedHCITransport()
        let manager = await LEConnectionManager(flow: patientFlow(transport), controller: Self.information(buffers: buffers))
        transport.inject(try h4(Self.incoming))
        let connection = try #require(await Self.firstIncoming(manager))
        return (transport, manager, connection)
    }

    /// As ``linked(buffers:)``, on a transport that hands each packet to the flow on the
    /// injecting thread: what the flow's handlers do with a packet is done when `inject` returns.
    static func directlyLinked(buffers: Int = 4) async throws -> (DirectTestTransport, LEConnectionManager, LEConnection) {
        let transport = DirectTestTransport()
        let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(60))
        let manager = await LEConnectionManager(flow: flow, controller: Self.information(buffers: buffers))
        transport.inject(try h4(Self.incoming))
        let connection = try #require(await Self.firstIncoming(manager))
        return (transport, manager, connection)
    }

    /// A send on `connection` in a task of its own, which returns the link's Reason as the
    /// send's failure finds it (nil when the send went out).
    static func reasonAfterFailedSend(on connection: LEConnection) -> Task<HCIStatus?, Never> {
        Task {
            do {
                try await connection.att.send([0x52, 0x03, 0x00, 0x02])
                return nil
            } catch {
                return connection.disconnectionReason
            }
        }
    }

    @Test("a link that has dropped leaves connections at once, while its received data is still read")
    func droppedLinkNotListed() async throws {
        let (_, manager, connection) = try await Self.linked()
        #expect(await manager.connections.map(\.handle) == [0x0040])
        await manager.linkDropped(connection.handle, reason: .remoteUserTerminatedConnection)
        #expect(await manager.connections.isEmpty)
        #expect(connection.disconnectionReason == .remoteUserTerminatedConnection)
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
        let (transport, manager, _) = try await Self.linked()
        transport.inject(try h4("04 13 05 01 4000 0500"))                // 5 packets completed on 0x0040
        transport.inject(try h4("04 13 05 01 9900 0200"))                // 2 on a handle with no link
        await eventually("counted") { await manager.diagnostics.excessCompletions == 7 }
    }

    @Test("answers to a flood of signaling requests hold no state once they have left")
    func signalingFloodAnswersHoldNothing() async throws {
        let (transport, manager, _) = try await Self.linked(buffers: 64)
        // Command code 0x7F on CID 5, Identifiers 1...40: each gets a Command Reject
        // (Command Not Understood) that nobody awaits.
        let requests = 40
        for identifier in 1...requests {
            let hex = String(UInt8(identifier), radix: 16)
            transport.inject(try h4("02 4020 0800 0400 0500 7f \(hex.count == 1 ? "0" + hex : hex) 0000"))
            await transport.waitForSent(identifier)
        }
        let answers = transport.sent.compactMap { packet -> [UInt8]? in
            guard case .acl(let acl) = packet else { return nil }
            return Array(acl.data)
        }
        #expect(answers.count == requests)
        #expect(answers.first == [0x06, 0x00, 0x05, 0x00, 0x01, 0x01, 0x02, 0x00, 0x00, 0x00])
        #expect(await manager.diagnostics.signalingAnswers == requests)
        await eventually("every answer's outcome let go") { manager.sender.heldTickets == 0 }
    }

    @Test("a signaling command too long to reassemble still gets Command Reject, Signaling MTU exceeded, and the next command its answer")
    func oversizedSignalingCommandRejected() async throws {
        let (transport, manager, _) = try await Self.linked(buffers: 8)
        // LE signaling, Length 600 (over the 517-octet limit): Connection Parameter Update
        // Request, Identifier 0x09, in a 16-octet start fragment and a 588-octet continuation.
        transport.inject(try h4("02 4020 1000 5802 0500 12 09 5402 0600 0c00 0000 c800"))
        transport.inject(try h4("02 4010 4c02" + String(repeating: "00", count: 588)))
        // Then a command this host does not know, Identifier 0x0a.
        transport.inject(try h4("02 4020 0800 0400 0500 7f 0a 0000"))
        let sentACL = {
            transport.sent.compactMap { packet -> [UInt8]? in
                guard case .acl(let acl) = packet else { return nil }
                return Array(acl.data)
            }
        }
        await eventually("the answer to the command after the oversized one") { sentACL().contains { $0.count > 5 && $0[5] == 0x0a } }
        let answers = sentACL()
        // Command Reject, Identifier 0x09, Signaling MTU exceeded, actual MTU 23 (Vol 3, Part A, 4.1).
        #expect(answers.first == [0x08, 0x00, 0x05, 0x00, 0x01, 0x09, 0x04, 0x00, 0x01, 0x00, 0x17, 0x00])
        // Command Reject, Identifier 0x0a, Command not understood.
        #expect(answers.dropFirst().first == [0x06, 0x00, 0x05, 0x00, 0x01, 0x0a, 0x02, 0x00, 0x00, 0x00])
        #expect(await manager.diagnostics.signalingAnswers == 2)
        #expect(await manager.diagnostics.recentReassemblyProblems.contains { $0.contains("L2CAP Length 600 exceeds the limit of 517") })
    }

    @Test("two links on one handle, both formed and the first gone before the manager looks: the second reads its own data")
    func reusedHandleLinksReadTheirOwnData() async throws {
        let transport = DirectTestTransport()
        let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(60))
        // Before the manager exists nothing claims the links, so all of this waits for it.
        let manager = await LEConnectionManager(flow: flow, controller: Self.information())
        var incoming = manager.incomingConnections.makeAsyncIterator()
        transport.inject(try h4(Self.incoming))                                  // link A on 0x0040
        transport.inject(try h4("02 4020 0800 0400 0400 1b 0300 aa"))            // A's peer: notification 0xaa
        transport.inject(try h4("04 05 04 00 4000 13"))                          // A ends
        transport.inject(try h4(Self.incoming))                                  // link B takes 0x0040
        transport.inject(try h4("02 4020 0800 0400 0400 1b 0300 bb"))            // B's peer: notification 0xbb
        let first = try #require(await incoming.next())
        let second = try #require(await incoming.next())
        #expect(first !== second)
        #expect(await first.disconnected() == .remoteUserTerminatedConnection)
        var fromB = second.att.received.makeAsyncIterator()
        #expect(await fromB.next() == [0x1b, 0x03, 0x00, 0xbb], "B's first PDU is its own, not A's")
        #expect(await manager.diagnostics.reassemblyProblems == 0)
    }

    @Test("a link that formed and ended while no manager ran on the flow is not taken for the next manager's link")
    func linksBetweenManagersAreLetGo() async throws {
        let transport = DirectTestTransport()
        let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(60))
        let first = await LEConnectionManager(flow: flow, controller: Self.information())
        await first.close()
        transport.inject(try h4(Self.incoming))                                  // link A, nobody reads it
        transport.inject(try h4("02 4020 0800 0400 0400 1b 0300 aa"))
        transport.inject(try h4("04 05 04 00 4000 13"))
        let second = await LEConnectionManager(flow: flow, controller: Self.information())
        var incoming = second.incomingConnections.makeAsyncIterator()
        transport.inject(try h4(Self.incoming))                                  // link B, the second manager's
        transport.inject(try h4("02 4020 0800 0400 0400 1b 0300 bb"))
        let link = try #require(await incoming.next())
        var received = link.att.received.makeAsyncIterator()
        #expect(await received.next() == [0x1b, 0x03, 0x00, 0xbb], "B reads its own data, not A's ended route")
        #expect(await flow.routingStatistics.unclaimedACLPackets == 1, "A's packet, let go when the second manager started")
        await second.close()
    }

    /// A link on 0x0040 that dropped (Remote User Terminated Connection), and the newer link the
    /// controller then gave the same handle.
    static func handleReused() async throws -> (ScriptedHCITransport, LEConnectionManager, gone: LEConnection, newer: LEConnection) {
        let transport = ScriptedHCITransport()
        let manager = await LEConnectionManager(flow: patientFlow(transport), controller: Self.information())
        var incoming = manager.incomingConnections.makeAsyncIterator()
        transport.inject(try h4(Self.incoming))
        let gone = try #require(await incoming.next())
        transport.inject(try h4("04 05 04 00 4000 13"))                   // Disconnection Complete: Remote User Terminated Connection
        #expect(await gone.disconnected() == .remoteUserTerminatedConnection)
        transport.inject(try h4(Self.incoming))                          // the controller gives 0x0040 to a new link
        let newer = try #require(await incoming.next())
        #expect(newer.handle == gone.handle && newer !== gone)
        return (transport, manager, gone, newer)
    }

    @Test("a call on a connection whose link has gone fails, even when a newer link has its handle")
    func goneConnectionNeverActsOnNewerLink() async throws {
        let (transport, _, gone, _) = try await Self.handleReused()
        let expected = LEConnectionError.disconnected(reason: .remoteUserTerminatedConnection)
        #expect(await #expect(throws: LEConnectionError.self) { try await gone.readRSSI() } == expected)
        #expect(await #expect(throws: LEConnectionError.self) { try await gone.setPHY(.le2M) } == expected)
        #expect(await #expect(throws: LEConnectionError.self) { try await gone.setDataLength(txOctets: 251) } == expected)
        #expect(await #expect(throws: LEConnectionError.self) {
            try await gone.updateParameters(LEConnectionParametersRequest(intervalMin: 24, intervalMax: 40, timeout: 400))
        } == expected)
        #expect(transport.sent.isEmpty, "nothing was sent for the gone link, on the newer one's handle")
    }

    @Test("what the gone link's reader still holds is dropped, not answered on the newer link that took its handle")
    func goneLinksItemsNeverReachNewerLink() async throws {
        let (transport, manager, gone, newer) = try await Self.handleReused()
        // A signaling command of the gone link's peer (code 0x7F, which would get a Command
        // Reject), read by the gone link's reader after the newer link formed; then its route's end.
        await manager.receive(.frame(L2CAPBasicFrame(channelID: .leSignaling, payload: [0x7F, 0x01, 0x00, 0x00])), on: 0x0040, of: gone)
        await manager.aclEnded(0x0040, of: gone)
        #expect(transport.sent.isEmpty)
        #expect(await manager.diagnostics.signalingAnswers == 0)
        #expect(await manager.links[0x0040]?.connection === newer)
        #expect(await manager.links[0x0040]?.aclEnded == false, "the newer link's route has not ended")
        // The same items of the newer link's own reader are its own.
        await manager.receive(.frame(L2CAPBasicFrame(channelID: .leSignaling, payload: [0x7F, 0x01, 0x00, 0x00])), on: 0x0040, of: newer)
        await transport.waitForSent(1)
        #expect(await manager.diagnostics.signalingAnswers == 1)
    }

    @Test("a Number Of Completed Packets and a Disconnection Complete with octets after their last parameter are still acted on")
    func eventsWithTrailingOctetsActedOn() async throws {
        let (transport, manager, connection) = try await Self.linked(buffers: 1)
        try await connection.att.send([0x52, 0x03, 0x00, 0x01])        // Write Command: the one credit
        let waiting = Task { try await connection.att.send([0x52, 0x03, 0x00, 0x02]) }
        transport.inject(try h4("04 13 06 01 4000 0100 ee"))             // its credit back, and one octet more
        await transport.waitForSent(2)
        try await waiting.value
        #expect(await manager.diagnostics.excessCompletions == 0)
        transport.inject(try h4("04 05 05 00 4000 13 ee"))               // Disconnection Complete, one octet more
        #expect(await connection.disconnected() == .remoteUserTerminatedConnection)
        await #expect(throws: ATTBearerError.closed) { try await connection.att.send([0x52, 0x03, 0x00, 0x03]) }
    }

    @Test("a PDU still queued when its link's Disconnection Complete is read is dropped there, never sent on the handle")
    func queuedPDUStopsAtDisconnection() async throws {
        // A transport that hands each packet to the flow on the injecting thread: what the
        // sender does with the Disconnection Complete is done when `inject` returns.
        let (transport, manager, connection) = try await Self.directlyLinked(buffers: 1)
        try await connection.att.send([0x52, 0x03, 0x00, 0x01])        // Write Command: the one credit
        let waiting = Task { try await connection.att.send([0x52, 0x03, 0x00, 0x02]) }
        await eventually("the second PDU queued") { manager.sender.heldTickets == 1 }
        transport.inject(try h4("04 05 04 00 4000 13"))
        #expect(manager.sender.heldTickets == 0, "dropped on the reading thread, before the manager's turn")
        // A completion on the handle after it (a controller that reports the flushed packet
        // anyway): the credit must not carry the old link's PDU out.
        transport.inject(try h4("04 13 05 01 4000 0100"))
        await #expect(throws: ATTBearerError.closed) { try await waiting.value }
        #expect(await connection.disconnected() == .remoteUserTerminatedConnection)
        #expect(transport.sent.count == 1, "only the first PDU left")
        #expect(manager.sender.heldTickets == 0)
    }

    @Test("a send that its link's Disconnection Complete fails finds the link's Reason already set")
    func reasonSetBeforeSendsFail() async throws {
        let (transport, manager, connection) = try await Self.directlyLinked(buffers: 1)
        try await connection.att.send([0x52, 0x03, 0x00, 0x01])        // Write Command: the one credit
        let waiting = Self.reasonAfterFailedSend(on: connection)
        await eventually("the second PDU queued") { manager.sender.heldTickets == 1 }
        transport.inject(try h4("04 05 04 00 4000 08"))                // Disconnection Complete: Connection Timeout
        #expect(connection.disconnectionReason == .connectionTimeout, "set on the reading thread, before the manager's turn")
        #expect(await waiting.value == .connectionTimeout, "the failed send can name why (BLE's calls end with it)")
        #expect(await connection.disconnected() == .connectionTimeout)
    }

    @Test("a manager that ends sets each link's Reason before the link's waiting sends fail")
    func reasonSetBeforeSendsFailAtEnd() async throws {
        let (transport, manager, connection) = try await Self.linked(buffers: 1)
        try await connection.att.send([0x52, 0x03, 0x00, 0x01])        // the one credit
        let waiting = Self.reasonAfterFailedSend(on: connection)
        await transport.waitForSent(1)
        await eventually("the second PDU queued") { manager.sender.heldTickets == 1 }
        await manager.controllerFailed()
        #expect(await waiting.value == .hardwareFailure)
        #expect(await connection.disconnected() == .hardwareFailure)
    }

    @Test("a transport that refuses a link's packet sets the link's Reason before the send fails")
    func reasonSetBeforeRefusedSendFails() async throws {
        let (transport, manager, connection) = try await Self.directlyLinked()
        transport.refuseSends()
        let error = await #expect(throws: ATTBearerError.self) { try await connection.att.send([0x52, 0x03, 0x00, 0x01]) }
        #expect(error == .closed)
        #expect(connection.disconnectionReason == .hardwareFailure, "set before the send failed")
        #expect(await connection.disconnected() == .hardwareFailure)
        #expect(await manager.ended == .transportClosed)
    }

    @Test("a transport that closes ends the link, a send waiting for credits and a connect attempt, each once")
    func transportClosesUnderPendingWork() async throws {
        let (transport, manager, connection) = try await Self.linked(buffers: 1)
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

    @Test("a peripheral flooding acceptable Connection Parameter Update Requests costs the central one LE Connection Update at a time and one waiting request, the latest")
    func parameterRequestFloodIsCoalesced() async throws {
        let transport = ScriptedHCITransport()      // no script: the first LE Connection Update gets no Command Status
        let manager = await LEConnectionManager(flow: patientFlow(transport), controller: Self.information(buffers: 64))
        // LE Connection Complete: Success, handle 0x0040, this side central, random F0:33:22:11:A2:C3, 30 ms, 0, 420 ms
        transport.inject(try h4("04 3e 13 01 00 4000 00 01 c3a2112233f0 1800 0000 2a00 00"))
        _ = try #require(await Self.firstIncoming(manager))
        for i in 0..<500 {
            // Connection Parameter Update Request: 7.5-15 ms, latency 0, 2 s; the last one asks for 7.5-16.25 ms
            let maximum = i == 499 ? "0d00" : "0c00"
            transport.inject(try h4("02 4020 1000 0c00 0500 12 \(Hex.encode([UInt8(i % 255 + 1)])) 0800 0600 \(maximum) 0000 c800"))
            await eventually("answer \(i) sent") {
                transport.sent.filter { if case .acl = $0 { true } else { false } }.count == i + 1
            }
            transport.inject(try h4("04 13 05 01 4000 0100"))   // Number Of Completed Packets: the answer's credit back
        }
        let link = try #require(await manager.links[0x0040])
        #expect(link.updateTurns.count == 0, "no update waits for its turn")
        #expect(link.appliesPeerRequests)
        #expect(link.peerRequest?.intervalMax == 0x000D, "the latest request waits")
    }
}
