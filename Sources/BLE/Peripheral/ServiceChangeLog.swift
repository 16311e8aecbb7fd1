/// The Service Changed ranges (Core v5.4, Vol 3, Part G, 7.1) one link's tree has taken, so
/// that a discovery can tell whether one came while it ran: its results may then mix the
/// database before the change with the one after, and the services it covers may have left
/// the tree (``Peripheral/servicesModified``).
///
/// ```swift
/// var log = ServiceChangeLog()
/// let mark = log.mark                        // before the discovery's requests
/// log.record(0x0010...0x0020)                // a Service Changed, meanwhile
/// log.changes(since: mark, overlap: 0x0001...0x000F)   // false
/// log.changes(since: mark, overlap: 0x0018...0x0030)   // true
/// ```
struct ServiceChangeLog: Sendable {
    /// How many ranges are kept: a discovery that spans more changes than this counts every
    /// handle as changed.
    static let kept = 32

    /// How many changes were recorded: a discovery notes it when it starts.
    private(set) var mark: UInt64 = 0
    private var recent: [(number: UInt64, range: ClosedRange<UInt16>)] = []

    /// Records a change of `range`.
    mutating func record(_ range: ClosedRange<UInt16>) {
        mark &+= 1
        recent.append((mark, range))
        if recent.count > Self.kept { recent.removeFirst() }
    }

    /// Whether a change recorded after `start` overlaps `handles` (true when the changes after
    /// `start` are no longer all kept).
    func changes(since start: UInt64, overlap handles: ClosedRange<UInt16>) -> Bool {
        guard mark > start else { return false }
        guard let oldest = recent.first?.number, oldest <= start &+ 1 else { return true }
        return recent.contains { $0.number > start && $0.range.overlaps(handles) }
    }
}
