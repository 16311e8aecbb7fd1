import HCI

/// The routing table of an ``HCICommandFlow``: events by code and LE subevent to the routes
/// whose ``HCIEventSelector`` takes them, ACL data by connection handle to the link's route,
/// each route a bounded queue (Core v5.4, Vol 4, Part E, 5.4; ACL data: Vol 4, Part E, 5.4.2).
///
/// - ACL routes open themselves: a successful LE Connection Complete or LE Enhanced Connection
///   Complete (v1 or v2) opens the queue for its handle before the event goes to any route, so
///   the link's first data, which may follow the event at once, waits there for the reader who
///   claims it with ``claimACL(handle:capacity:)``. A Disconnection Complete finishes the
///   handle's queue after the event is routed; the reader takes what it holds, then its stream
///   ends. Queues whose reader has not come yet are kept in connection order per handle, so a
///   late reader of a handle that was reused gets the link it asked about, not the next one.
///   Readers claim a handle's links in the order of their connection events (the connection
///   manager claims each as it handles the event). An ended link let go unread (beyond
///   ``unclaimedEndedLinksKept``) keeps its place in that order: its late reader gets a route
///   that has already ended, never a later link's. The links nobody claimed, and those
///   places, go when no reader will come for them (``letUnclaimedLinksGo()``):
///   HCI_Reset completed, or a connection manager starts.
/// - Everything else no route takes is counted in ``statistics``.
///
/// Lives on the flow's actor; not `Sendable` on its own.
struct HCIRouter {
    private struct EventRoute {
        var selector: HCIEventSelector
        var queue: HCIRouteQueue<HCIEventPacket>
    }

    /// A link's ACL queue and, until a reader claims it, the reader's end.
    private struct ACLLink {
        /// The router's number for the link (handles are reused; links are not).
        var id: UInt64
        var queue: HCIRouteQueue<HCIACLDataPacket>
        var stream: HCIACLRoute?
        var isOpen = true
    }

    /// The queue capacity of a link's ACL route: 256 packets (about 7 KiB of 27-octet fragments,
    /// 64 KiB of 251-octet ones) per link.
    static let defaultACLCapacity = 256
    /// How many ended links' unread queues the router keeps for late readers.
    static let unclaimedEndedLinksKept = 8

    private var eventRoutes: [UInt64: EventRoute] = [:]
    /// Per handle, the links in connection order: at most one open (the last), earlier ones ended
    /// and waiting for their reader.
    private var links: [UInt16: [ACLLink]] = [:]
    /// The handles of ended links whose reader never came, oldest first (one entry a link).
    private var endedUnclaimed: [UInt16] = []
    /// Per handle, how many of its oldest unclaimed links were let go: the next claims of the
    /// handle are theirs, and get a route that has already ended.
    private var letGo: [UInt16: Int] = [:]
    private(set) var statistics = HCIRoutingStatistics()
    private var lastLinkID: UInt64 = 0
    /// Flow control from the controller to the host: the buffers readers take go back.
    let bufferReturn: HCIHostBufferReturn

    init(bufferReturn: HCIHostBufferReturn) { self.bufferReturn = bufferReturn }

    // MARK: Routes

    /// Adds a route for the events `selector` takes; returns its reader's end.
    /// `onTermination` runs when the reader stops reading, so the flow can remove the route.
    mutating func addEventRoute(id: UInt64, _ selector: HCIEventSelector, capacity: Int, label: String,
                                onTermination: @escaping @Sendable () -> Void) -> HCIEventRoute {
        let (queue, reader) = HCIRouteQueue<HCIEventPacket>.make(capacity: capacity, label: label)
        queue.onTermination(onTermination)
        eventRoutes[id] = EventRoute(selector: selector, queue: queue)
        return HCIEventRoute(reader: reader)
    }

    /// Removes route `id` (its reader stopped), keeping its drop count.
    mutating func removeEventRoute(id: UInt64) {
        guard let route = eventRoutes.removeValue(forKey: id) else { return }
        record(route.queue)
    }

    /// The reader's end of the oldest unclaimed link on `handle`: the queue opened by its
    /// connection event, a route that has already ended when that link was let go unread, or a
    /// new one when no connection event was seen (a controller that had the link before this
    /// host, or a test). Nil when every link on `handle` has its reader.
    mutating func claimACL(handle: UInt16, capacity: Int = HCIRouter.defaultACLCapacity) -> HCIACLRoute? {
        if let count = letGo[handle] {
            letGo[handle] = count > 1 ? count - 1 : nil
            return endedRoute(handle)
        }
        if var list = links[handle], let index = list.firstIndex(where: { $0.stream != nil }) {
            let stream = list[index].stream
            list[index].stream = nil
            if !list[index].isOpen {
                list.remove(at: index)
                if let ended = endedUnclaimed.firstIndex(of: handle) { endedUnclaimed.remove(at: ended) }
            }
            links[handle] = list.isEmpty ? nil : list
            return stream
        }
        if links[handle]?.last?.isOpen == true { return nil }
        var (link, route) = makeLink(handle, capacity: capacity)
        link.stream = nil
        links[handle, default: []].append(link)
        return route
    }

    /// A new open link on `handle` and its reader's route.
    private mutating func makeLink(_ handle: UInt16, capacity: Int) -> (ACLLink, HCIACLRoute) {
        lastLinkID &+= 1
        let (queue, reader) = HCIRouteQueue<HCIACLDataPacket>.make(capacity: capacity, label: Self.aclLabel(handle))
        bufferReturn.open(link: lastLinkID, handle: handle)
        let route = HCIACLRoute(reader: reader, link: lastLinkID, bufferReturn: bufferReturn)
        return (ACLLink(id: lastLinkID, queue: queue, stream: route), route)
    }

    /// The route of a link that ended and was let go before its reader came: it has already
    /// ended, with nothing in it (its packets were counted in ``HCIRoutingStatistics/unclaimedACLPackets``).
    private mutating func endedRoute(_ handle: UInt16) -> HCIACLRoute {
        lastLinkID &+= 1
        return HCIACLRoute(reader: .ended(), link: lastLinkID, bufferReturn: bufferReturn)
    }

    private static func aclLabel(_ handle: UInt16) -> String { "ACL 0x" + String(handle, radix: 16, uppercase: true) }

    // MARK: Routing

    /// Routes one packet from the controller.
    /// `onOpen` hears the handle and the router's number of each link a successful connection
    /// event opens, before the event goes to any route.
    mutating func route(_ packet: HCIPacket, onOpen: (_ handle: UInt16, _ link: UInt64) -> Void = { _, _ in }) {
        switch packet {
        case .event(let event): route(event, onOpen: onOpen)
        case .acl(let acl): route(acl)
        case .sco, .iso: statistics.unhandledDataPackets += 1
        case .command: statistics.unhandledDataPackets += 1   // a controller never sends commands
        }
    }

    private mutating func route(_ event: HCIEventPacket, onOpen: (UInt16, UInt64) -> Void) {
        let subevent = event.leSubeventCode
        let opened = openedHandle(event, subevent: subevent)
        if let opened { onOpen(opened, openLink(opened)) }
        var taken = false
        var gone: [UInt64] = []
        for (id, var route) in eventRoutes where route.selector.takes(event.code, subevent: subevent) {
            taken = true
            if route.queue.deliver(event) { eventRoutes[id] = route } else { gone.append(id) }
        }
        for id in gone { removeEventRoute(id: id) }
        if !taken {
            if let subevent { statistics.unroutedLESubevents[subevent, default: 0] += 1 }
            else { statistics.unroutedEvents[event.code, default: 0] += 1 }
        }
        if event.code == .disconnectionComplete,
           case .disconnectionComplete(let complete)? = try? HCIEvent.decodingPastTrailingOctets(event).event, complete.status.isSuccess {
            closeLink(complete.connectionHandle)
        }
    }

    /// The handle a successful connection event opens.
    private func openedHandle(_ event: HCIEventPacket, subevent: LEMetaSubeventCode?) -> UInt16? {
        guard let subevent, subevent == .connectionComplete || subevent == .enhancedConnectionComplete
                || subevent == .enhancedConnectionCompleteV2,
              case .leMeta(let meta)? = try? HCIEvent.decodingPastTrailingOctets(event).event else { return nil }
        switch meta {
        case .connectionComplete(let c): return c.status.isSuccess ? c.connectionHandle : nil
        case .enhancedConnectionComplete(let c): return c.status.isSuccess ? c.connectionHandle : nil
        case .enhancedConnectionCompleteV2(let c): return c.connection.status.isSuccess ? c.connection.connectionHandle : nil
        default: return nil
        }
    }

    /// Opens a link on `handle`; returns its number.
    private mutating func openLink(_ handle: UInt16) -> UInt64 {
        if links[handle]?.last?.isOpen == true { closeLink(handle) }   // a controller that missed a disconnection
        let link = makeLink(handle, capacity: Self.defaultACLCapacity).0
        links[handle, default: []].append(link)
        return link.id
    }

    private mutating func closeLink(_ handle: UInt16) {
        guard var list = links[handle], let index = list.lastIndex(where: { $0.isOpen }) else {
            bufferReturn.disconnected(handle: handle)      // a link let go while open, or never seen
            return
        }
        list[index].queue.finish()
        list[index].isOpen = false
        bufferReturn.close(link: list[index].id)
        record(list[index].queue)
        if list[index].stream == nil {
            list.remove(at: index)          // its reader has it all
        } else {
            endedUnclaimed.append(handle)
        }
        links[handle] = list.isEmpty ? nil : list
        // Let go of the oldest ended links nobody claimed, beyond the few kept.
        while endedUnclaimed.count > Self.unclaimedEndedLinksKept {
            let oldest = endedUnclaimed.removeFirst()
            guard var list = links[oldest], let index = list.firstIndex(where: { !$0.isOpen && $0.stream != nil }) else { continue }
            statistics.unclaimedACLPackets += list[index].queue.delivered
            list.remove(at: index)
            links[oldest] = list.isEmpty ? nil : list
            letGo[oldest, default: 0] += 1
        }
    }

    private mutating func route(_ acl: HCIACLDataPacket) {
        guard var list = links[acl.handle], let index = list.lastIndex(where: { $0.isOpen }) else {
            statistics.unroutedACLPackets[acl.handle, default: 0] += 1
            returnBuffers(bufferReturn.discarded(handle: acl.handle))
            return
        }
        if !list[index].queue.deliver(acl) {
            // The reader stopped reading: later data on this link has nowhere to go, and what
            // its queue held will not be taken.
            list[index].isOpen = false
            returnBuffers(bufferReturn.abandoned(link: list[index].id, delivered: list[index].queue.delivered + 1))
            record(list[index].queue)
            list.remove(at: index)
            statistics.unroutedACLPackets[acl.handle, default: 0] += 1
        }
        links[acl.handle] = list.isEmpty ? nil : list
    }

    /// Sends a due batch of returned buffers (rare: packets no reader takes).
    private func returnBuffers(_ entries: [HCIHostNumberOfCompletedPackets.Entry]?) {
        guard let entries else { return }
        bufferReturn.sendSoon(entries)
    }

    private mutating func record<P>(_ queue: HCIRouteQueue<P>) {
        guard queue.dropped > 0 else { return }
        statistics.overflows[queue.label, default: 0] += queue.dropped
    }

    /// The statistics with the drops of the routes still open.
    var currentStatistics: HCIRoutingStatistics {
        var current = statistics
        for route in eventRoutes.values where route.queue.dropped > 0 {
            current.overflows[route.queue.label, default: 0] += route.queue.dropped
        }
        for list in links.values {
            for link in list where link.isOpen && link.queue.dropped > 0 {
                current.overflows[link.queue.label, default: 0] += link.queue.dropped
            }
        }
        return current
    }

    /// Finishes every route: the transport closed, or the controller lost its state (a
    /// Hardware Error, then HCI_Reset; Core v5.4, Vol 4, Part E, 7.3.2: a reset ends every
    /// connection, scan and advertising set). Each link's route ends as if it had its
    /// Disconnection Complete (none will come, and the buffers its link held are no longer the
    /// host's to return); readers take what their queues hold, then their streams end. Each
    /// event route ends, so what read it before the reset (a scanner, an advertiser, a
    /// connection manager) stops with it; with `discardingEvents` (a reset) its queued events
    /// are dropped first, as they tell of a controller state that is gone, and a reader acting
    /// on one would command the reset controller. Routes added later are not touched.
    /// After a reset, the links nobody claimed are let go too: their connection events were
    /// dropped, so no reader will come for them, and the handles start afresh for the links
    /// after the reset (their packets are counted in ``HCIRoutingStatistics/unclaimedACLPackets``).
    mutating func finishAll(discardingEvents: Bool = false) {
        for id in Array(eventRoutes.keys) {
            if discardingEvents {
                eventRoutes[id]?.queue.discard()
            } else {
                eventRoutes[id]?.queue.finish()
            }
            removeEventRoute(id: id)
        }
        if discardingEvents { controllerWasReset() } else { closeAllLinks() }
    }

    /// HCI_Reset completed: the controller ended every connection, with no Disconnection
    /// Complete (Core v5.4, Vol 4, Part E, 7.3.2). Each link's route ends after what it holds;
    /// the links nobody claimed are let go (their connection events told of the old state, and
    /// the handles start afresh for the links after the reset).
    mutating func controllerWasReset() {
        closeAllLinks()
        letUnclaimedLinksGo()
    }

    private mutating func closeAllLinks() {
        for handle in Array(links.keys) {
            while links[handle]?.contains(where: { $0.isOpen }) == true { closeLink(handle) }
        }
    }

    /// Lets go of every link nobody claimed, and of the places of those let go before, when no
    /// reader will come for them: the controller was reset, or a connection manager starts
    /// (their connection events came before it; ``HCICommandFlow/connectionManagerEvents(_:capacity:label:)``).
    /// Their packets are counted in ``HCIRoutingStatistics/unclaimedACLPackets``. An open link
    /// nobody claimed (one still up at the controller when a manager starts; a reset closes
    /// every link first) ends too: the buffers its queued packets hold go back to the
    /// controller, and its later packets are returned as they come.
    mutating func letUnclaimedLinksGo() {
        for (handle, list) in links {
            for link in list where link.stream != nil {
                if link.isOpen {                // closed links had this done when they ended
                    returnBuffers(bufferReturn.abandoned(link: link.id, delivered: link.queue.delivered))
                    var queue = link.queue
                    queue.finish()
                    record(queue)
                }
                statistics.unclaimedACLPackets += link.queue.delivered
            }
            let claimed = list.filter { $0.stream == nil }
            links[handle] = claimed.isEmpty ? nil : claimed
        }
        endedUnclaimed = []
        letGo = [:]
    }
}
