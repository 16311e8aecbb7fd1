import BLECore

extension HCIEvent {
    /// Decodes `packet` as a host acts on it: as ``init(packet:)`` does, except that octets after
    /// the event's last parameter are left out instead of refused.
    ///
    /// A controller that appends octets to an event (a firmware fault) still has the event acted
    /// on, as hosts that check only an event's minimum length (the Linux kernel's, for one)
    /// would: a Number Of Completed Packets whose credits were dropped, or a Disconnection
    /// Complete that was ignored, would leave the host waiting for ever. Decoders that show
    /// events to people (captures, `blectl decode`) keep the strict ``init(packet:)``, which
    /// names the fault.
    ///
    /// Shapes: the parameters are those of Core v5.4, Vol 4, Part E, 7.7 (event packet format,
    /// 5.4.4); the octets left out are those after the last field the event's layout reads.
    ///
    /// - Returns: the event, and how many octets after its last parameter were left out (0 for a
    ///   well-formed event).
    /// - Throws: ``BLEDecodingError`` as ``init(packet:)`` does for every other fault (a
    ///   parameter cut short, a value out of range, an element of a list with octets of its own
    ///   left over), with offsets counted from the first octet of the event packet.
    public static func decodingPastTrailingOctets(_ packet: HCIEventPacket) throws(BLEDecodingError)
        -> (event: HCIEvent, trailingOctets: Int) {
        do {
            return (try HCIEvent(packet: packet), 0)
        } catch {
            // Only a run of octets that reaches the end of the parameters lies after the last
            // one; a leftover inside a list element is a fault of that element.
            guard case let .unexpectedTrailingOctets(offset, count) = error,
                  offset >= HCIEventPacket.headerLength,
                  offset - HCIEventPacket.headerLength + count == packet.parameters.count
            else { throw error }
            let kept = HCIEventPacket(code: packet.code, parameters: Array(packet.parameters.prefix(offset - HCIEventPacket.headerLength)))
            return (try HCIEvent(packet: kept), count)
        }
    }
}
