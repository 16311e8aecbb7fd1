/// One connection's prepare queue (Core v5.4, Vol 3, Part F, 3.4.6): the parts queued by
/// ATT_PREPARE_WRITE_REQ, first in first out, until ATT_EXECUTE_WRITE_REQ writes or discards them.
///
/// It is bounded by a ``GATTPrepareQueueLimit``: a part that would pass the limit is refused
/// (Prepare Queue Full, 0x09) and the queue is unchanged. Parts queued before the database was
/// replaced are marked stale: executing them fails with Database Out Of Sync (0x12, 3.4.6.3).
struct GATTPrepareQueue: Sendable {
    /// One queued part.
    struct Entry: Sendable, Hashable {
        /// Attribute Handle.
        var handle: UInt16
        /// Value Offset, in octets.
        var offset: Int
        /// Part Attribute Value.
        var value: [UInt8]
        /// Whether it was queued against a database since replaced.
        var isStale = false
    }

    /// The bound.
    let limit: GATTPrepareQueueLimit
    /// The parts, in the order received.
    private(set) var entries: [Entry] = []
    /// The value octets queued, over all entries.
    private(set) var octets = 0

    init(limit: GATTPrepareQueueLimit) { self.limit = limit }

    /// Queues a part.
    ///
    /// - Returns: false, queuing nothing, when the part would pass the limit.
    mutating func append(handle: UInt16, offset: Int, value: [UInt8]) -> Bool {
        guard entries.count < limit.maximumEntries, value.count <= limit.maximumOctets &- octets else { return false }
        entries.append(Entry(handle: handle, offset: offset, value: value))
        octets &+= value.count
        return true
    }

    /// Empties the queue.
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: false)
        octets = 0
    }

    /// Marks every queued part stale (the database was replaced).
    mutating func markStale() {
        for i in entries.indices { entries[i].isStale = true }
    }

    /// Whether nothing is queued.
    var isEmpty: Bool { entries.isEmpty }
}
