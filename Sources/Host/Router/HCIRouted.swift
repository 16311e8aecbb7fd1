/// What a route of an ``HCICommandFlow`` delivers: the packets it takes, in arrival order, and
/// where its bounded queue overflowed, how many packets were dropped there.
///
/// A route's queue holds a fixed number of packets (its capacity). When the reader falls that
/// far behind, newer packets are dropped, counted, and reported by one ``overflow(dropped:)``
/// before the next packet delivered, so a reader always knows that and where it lost data (an
/// ACL reader then discards the PDU it was reassembling). The drops are also counted in
/// ``HCIRoutingStatistics``.
public enum HCIRouted<Packet: Sendable>: Sendable {
    /// The next packet.
    case packet(Packet)
    /// `dropped` packets were lost here because the queue was full.
    case overflow(dropped: Int)

    /// The packet, nil for an overflow report.
    public var packet: Packet? {
        if case .packet(let packet) = self { return packet }
        return nil
    }
}

extension HCIRouted: Equatable where Packet: Equatable {}
