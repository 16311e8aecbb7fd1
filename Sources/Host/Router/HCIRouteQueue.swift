/// The router's end of one route: a bounded ``HCIRouteChannel`` that counts what it drops and
/// reports it to the reader (``HCIRouted/overflow(dropped:)``). Used on the ``HCICommandFlow``
/// actor only.
struct HCIRouteQueue<Packet: Sendable> {
    /// The queue the reader takes from.
    private let channel: HCIRouteChannel<HCIRouted<Packet>>
    /// Packets dropped and not yet reported to the reader.
    private var unreported = 0
    /// Every packet dropped on this route.
    private(set) var dropped = 0
    /// Every packet queued on this route.
    private(set) var delivered = 0
    /// The route's label, for the statistics.
    let label: String

    /// A queue of `capacity` packets (at least 1) and its reader's end.
    static func make(capacity: Int, label: String) -> (queue: HCIRouteQueue, reader: HCIRouteReader<HCIRouted<Packet>>) {
        // The overflow report takes a place like a packet: it goes in as soon as the reader has
        // made room, ahead of the packet that follows.
        let channel = HCIRouteChannel<HCIRouted<Packet>>(capacity: capacity)
        return (HCIRouteQueue(channel: channel, label: label), HCIRouteReader(channel))
    }

    private init(channel: HCIRouteChannel<HCIRouted<Packet>>, label: String) {
        self.channel = channel
        self.label = label
    }

    /// Queues `packet`, after the report of earlier drops. Returns false when the reader has
    /// gone, so the route can be removed.
    mutating func deliver(_ packet: Packet) -> Bool {
        if unreported > 0 {
            switch channel.yield(.overflow(dropped: unreported)) {
            case .enqueued: unreported = 0
            case .dropped:
                drop()
                return true
            case .terminated: return false
            }
        }
        switch channel.yield(.packet(packet)) {
        case .enqueued:
            delivered += 1
            return true
        case .dropped:
            drop()
            return true
        case .terminated: return false
        }
    }

    private mutating func drop() {
        unreported += 1
        dropped += 1
    }

    /// Ends the route after what it holds (and the report of the last drops, when there is room).
    mutating func finish() {
        if unreported > 0, channel.yield(.overflow(dropped: unreported)) == .enqueued { unreported = 0 }
        channel.finish()
    }

    /// Ends the route at once: what it holds is dropped, and its reader gets nil next.
    func discard() {
        channel.terminate()
    }

    /// Calls `action` when the reader stops reading.
    func onTermination(_ action: @escaping @Sendable () -> Void) {
        channel.onTermination(action)
    }
}
