import HCI

/// What an ``HCICommandFlow``'s router could not deliver, counted since the flow started
/// (Core v5.4, Vol 4, Part E, 5.4: events and ACL data from the controller).
///
/// Every count is bounded by its key space (event codes, subevent codes, 12-bit connection
/// handles), so the statistics never grow without bound.
public struct HCIRoutingStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Events no route took, by event code (LE Meta events are counted by subevent instead).
    public var unroutedEvents: [HCIEventCode: Int] = [:]
    /// LE Meta events no route took, by subevent code.
    public var unroutedLESubevents: [LEMetaSubeventCode: Int] = [:]
    /// ACL data packets for a connection handle with no link, by handle.
    public var unroutedACLPackets: [UInt16: Int] = [:]
    /// Packets dropped because a route's queue was full, by the route's label (the routes that
    /// ended included).
    public var overflows: [String: Int] = [:]
    /// ACL packets held for links whose reader never came, dropped when the router let go of
    /// their queues (it holds a few, for a reader that reacts late to a connection).
    public var unclaimedACLPackets = 0
    /// SCO and ISO data packets, which host mode does not handle.
    public var unhandledDataPackets = 0

    /// The statistics of a flow that has dropped nothing.
    public init() {}

    /// Whether nothing was dropped or left unrouted.
    public var isClean: Bool {
        unroutedEvents.isEmpty && unroutedLESubevents.isEmpty && unroutedACLPackets.isEmpty && overflows.isEmpty
            && unclaimedACLPackets == 0 && unhandledDataPackets == 0
    }

    /// The counts on one line, for diagnostics: "unrouted events 0x13: 2; overflow scanner: 5".
    public var description: String {
        var parts: [String] = []
        for (code, count) in unroutedEvents.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            parts.append("unrouted event \(HCIEventSelector.Element.event(code)): \(count)")
        }
        for (code, count) in unroutedLESubevents.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            parts.append("unrouted event \(HCIEventSelector.Element.leMeta(code)): \(count)")
        }
        for (handle, count) in unroutedACLPackets.sorted(by: { $0.key < $1.key }) {
            parts.append("ACL for unknown handle 0x\(String(handle, radix: 16, uppercase: true)): \(count)")
        }
        for (label, count) in overflows.sorted(by: { $0.key < $1.key }) { parts.append("overflow \(label): \(count)") }
        if unclaimedACLPackets > 0 { parts.append("ACL never read: \(unclaimedACLPackets)") }
        if unhandledDataPackets > 0 { parts.append("SCO/ISO packets: \(unhandledDataPackets)") }
        return parts.isEmpty ? "nothing dropped" : parts.joined(separator: "; ")
    }
}
