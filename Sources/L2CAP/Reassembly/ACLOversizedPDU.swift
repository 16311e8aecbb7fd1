import BLECore

/// The start of an L2CAP PDU that the ``ACLReassembler`` dropped because its Length exceeded the
/// configured limit (``ACLReassemblyDiagnostic/pduTooLong(handle:length:limit:)``): enough of it
/// for a host to answer what it will never read whole.
///
/// On the LE signaling channel an oversized command must still get Command Reject with reason
/// Signaling MTU exceeded, which echoes the command's Identifier, the second octet of the
/// information payload (Core v5.4, Vol 3, Part A, 4.1).
public struct ACLOversizedPDU: Hashable, Sendable, CustomStringConvertible {
    /// How many leading octets of the information payload are kept: 8, room for a signaling
    /// header (4) or an ATT opcode and handle (3).
    public static let keptPayloadOctets = 8

    /// The Connection_Handle the PDU came on (12 bits).
    public var handle: UInt16
    /// The PDU's destination channel, from its basic L2CAP header.
    public var channelID: L2CAPChannelID
    /// The information payload length its header announced, in octets.
    public var length: Int
    /// The first octets of its information payload that had arrived when it was dropped, at most
    /// ``keptPayloadOctets``; fewer (even none) when the fragment that completed the header
    /// carried fewer.
    public var leadingPayload: [UInt8]

    /// The dropped start of a PDU on `handle` for `channelID` announcing `length` octets, with
    /// the first octets of its payload (at most ``keptPayloadOctets`` are kept).
    public init(handle: UInt16, channelID: L2CAPChannelID, length: Int, leadingPayload: [UInt8]) {
        self.handle = handle
        self.channelID = channelID
        self.length = length
        self.leadingPayload = Array(leadingPayload.prefix(Self.keptPayloadOctets))
    }

    /// "handle 0x0040: LE signaling (0x0005), Length 600, starts 12 09".
    public var description: String {
        "handle \(Hex.hex16(handle)): \(channelID), Length \(length)"
            + (leadingPayload.isEmpty ? "" : ", starts " + Hex.encode(leadingPayload, separator: " "))
    }
}
