/// The router's end of one route: a bounded queue into an `AsyncStream` that counts what it
/// drops and reports it in the stream (``HCIRouted/overflow(dropped:)``). Used on the
/// ``HCICommandFlow`` actor only.
struct HCIRouteQueue<Packet: Sendable> {
    /// The stream's end.
    private let continuation: AsyncStream<HCIRouted<Packet>>.Continuation
    /// Packets dropped and not yet reported in the stream.
    private var unreported = 0
    /// Every packet dropped on this route.
    private(set) var dropped = 0
    /// Every packet queued on this route.
    private(set) var delivered = 0
    /// The route's label, for the statistics.
    let label: String

    /// A queue of `capacity` packets (at least 1) and its reader's stream.
    static func make(capacity: Int, label: String) -> (queue: HCIRouteQueue, stream: AsyncStream<HCIRouted<Packet>>) {
        // The overflow report takes a place like a packet: it goes in as soon as the reader has
        // made room, ahead of the packet that follows.
        let (stream, continuation) = AsyncStream.makeStream(of: HCIRouted<Packet>.self,
                                                            bufferingPolicy: .bufferingOldest(max(1, capacity)))
        return (HCIRouteQueue(continuation: continuation, label: label), stream)
    }

    private init(continuation: AsyncStream<HCIRouted<Packet>>.Continuation, label: String) {
        self.continuation = continuation
        self.label = label
    }

    /// Queues `packet`, after the report of earlier drops. Returns false when the reader has
    /// gone (its stream was cancelled), so the route can be removed.
    mutating func deliver(_ packet: Packet) -> Bool {
        if unreported > 0 {
            switch continuation.yield(.overflow(dropped: unreported)) {
            case .enqueued: unreported = 0
            case .dropped:
                drop()
                return true
            case .terminated: return false
            @unknown default: return false
            }
        }
        switch continuation.yield(.packet(packet)) {
        case .enqueued:
            delivered += 1
            return true
        case .dropped:
            drop()
            return true
        case .terminated: return false
        @unknown default: return false
        }
    }

    private mutating func drop() {
        unreported += 1
        dropped += 1
    }

    /// Ends the stream after what it holds (and the report of the last drops, when there is room).
    mutating func finish() {
        if unreported > 0, case .enqueued = continuation.yield(.overflow(dropped: unreported)) { unreported = 0 }
        continuation.finish()
    }

    /// Calls `action` when the reader stops reading.
    func onTermination(_ action: @escaping @Sendable () -> Void) {
        continuation.onTermination = { _ in action() }
    }
}
