import BLECore
import HCI
import Host
import Testing

/// The command flow's router: events by code and LE subevent, ACL data by connection handle,
/// bounded queues whose overflow is counted and reported (Core v5.4, Vol 4, Part E, 5.4).
@Suite("HCI router")
struct HCIRouterTests {
    // LE Connection Complete: Success, handle 0x0040, central, random F0:33:22:11:A2:C3,
    //   interval 0x0018 (30 ms), latency 0, timeout 0x002A (420 ms), accuracy 0
    static let connected40 = "04 3e 13 01 00 4000 00 01 c3a2112233f0 1800 0000 2a00 00"
    // The same for handle 0x0041
    static let connected41 = "04 3e 13 01 00 4100 00 01 c3a2112233f0 1800 0000 2a00 00"
    // Disconnection Complete: Success, handle 0x0040, Remote User Terminated Connection (0x13)
    static let disconnected40 = "04 05 04 00 4000 13"
    // Number Of Completed Packets: 1 handle, 0x0040, 2 packets
    static let completed40 = "04 13 05 01 4000 0200"
    // LE Advertising Report: 1 report, ADV_NONCONN_IND, public 00:11:22:33:44:55, Flags 0x04, -70 dBm
    static let report = "04 3e 0f 02 01 03 00 554433221100 03 020104 ba"

    /// ACL data on `handle`, a complete 1-octet L2CAP PDU on CID 4 carrying `octet`.
    static func acl(_ handle: UInt16, _ octet: UInt8) -> HCIPacket {
        .acl(HCIACLDataPacket(handle: handle, packetBoundary: .firstFlushable, data: [0x01, 0x00, 0x04, 0x00, octet]))
    }

    /// Takes `count` deliveries from `stream`.
    static func take<P, S: AsyncSequence<HCIRouted<P>, Never>>(_ count: Int, from stream: S) async -> [HCIRouted<P>] {
        var taken: [HCIRouted<P>] = []
        for await delivery in stream {
            taken.append(delivery)
            if taken.count == count { break }
        }
        return taken
    }

    @Test("an event goes to every route whose selector takes it, by code or by LE subevent")
    func eventsBySelector() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let links = await flow.events([.event(.disconnectionComplete), .leMeta(.connectionComplete)], label: "links")
        let credits = await flow.events([.event(.numberOfCompletedPackets)], label: "credits")
        let everyLEEvent = await flow.events([.event(.leMeta)], label: "LE")
        for packet in [Self.connected40, Self.report, Self.completed40, Self.disconnected40] { transport.inject(try h4(packet)) }

        let linkEvents = await Self.take(2, from: links).compactMap(\.packet).map(\.code)
        #expect(linkEvents == [.leMeta, .disconnectionComplete])
        let creditEvents = await Self.take(1, from: credits).compactMap(\.packet).map(\.code)
        #expect(creditEvents == [.numberOfCompletedPackets])
        let leEvents = await Self.take(2, from: everyLEEvent).compactMap(\.packet).map(\.leSubeventCode)
        #expect(leEvents == [.connectionComplete, .advertisingReport])
        #expect(await flow.routingStatistics.isClean)
    }

    @Test("an event no route takes is counted by code, an LE event by subevent")
    func unroutedEventsCounted() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let links = await flow.events([.event(.disconnectionComplete)], label: "links")
        transport.inject(try h4(Self.report))
        transport.inject(try h4(Self.completed40))
        transport.inject(try h4(Self.completed40))
        transport.inject(try h4(Self.disconnected40))
        _ = await Self.take(1, from: links)
        let statistics = await flow.routingStatistics
        #expect(statistics.unroutedEvents == [.numberOfCompletedPackets: 2])
        #expect(statistics.unroutedLESubevents == [.advertisingReport: 1])
        #expect(statistics.description == "unrouted event 0x13: 2; unrouted event LE 0x02: 1")
    }

    @Test("a connection event opens its handle's ACL route, which holds the data that follows until it is claimed")
    func aclHeldUntilClaimed() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let links = await flow.events([.leMeta(.connectionComplete)], label: "links")
        transport.inject(try h4(Self.connected40))
        transport.inject(Self.acl(0x0040, 0xA1))   // at once, before anyone read the event
        transport.inject(Self.acl(0x0040, 0xA2))
        _ = await Self.take(1, from: links)
        let route = try #require(await flow.acl(handle: 0x0040))
        let data = await Self.take(2, from: route).compactMap(\.packet).map { $0.data.last }
        #expect(data == [0xA1, 0xA2])
        #expect(await flow.acl(handle: 0x0040) == nil, "a link has one reader")
    }

    @Test("ACL data goes to its own handle's route only")
    func aclByHandle() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        transport.inject(try h4(Self.connected40))
        transport.inject(try h4(Self.connected41))
        for octet: UInt8 in 1...4 { transport.inject(Self.acl(octet % 2 == 0 ? 0x0040 : 0x0041, octet)) }
        await eventually("both links open") { await flow.routingStatistics.unroutedLESubevents[.connectionComplete] == 2 }
        let first = try #require(await flow.acl(handle: 0x0040))
        let second = try #require(await flow.acl(handle: 0x0041))
        #expect(await Self.take(2, from: first).compactMap(\.packet).map { $0.data.last } == [2, 4])
        #expect(await Self.take(2, from: second).compactMap(\.packet).map { $0.data.last } == [1, 3])
    }

    @Test("ACL data for a handle with no link is counted, not delivered")
    func aclForUnknownHandleCounted() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        transport.inject(Self.acl(0x0123, 0x01))
        transport.inject(Self.acl(0x0123, 0x02))
        await eventually("counted") { await flow.routingStatistics.unroutedACLPackets == [0x0123: 2] }
        #expect(await flow.routingStatistics.description == "ACL for unknown handle 0x123: 2")
    }

    @Test("a Disconnection Complete finishes the handle's ACL route after the data before it")
    func disconnectionFinishesACLRoute() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let links = await flow.events([.event(.disconnectionComplete)], label: "links")
        transport.inject(try h4(Self.connected40))
        await eventually("open") { await flow.routingStatistics.unroutedLESubevents[.connectionComplete] == 1 }
        let route = try #require(await flow.acl(handle: 0x0040))
        transport.inject(Self.acl(0x0040, 0x01))
        transport.inject(try h4(Self.disconnected40))
        transport.inject(Self.acl(0x0040, 0x02))   // after the link ended: nowhere to go
        _ = await Self.take(1, from: links)
        var data: [UInt8?] = []
        for await delivery in route { data.append(delivery.packet?.data.last) }
        #expect(data == [0x01])
        await eventually("the late packet is counted") { await flow.routingStatistics.unroutedACLPackets == [0x0040: 1] }
    }

    @Test("a late reader of a reused handle gets the link it asked about, then the next")
    func reusedHandleKeepsLinksApart() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let links = await flow.events([.event(.disconnectionComplete), .leMeta(.connectionComplete)], label: "links")
        transport.inject(try h4(Self.connected40))
        transport.inject(Self.acl(0x0040, 0x01))
        transport.inject(try h4(Self.disconnected40))
        transport.inject(try h4(Self.connected40))   // the controller gives the handle out again
        transport.inject(Self.acl(0x0040, 0x02))
        _ = await Self.take(3, from: links)
        let firstLink = try #require(await flow.acl(handle: 0x0040))
        let secondLink = try #require(await flow.acl(handle: 0x0040))
        var first: [UInt8?] = []
        for await delivery in firstLink { first.append(delivery.packet?.data.last) }
        #expect(first == [0x01])
        #expect(await Self.take(1, from: secondLink).compactMap(\.packet).map { $0.data.last } == [0x02])
    }

    @Test("a full queue drops newer packets, counts them, and says so before the next packet it delivers")
    func overflowReportedInOrder() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let credits = await flow.events([.event(.numberOfCompletedPackets)], capacity: 2, label: "credits")
        for _ in 0..<5 { transport.inject(try h4(Self.completed40)) }
        await eventually("three dropped") { await flow.routingStatistics.overflows == ["credits": 3] }
        var iterator = credits.makeAsyncIterator()
        #expect(await iterator.next()?.packet != nil)
        #expect(await iterator.next()?.packet != nil)
        transport.inject(try h4(Self.completed40))
        let report = await iterator.next()
        #expect(report == .overflow(dropped: 3))
        #expect(await iterator.next()?.packet?.code == .numberOfCompletedPackets)
        #expect(await flow.routingStatistics.description == "overflow credits: 3")
    }

    @Test("a route whose reader stopped is removed; its events count as unrouted")
    func stoppedReaderRemovesRoute() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        // The route lives in this function only: returning drops its stream.
        func readOne() async throws {
            let credits = await flow.events([.event(.numberOfCompletedPackets)], label: "credits")
            transport.inject(try h4(Self.completed40))
            for await _ in credits { return }
        }
        try await readOne()
        transport.inject(try h4(Self.completed40))
        await eventually("the second is unrouted") { await flow.routingStatistics.unroutedEvents[.numberOfCompletedPackets] == 1 }
    }

    @Test("ended links nobody read are let go beyond a few, and their packets counted")
    func unclaimedLinksBounded() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        for _ in 0..<20 {
            transport.inject(try h4(Self.connected40))
            transport.inject(Self.acl(0x0040, 0x01))
            transport.inject(try h4(Self.disconnected40))
        }
        await eventually("twelve let go") { await flow.routingStatistics.unclaimedACLPackets == 12 }
    }

    @Test("a reader whose ended link was let go gets an ended route, and each later reader its own link")
    func letGoLinksKeepTheirPlace() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        // Ten links on 0x0040, each with one packet (its number); nine end before any reader
        // comes, one more than the router keeps for late readers.
        for number in 1...10 {
            transport.inject(try h4(Self.connected40))
            transport.inject(Self.acl(0x0040, UInt8(number)))
            if number < 10 { transport.inject(try h4(Self.disconnected40)) }
        }
        await eventually("the first let go") { await flow.routingStatistics.unclaimedACLPackets == 1 }
        let first = try #require(await flow.acl(handle: 0x0040))
        var firstPackets = 0
        for await _ in first { firstPackets += 1 }
        #expect(firstPackets == 0, "the first link's route has ended, empty")
        for number in 2...10 {
            let route = try #require(await flow.acl(handle: 0x0040))
            #expect(await Self.take(1, from: route).compactMap(\.packet).map { $0.data.last } == [UInt8(number)])
        }
    }

    @Test("after a controller reset, links nobody claimed are let go: the first link after it gets its own route")
    func resetLetsUnclaimedLinksGo() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let before = await flow.events([.event(.leMeta)], label: "before")
        transport.inject(try h4(Self.connected40))
        transport.inject(Self.acl(0x0040, 0x01))
        transport.inject(try h4(Self.report))
        _ = await Self.take(2, from: before)                           // the packet between them was routed too
        await flow.controllerReset()
        #expect(await flow.routingStatistics.unclaimedACLPackets == 1)
        let after = await flow.events([.event(.leMeta)], label: "after")
        transport.inject(try h4(Self.connected40))                     // the first link after the reset
        transport.inject(Self.acl(0x0040, 0x02))
        _ = await Self.take(1, from: after)
        let route = try #require(await flow.acl(handle: 0x0040))
        #expect(await Self.take(1, from: route).compactMap(\.packet).map { $0.data.last } == [0x02])
    }

    @Test("HCI_Reset completing ends every link and lets go of those nobody claimed: the first link after it gets its own route")
    func resetCommandLetsUnclaimedLinksGo() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let before = await flow.events([.event(.leMeta)], label: "before")
        transport.inject(try h4(Self.connected40))                     // a link no reader claimed
        transport.inject(Self.acl(0x0040, 0x01))
        transport.inject(try h4(Self.report))
        _ = await Self.take(2, from: before)
        let reset = Task { try await flow.send(HCIReset()) }
        await transport.waitForSent(1)
        transport.inject(try h4("04 0e 04 01 03 0c 00"))              // Command Complete: HCI_Reset, Success
        try await reset.value
        #expect(await flow.routingStatistics.unclaimedACLPackets == 1)
        transport.inject(try h4(Self.connected40))                     // the first link after the reset
        transport.inject(Self.acl(0x0040, 0x02))
        transport.inject(try h4(Self.report))
        _ = await Self.take(2, from: before)
        let route = try #require(await flow.acl(handle: 0x0040))
        #expect(await Self.take(1, from: route).compactMap(\.packet).map { $0.data.last } == [0x02])
    }

    @Test("a closed transport finishes every route")
    func closeFinishesRoutes() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let events = await flow.events([.event(.leMeta)], label: "LE")
        transport.inject(try h4(Self.connected40))
        await eventually("open") { await flow.routingStatistics.isClean }
        let acl = try #require(await flow.acl(handle: 0x0040))
        transport.finish()
        var count = 0
        for await _ in events { count += 1 }
        for await _ in acl { count += 1 }
        #expect(count == 1)
        var after = 0
        for await _ in await flow.events([.event(.leMeta)], label: "late") { after += 1 }
        #expect(after == 0)
    }
}
