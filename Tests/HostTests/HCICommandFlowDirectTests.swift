import BLECore
import HCI
@testable import Host
import Synchronization
import Testing

/// A transport that hands packets over directly once asked (``HCIDirectTransport``), and until
/// then puts them in its stream: what `inject` gives before a flow exists is its backlog.
/// Commands it is sent are answered at once, from inside `send`, with Command Complete
/// (Num_HCI_Command_Packets 1, Status Success).
final class DirectTestTransport: HCIDirectTransport {
    let packets: AsyncStream<HCIPacket>
    private let input: AsyncStream<HCIPacket>.Continuation
    private let state = Mutex<(redirect: (@Sendable (HCIPacket) -> Void)?, yielded: Int, sent: [HCIPacket], refusing: Bool)>((nil, 0, [], false))
    /// Runs inside `send` after each ACL packet is taken, as a controller's completions would.
    private let aclHook = Mutex<(@Sendable (HCIACLDataPacket) -> Void)?>(nil)

    init() { (packets, input) = AsyncStream.makeStream(of: HCIPacket.self) }

    /// A packet from the controller: to the redirect when there is one, else into the stream.
    func inject(_ packet: HCIPacket) {
        let redirect = state.withLock { state -> (@Sendable (HCIPacket) -> Void)? in
            if state.redirect == nil { state.yielded += 1 }
            return state.redirect
        }
        if let redirect { redirect(packet) } else { input.yield(packet) }
    }

    var sent: [HCIPacket] { state.withLock { $0.sent } }

    /// From now on every send is refused, as by a transport that failed while its reader still
    /// runs (a UART whose write side broke).
    func refuseSends() { state.withLock { $0.refusing = true } }

    func send(_ packet: HCIPacket) async throws(HCITransportError) {
        if !sendNow(packet) { throw .closed }
    }

    /// From now on `hook` runs inside `send` after each ACL packet is taken.
    func onACL(_ hook: @escaping @Sendable (HCIACLDataPacket) -> Void) { aclHook.withLock { $0 = hook } }

    func sendNow(_ packet: HCIPacket) -> Bool {
        guard state.withLock({ state in
            if !state.refusing { state.sent.append(packet) }
            return !state.refusing
        }) else { return false }
        if case .acl(let acl) = packet, let hook = aclHook.withLock({ $0 }) { hook(acl) }
        if case .command(let command) = packet {
            let opcode = command.opcode.rawValue
            inject(.event(HCIEventPacket(code: .commandComplete,
                                         parameters: [0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8), 0x00])))
        }
        return true
    }

    func redirectPackets(to receiver: @escaping @Sendable (HCIPacket) -> Void) -> Int {
        state.withLock { state in
            state.redirect = receiver
            return state.yielded
        }
    }

    func close() async { input.finish() }
}

/// The command flow on a transport that hands packets over directly (H4 streams, the virtual
/// radio's ports): each packet is matched and routed on the thread that read it, after the
/// transport's backlog, in arrival order (Core v5.4, Vol 4, Part E, 4.4 and 5.4).
@Suite("HCI command flow on a direct transport")
struct HCICommandFlowDirectTests {
    @Test("what the transport queued before the flow existed is routed before what it hands over directly")
    func backlogFirst() async throws {
        let transport = DirectTestTransport()
        transport.inject(try h4(HCIRouterTests.connected40))
        transport.inject(HCIRouterTests.acl(0x0040, 1))
        // Command Complete for no command (opcode 0x0000) granting 5 credits: its effect shows
        // when the backlog has been read.
        transport.inject(try h4("04 0e 03 05 0000"))
        let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(60))
        for octet: UInt8 in 2...4 { transport.inject(HCIRouterTests.acl(0x0040, octet)) }
        transport.inject(try h4(HCIRouterTests.disconnected40))    // finishes the route after its data

        // Claimed once the backlog's connection event has opened the link (a claim before it
        // would open a link of its own, which that event then replaces).
        await eventually("the backlog is read") { await flow.commandCredits == 5 }
        let route = try #require(await flow.acl(handle: 0x0040))
        // Data handed over before the backlog's connection event would have had no link, and
        // the route no Disconnection Complete after it: stop rather than wait for its end.
        try #require(await flow.routingStatistics.unroutedACLPackets.isEmpty)
        var payloads: [UInt8?] = []
        for await delivery in route { payloads.append(delivery.packet?.data.last) }
        #expect(payloads == [1, 2, 3, 4])
    }

    @Test("a packet handed over directly is routed before the transport's call returns")
    func routedInPlace() async throws {
        let transport = DirectTestTransport()
        let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(60))
        transport.inject(try h4(HCIRouterTests.report))
        transport.inject(try h4(HCIRouterTests.report))
        #expect(await flow.routingStatistics.unroutedLESubevents[.advertisingReport] == 2)
    }

    @Test("a command answered from inside the transport's send completes with its return parameters")
    func answeredInsideSend() async throws {
        let transport = DirectTestTransport()
        let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(60))
        for _ in 0..<3 { try await flow.send(HCIReset()) }
        #expect(transport.sent.count == 3)
        #expect(await flow.commandCredits == 1)
        #expect(await flow.commandsInFlight == 0)
    }

    @Test("Number Of Completed Packets goes to its handler on the reading thread, not to the routes; one that does not decode is routed")
    func completedPacketsHandler() async throws {
        let transport = DirectTestTransport()
        let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(60))
        let taken = Mutex<[[UInt16]]>([])
        flow.onNumberOfCompletedPackets { event in
            taken.withLock { $0.append(event.entries.flatMap { [$0.connectionHandle, $0.numCompletedPackets] }) }
        }
        let credits = await flow.events([.event(.numberOfCompletedPackets)], label: "credits")
        transport.inject(try h4(HCIRouterTests.completed40))        // handle 0x0040, 2 packets
        transport.inject(try h4("04 13 05 01 4100 0100"))            // handle 0x0041, 1 packet
        #expect(taken.withLock { $0 } == [[0x0040, 2], [0x0041, 1]])
        transport.inject(try h4("04 13 05 02 4000 0100"))            // says 2 handles, holds 1
        let routed = await HCIRouterTests.take(1, from: credits).compactMap(\.packet)
        #expect(routed.map(\.parameters) == [[0x02, 0x40, 0x00, 0x01, 0x00]])
        #expect(taken.withLock { $0.count } == 2)
    }

    @Test("a successful Disconnection Complete reaches its handler on the reading thread, before later packets, and is routed as well")
    func disconnectionHandler() async throws {
        let transport = DirectTestTransport()
        let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(60))
        let heard = Mutex<[String]>([])
        flow.onDisconnectionComplete { event in
            heard.withLock { $0.append("disconnected \(Hex.hex16(event.connectionHandle)) \(event.reason)") }
        }
        flow.onNumberOfCompletedPackets { _ in heard.withLock { $0.append("completed") } }
        let links = await flow.events([.event(.disconnectionComplete)], label: "links")
        transport.inject(try h4("04 05 05 00 4000 13 ee"))            // 0x0040, with an octet after the Reason
        #expect(heard.withLock { $0 } == ["disconnected 0x0040 Remote User Terminated Connection (0x13)"])
        transport.inject(try h4("04 13 05 01 4000 0100"))
        transport.inject(try h4("04 05 04 0c 4100 13"))               // Status Command Disallowed: no link ended
        #expect(heard.withLock { $0 } == ["disconnected 0x0040 Remote User Terminated Connection (0x13)", "completed"])
        let routed = await HCIRouterTests.take(2, from: links).compactMap(\.packet)
        #expect(routed.map(\.parameters) == [[0x00, 0x40, 0x00, 0x13, 0xEE], [0x0C, 0x41, 0x00, 0x13]])
    }

    @Test("when the transport ends, routes finish and later commands fail as closed")
    func transportEnds() async throws {
        let transport = DirectTestTransport()
        let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(60))
        let route = await flow.events([.event(.disconnectionComplete)], label: "links")
        await transport.close()
        for await _ in route { Issue.record("no event was sent") }
        await eventually("the flow closes") { await flow.closed }
        await #expect(throws: HCICommandError.closed(opcode: HCIReset.opcode)) { try await flow.send(HCIReset()) }
    }
}
