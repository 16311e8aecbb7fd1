import HCI
import Host
import L2CAP
import Testing

/// Host-to-controller ACL flow control (Core v5.4, Vol 4, Part E, 4.1.1, 4.3 and 7.7.19).
@Suite("ACL flow control")
struct ACLFlowControlTests {
    /// An L2CAP PDU on the ATT channel with `count` payload octets of `octet`.
    static func pdu(_ count: Int, _ octet: UInt8 = 0xAB) -> [UInt8] {
        L2CAPBasicFrame(channelID: .att, payload: [UInt8](repeating: octet, count: count)).encoded
    }

    static func queue(_ flow: inout ACLFlowControl, _ pdu: [UInt8], on handle: UInt16) throws -> ACLFlowControl.Ticket {
        let ticket = flow.enqueue(pdu, on: handle)
        return try #require(ticket)
    }

    static func close(_ flow: inout ACLFlowControl, _ handle: UInt16) -> ACLFlowControl.ClosedLink? { flow.close(handle: handle) }

    static func next(_ flow: inout ACLFlowControl) -> ACLFlowControl.Transmission? { flow.next() }

    static func drain(_ flow: inout ACLFlowControl) -> [ACLFlowControl.Transmission] {
        var sent: [ACLFlowControl.Transmission] = []
        while let next = flow.next() { sent.append(next) }
        return sent
    }

    @Test("a PDU is cut to the controller's data length, first fragment 0b00 then continuing")
    func fragments() throws {
        var flow = ACLFlowControl(buffers: ACLBufferSize(length: 27, count: 8, source: .leV1))
        flow.open(handle: 0x0040)
        let ticket = try Self.queue(&flow, Self.pdu(60), on: 0x0040)   // 64 octets: 27 + 27 + 10
        let sent = Self.drain(&flow)
        #expect(sent.map(\.packet.data.count) == [27, 27, 10])
        #expect(sent.map(\.packet.packetBoundary) == [.firstNonFlushable, .continuing, .continuing])
        #expect(sent.map(\.completedTicket) == [nil, nil, ticket])
        #expect(flow.freeCredits == 5)
        #expect(flow.outstanding(on: 0x0040) == 3)
    }

    @Test("credits run out at the buffer count, and Number Of Completed Packets gives them back")
    func creditsBoundSending() throws {
        var flow = ACLFlowControl(buffers: ACLBufferSize(length: 27, count: 2, source: .leV1))
        flow.open(handle: 0x0040)
        for _ in 0..<3 { _ = try Self.queue(&flow, Self.pdu(10), on: 0x0040) }
        #expect(Self.drain(&flow).count == 2)
        #expect(flow.freeCredits == 0)
        #expect(Self.next(&flow) == nil)
        let accepted = flow.completed(handle: 0x0040, count: 1)
        #expect(accepted == 1)
        #expect(Self.drain(&flow).count == 1)
        #expect(flow.queuedPDUs(on: 0x0040) == 0)
    }

    @Test("links take turns packet by packet: a bulk link does not starve the others")
    func fairAcrossLinks() throws {
        var flow = ACLFlowControl(buffers: ACLBufferSize(length: 27, count: 100, source: .leV1))
        flow.open(handle: 0x0040)
        flow.open(handle: 0x0041)
        for _ in 0..<10 { _ = try Self.queue(&flow, Self.pdu(200), on: 0x0040) }   // 8 fragments each
        _ = try Self.queue(&flow, Self.pdu(10), on: 0x0041)
        _ = try Self.queue(&flow, Self.pdu(10), on: 0x0041)
        let order = (0..<6).compactMap { _ in flow.next()?.packet.handle }
        #expect(order == [0x0040, 0x0041, 0x0040, 0x0041, 0x0040, 0x0040])
    }

    @Test("completions beyond what a link has outstanding are ignored and counted")
    func excessCompletionsCounted() throws {
        var flow = ACLFlowControl(buffers: ACLBufferSize(length: 27, count: 4, source: .leV1))
        flow.open(handle: 0x0040)
        _ = try Self.queue(&flow, Self.pdu(10), on: 0x0040)
        _ = Self.drain(&flow)
        #expect(flow.completed(handle: 0x0040, count: 5) == 1)
        #expect(flow.freeCredits == 4)
        #expect(flow.excessCompletions == 4)
        #expect(flow.completed(handle: 0x0099, count: 2) == 0)
        #expect(flow.unknownHandleCompletions == 2)
        #expect(flow.freeCredits == 4)
    }

    @Test("a link that ends gives back its outstanding credits and hands back its queued PDUs, oldest first")
    func closeReturnsCreditsAndTickets() throws {
        var flow = ACLFlowControl(buffers: ACLBufferSize(length: 27, count: 3, source: .leV1))
        flow.open(handle: 0x0040)
        flow.open(handle: 0x0041)
        let first = try Self.queue(&flow, Self.pdu(60), on: 0x0040)    // 3 fragments
        let second = try Self.queue(&flow, Self.pdu(10), on: 0x0040)
        let other = try Self.queue(&flow, Self.pdu(10), on: 0x0041)
        let sent = Self.drain(&flow)                                           // 0x40, 0x41, 0x40
        #expect(sent.map(\.packet.handle) == [0x0040, 0x0041, 0x0040])
        #expect(sent[1].completedTicket == other)
        let closed = try #require(Self.close(&flow, 0x0040))
        #expect(closed.returnedCredits == 2)
        #expect(closed.droppedTickets == [first, second])
        #expect(flow.freeCredits == 2)
        let refused = flow.enqueue(Self.pdu(10), on: 0x0040)
        #expect(refused == nil, "no link, no queue")
        #expect(Self.close(&flow, 0x0040) == nil)
        #expect(flow.completed(handle: 0x0041, count: 1) == 1)
        #expect(flow.freeCredits == 3)
    }

    @Test("a link's queue is bounded; enqueue refuses past it")
    func queueBounded() throws {
        var flow = ACLFlowControl(buffers: ACLBufferSize(length: 27, count: 1, source: .leV1), maximumQueuedPDUsPerLink: 3)
        flow.open(handle: 0x0040)
        for _ in 0..<3 { _ = try Self.queue(&flow, Self.pdu(1), on: 0x0040) }
        #expect(!flow.hasRoom(on: 0x0040))
        let refused = flow.enqueue(Self.pdu(1), on: 0x0040)
        #expect(refused == nil)
        _ = flow.next()
        #expect(flow.hasRoom(on: 0x0040))
    }

    @Test("many PDUs through one credit keep their order and their memory bounded")
    func longRunKeepsOrder() throws {
        var flow = ACLFlowControl(buffers: ACLBufferSize(length: 27, count: 1, source: .leV1), maximumQueuedPDUsPerLink: 8)
        flow.open(handle: 0x0040)
        var received: [UInt8] = []
        var octet: UInt8 = 0
        for _ in 0..<2000 {
            while flow.hasRoom(on: 0x0040) {
                _ = flow.enqueue(Self.pdu(1, octet), on: 0x0040)
                octet &+= 1
            }
            let sent = try #require(Self.next(&flow))
            received.append(sent.packet.data.last!)
            flow.completed(handle: 0x0040, count: 1)
        }
        #expect(received == (0..<2000).map { UInt8(truncatingIfNeeded: $0) })
    }
}
