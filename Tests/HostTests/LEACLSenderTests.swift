import BLECore
import HCI
@testable import Host
import L2CAP
import Synchronization
import Testing

/// The links' outgoing PDUs (``LEACLSender``) when links drop and handles are given again.
@Suite("LEACLSender: sends stay with their link")
struct LEACLSenderTests {
    /// A sender with one ACL credit and room for one queued PDU per link, on a transport that
    /// takes each packet at once.
    static func sender() -> (DirectTestTransport, LEACLSender) {
        let transport = DirectTestTransport()
        let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(60))
        let control = ACLFlowControl(buffers: ACLBufferSize(length: 27, count: 1, source: .leV1), maximumQueuedPDUsPerLink: 1)
        return (transport, LEACLSender(flow: flow, flowControl: control))
    }

    @Test("a send waiting for room on a link that drops ends with its Reason, never queued on the newer link with its handle")
    func waitingSendStaysWithItsLink() async throws {
        let (transport, sender) = Self.sender()
        sender.open(0x0040, reason: OneShot())
        try await sender.send(channel: .att, payload: [0x52, 0x03, 0x00, 0x01], on: 0x0040)    // the one credit
        let queued = Task { try await sender.send(channel: .att, payload: [0x52, 0x03, 0x00, 0x02], on: 0x0040) }
        await eventually("the second PDU queued") { sender.heldTickets == 1 }
        let waiting = Task { try await sender.send(channel: .att, payload: [0x52, 0x03, 0x00, 0x03], on: 0x0040) }
        await eventually("the third waiting for room") { sender.waitingForRoom == 1 }
        // The link drops and the handle serves a new link before the waiting sender runs again.
        sender.drop(0x0040, reason: .remoteUserTerminatedConnection)
        sender.open(0x0040, reason: OneShot())
        let gone = LEConnectionError.disconnected(reason: .remoteUserTerminatedConnection)
        await #expect(throws: gone) { try await queued.value }
        await #expect(throws: gone) { try await waiting.value }
        #expect(sender.heldTickets == 0 && sender.waitingForRoom == 0)
        // The dropped link's credit came back (Vol 4, Part E, 4.3); only the newer link's own PDU
        // goes out with it.
        try await sender.send(channel: .att, payload: [0x52, 0x03, 0x00, 0x04], on: 0x0040)
        let sent = transport.sent.compactMap { packet -> [UInt8]? in
            guard case .acl(let acl) = packet else { return nil }
            return Array(acl.data.suffix(4))
        }
        #expect(sent == [[0x52, 0x03, 0x00, 0x01], [0x52, 0x03, 0x00, 0x04]])
    }

    @Test("a Disconnection Complete read before the manager opened its link ends that link: its first send fails, nothing goes out")
    func disconnectionBeforeOpeningEndsTheLink() async throws {
        let (transport, sender) = Self.sender()
        // The reading thread passes the link's connection event, then its Disconnection
        // Complete, before the manager's actor takes the link in.
        sender.announce(0x0040, link: 7)
        sender.disconnected(0x0040, reason: .connectionFailedToBeEstablished)
        let reason = OneShot<HCIStatus>()
        sender.open(0x0040, link: 7, reason: reason)
        #expect(reason.value == .connectionFailedToBeEstablished)
        await #expect(throws: LEConnectionError.disconnected(reason: .connectionFailedToBeEstablished)) {
            try await sender.send(channel: .att, payload: [0x02, 0x17, 0x02], on: 0x0040)    // Exchange MTU Request
        }
        #expect(transport.sent.isEmpty, "nothing reached the controller, which may have given 0x0040 to another link")
    }

    @Test("the manager's drop of the open link does not touch a newer link announced on its handle")
    func dropOfOpenLinkLeavesTheAnnouncedOne() async throws {
        let (transport, sender) = Self.sender()
        sender.announce(0x0040, link: 1)
        sender.open(0x0040, link: 1, reason: OneShot())                             // link A
        sender.disconnected(0x0040, reason: .remoteUserTerminatedConnection)        // A's end, on the reading thread
        sender.announce(0x0040, link: 2)                                             // link B's connection event
        sender.drop(0x0040, reason: .remoteUserTerminatedConnection)                 // the manager takes A's end in
        sender.open(0x0040, link: 2, reason: OneShot())                              // and then B
        try await sender.send(channel: .att, payload: [0x02, 0x17, 0x02], on: 0x0040)
        #expect(transport.sent.count == 1, "B sends")
    }

    @Test("an announcement that comes after its link opened, or one whose link never opens, never ends a later link")
    func lateOrOrphanAnnouncementsAreHarmless() async throws {
        let (transport, sender) = Self.sender()
        sender.open(0x0040, link: 1, reason: OneShot())          // the manager first
        sender.announce(0x0040, link: 1)                          // then the reading thread: ignored
        sender.disconnected(0x0040, reason: .remoteUserTerminatedConnection)
        await #expect(throws: LEConnectionError.disconnected(reason: .remoteUserTerminatedConnection)) {
            try await sender.send(channel: .att, payload: [0x02, 0x17, 0x02], on: 0x0040)
        }
        sender.announce(0x0040, link: 2)                          // a link the manager never opens
        sender.announce(0x0040, link: 3)
        sender.open(0x0040, link: 3, reason: OneShot())           // the next one it opens is live
        try await sender.send(channel: .att, payload: [0x02, 0x17, 0x02], on: 0x0040)
        #expect(transport.sent.count == 1)
        sender.disconnected(0x0040, reason: .remoteUserTerminatedConnection)   // and its end ends it
        await #expect(throws: LEConnectionError.disconnected(reason: .remoteUserTerminatedConnection)) {
            try await sender.send(channel: .att, payload: [0x02, 0x17, 0x02], on: 0x0040)
        }
    }

    @Test("links whose routes the router let go unread open in the order of their announcements, each with its own end")
    func letGoLinksOpenInOrder() async throws {
        let (transport, sender) = Self.sender()
        // Three links on 0x0040 announced; the first two ended before the manager opened them.
        sender.announce(0x0040, link: 1)
        sender.disconnected(0x0040, reason: .remoteUserTerminatedConnection)
        sender.announce(0x0040, link: 2)
        sender.disconnected(0x0040, reason: .connectionTimeout)
        sender.announce(0x0040, link: 3)
        // The first two routes come back with numbers of their own (the router let them go).
        let first = OneShot<HCIStatus>(), second = OneShot<HCIStatus>()
        sender.open(0x0040, link: 101, reason: first)
        #expect(first.value == .remoteUserTerminatedConnection)
        sender.open(0x0040, link: 102, reason: second)
        #expect(second.value == .connectionTimeout)
        sender.open(0x0040, link: 3, reason: OneShot())
        try await sender.send(channel: .att, payload: [0x02, 0x17, 0x02], on: 0x0040)
        #expect(transport.sent.count == 1, "the third is live")
    }

    @Test("a send that drains the queue itself returns once its own PDU has left, while another link keeps the controller busy")
    func drainingSendReturnsWhenItsPDUHasLeft() async throws {
        let (transport, sender) = Self.sender()
        sender.open(0x0040, reason: OneShot())
        sender.open(0x0041, reason: OneShot())
        // Each packet taken: link 0x0041 queues another PDU, and the controller's completion of
        // the packet gives the one credit back at once (a transport slower than the air).
        let stop = Mutex(false)
        transport.onACL { packet in
            if !stop.withLock({ $0 }), transport.sent.count < 10_000 {
                _ = sender.trySend(channel: .leSignaling, payload: [0x7F, 0x01, 0x00, 0x00], on: 0x0041)
            }
            sender.completed([.init(connectionHandle: packet.handle, numCompletedPackets: 1)])
        }
        try await sender.send(channel: .att, payload: [0x52, 0x03, 0x00, 0x01], on: 0x0040)
        stop.withLock { $0 = true }
        #expect(transport.sent.count < 10_000, "the call returned before 0x0041 ran out of PDUs")
        await eventually("the rest of 0x0041's queue drained in a task of its own") { sender.heldTickets == 0 }
    }

    @Test("a link dropped twice (from the reading thread, then by the manager) and forgotten refuses sends; a new link on the handle takes them")
    func dropTwiceThenForget() async throws {
        let (transport, sender) = Self.sender()
        sender.open(0x0040, reason: OneShot())
        sender.drop(0x0040, reason: .connectionTimeout)
        sender.drop(0x0040, reason: .connectionTimeout)
        await #expect(throws: LEConnectionError.disconnected(reason: .connectionTimeout)) {
            try await sender.send(channel: .att, payload: [0x52, 0x03, 0x00, 0x01], on: 0x0040)
        }
        sender.forget(0x0040)
        await #expect(throws: LEConnectionError.disconnected(reason: .unknownConnectionIdentifier)) {
            try await sender.send(channel: .att, payload: [0x52, 0x03, 0x00, 0x01], on: 0x0040)
        }
        sender.open(0x0040, reason: OneShot())
        try await sender.send(channel: .att, payload: [0x52, 0x03, 0x00, 0x02], on: 0x0040)
        #expect(transport.sent.count == 1)
    }
}
