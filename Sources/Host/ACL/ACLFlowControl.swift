import HCI
import L2CAP

/// Host-to-controller ACL flow control for LE links (Core v5.4, Vol 4, Part E, 4.1.1 and
/// 7.7.19), as a value: credits from the controller's buffers, one queue of L2CAP PDUs per link,
/// packets handed out round robin across links, credits given back by Number Of Completed Packets.
///
/// - The host may have at most ``totalCredits`` ACL data packets in the controller at once
///   (Total_Num_LE_ACL_Data_Packets). ``next()`` takes one credit per packet; ``completed(handle:count:)``
///   gives back what a Number Of Completed Packets entry reports, never more than the link has
///   outstanding (the excess is counted in ``excessCompletions``).
/// - Each PDU is cut to the controller's ACL data length (``ACLFragmenter``); a link's fragments
///   leave in order; links with data take turns packet by packet, so a bulk transfer on one link
///   cannot starve the others.
/// - A link that ends (``close(handle:)``) gives back its outstanding credits, as the controller
///   flushes its packets without reporting them (4.3), and hands back the PDUs still queued, so
///   the caller can end each of them once.
/// - Memory is bounded: each link queues at most ``maximumQueuedPDUsPerLink`` PDUs; ``enqueue(_:on:)``
///   refuses more, and the caller waits for room (``hasRoom(on:)``).
///
/// No I/O and no clock: the connection layer feeds it and sends what ``next()`` returns.
public struct ACLFlowControl: Sendable {
    /// A PDU given to ``enqueue(_:on:)``, to tell when it has left (``Transmission/completedTicket``)
    /// or was dropped with its link (``ClosedLink/droppedTickets``).
    public struct Ticket: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// Unique within one flow control, increasing.
        public let id: UInt64
        /// Orders by ``id``: the order of ``enqueue(_:on:)``.
        public static func < (lhs: Ticket, rhs: Ticket) -> Bool { lhs.id < rhs.id }
        /// "PDU #3".
        public var description: String { "PDU #\(id)" }
    }

    /// One packet to send now, with the ticket of the PDU whose last fragment it is.
    public struct Transmission: Hashable, Sendable {
        /// The ACL data packet, at most the controller's data length.
        public var packet: HCIACLDataPacket
        /// The PDU this packet ends, or nil when more of its fragments follow.
        public var completedTicket: Ticket?
    }

    /// What ``close(handle:)`` took back.
    public struct ClosedLink: Hashable, Sendable {
        /// Credits the link had outstanding, now free again.
        public var returnedCredits: Int
        /// The PDUs that had not fully left, oldest first.
        public var droppedTickets: [Ticket]
    }

    private struct QueuedPDU: Sendable {
        var ticket: Ticket
        var fragments: [HCIACLDataPacket]
        var next = 0
    }

    private struct Link: Sendable {
        var queue: [QueuedPDU] = []
        var head = 0
        var outstanding = 0
        var queuedCount: Int { queue.count - head }
    }

    /// The controller's buffers: every credit there is (Total_Num_LE_ACL_Data_Packets).
    public let totalCredits: Int
    /// How many PDUs a link may have queued.
    public let maximumQueuedPDUsPerLink: Int
    /// Credits free now: packets the host may hand the controller before a completion.
    public private(set) var freeCredits: Int
    /// Completions the controller reported beyond a link's outstanding packets (a controller
    /// bug, or packets of a link that already ended), ignored.
    public private(set) var excessCompletions = 0
    /// Completions for handles with no open link, ignored.
    public private(set) var unknownHandleCompletions = 0

    private let fragmenter: ACLFragmenter
    private var links: [UInt16: Link] = [:]
    /// Handles with queued packets, in turn order; ``cursor`` is the next to send.
    private var rotation: [UInt16] = []
    private var cursor = 0
    private var nextTicket: UInt64 = 0

    /// Flow control over `buffers`.
    ///
    /// - Parameter maximumQueuedPDUsPerLink: the PDUs one link may queue (at least 1; 64 by default).
    public init(buffers: ACLBufferSize, maximumQueuedPDUsPerLink: Int = 64) {
        totalCredits = max(1, buffers.count)
        freeCredits = totalCredits
        self.maximumQueuedPDUsPerLink = max(1, maximumQueuedPDUsPerLink)
        fragmenter = ACLFragmenter(maximumDataLength: min(max(1, buffers.length), Int(UInt16.max)))!
    }

    /// The most data octets one ACL packet carries.
    public var maximumDataLength: Int { fragmenter.maximumDataLength }

    // MARK: Links

    /// Starts accounting for the link on `handle` (a connection completed). Opening an open
    /// link does nothing.
    public mutating func open(handle: UInt16) {
        if links[handle] == nil { links[handle] = Link() }
    }

    /// Whether a link is open on `handle`.
    public func isOpen(_ handle: UInt16) -> Bool { links[handle] != nil }

    /// Packets of `handle` in the controller, not yet completed.
    public func outstanding(on handle: UInt16) -> Int { links[handle]?.outstanding ?? 0 }

    /// PDUs of `handle` queued, not yet fully handed out.
    public func queuedPDUs(on handle: UInt16) -> Int { links[handle]?.queuedCount ?? 0 }

    /// Whether `handle` may queue another PDU.
    public func hasRoom(on handle: UInt16) -> Bool {
        guard let link = links[handle] else { return false }
        return link.queuedCount < maximumQueuedPDUsPerLink
    }

    /// Ends the link on `handle` (Disconnection Complete): its outstanding credits come back,
    /// its queued PDUs are dropped and returned. Nil when no link was open there.
    public mutating func close(handle: UInt16) -> ClosedLink? {
        guard let link = links.removeValue(forKey: handle) else { return nil }
        freeCredits = min(totalCredits, freeCredits + link.outstanding)
        if let index = rotation.firstIndex(of: handle) {
            rotation.remove(at: index)
            if index < cursor { cursor -= 1 }
            if cursor >= rotation.count { cursor = 0 }
        }
        return ClosedLink(returnedCredits: link.outstanding, droppedTickets: link.queue[link.head...].map(\.ticket))
    }

    // MARK: Sending

    /// Queues the L2CAP PDU `pdu` (basic header included) on `handle`.
    ///
    /// - Returns: its ticket; nil when no link is open on `handle` or its queue is full.
    public mutating func enqueue(_ pdu: [UInt8], on handle: UInt16) -> Ticket? {
        guard var link = links[handle], link.queuedCount < maximumQueuedPDUsPerLink else { return nil }
        nextTicket &+= 1
        let ticket = Ticket(id: nextTicket)
        if link.queuedCount == 0 { rotation.append(handle) }
        link.queue.append(QueuedPDU(ticket: ticket, fragments: fragmenter.fragment(pdu: pdu, handle: handle)))
        links[handle] = link
        return ticket
    }

    /// Whether a packet waits for a credit (or for its turn) on some link.
    public var hasWaitingPackets: Bool { !rotation.isEmpty }

    /// The next packet to send, taking one credit; nil when no credit is free or nothing waits.
    /// Links take turns, one packet each.
    public mutating func next() -> Transmission? {
        guard freeCredits > 0, !rotation.isEmpty else { return nil }
        if cursor >= rotation.count { cursor = 0 }
        let handle = rotation[cursor]
        var link = links[handle]!
        var pdu = link.queue[link.head]
        let packet = pdu.fragments[pdu.next]
        pdu.next += 1
        var completed: Ticket?
        if pdu.next == pdu.fragments.count {
            completed = pdu.ticket
            link.head += 1
            if link.head > 32, link.head * 2 > link.queue.count {
                link.queue.removeFirst(link.head)
                link.head = 0
            }
        } else {
            link.queue[link.head] = pdu
        }
        link.outstanding += 1
        freeCredits -= 1
        if link.queuedCount == 0 {
            rotation.remove(at: cursor)     // the next handle moves into the cursor's place
        } else {
            cursor += 1
        }
        links[handle] = link
        return Transmission(packet: packet, completedTicket: completed)
    }

    /// Gives back the credits of one Number Of Completed Packets entry (7.7.19).
    ///
    /// - Returns: the credits taken back: at most what `handle` had outstanding.
    @discardableResult
    public mutating func completed(handle: UInt16, count: Int) -> Int {
        guard var link = links[handle] else {
            unknownHandleCompletions += count
            return 0
        }
        let accepted = min(max(0, count), link.outstanding)
        excessCompletions += max(0, count) - accepted
        link.outstanding -= accepted
        links[handle] = link
        freeCredits = min(totalCredits, freeCredits + accepted)
        return accepted
    }

    /// Takes a packet back that could not be sent (the transport refused it): its credit is
    /// free again. Its PDU is lost; the caller ends the link.
    public mutating func unsent(handle: UInt16) {
        guard var link = links[handle], link.outstanding > 0 else { return }
        link.outstanding -= 1
        links[handle] = link
        freeCredits = min(totalCredits, freeCredits + 1)
    }
}
