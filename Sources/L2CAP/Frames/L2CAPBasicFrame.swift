import BLECore

/// An L2CAP basic information frame (B-frame), the PDU of every LE fixed channel
/// (Core v5.4, Vol 3, Part A, 3.1).
///
/// Layout, little-endian: Length (2 octets, the octets of the information payload, not counting
/// this 4-octet basic L2CAP header), Channel ID (2 octets, the destination CID), then the
/// information payload. ATT, the LE signaling channel and SMP all travel in B-frames.
public struct L2CAPBasicFrame: Hashable, Sendable, CustomStringConvertible {
    /// The octets of the basic L2CAP header: Length (2) and Channel ID (2).
    public static let headerLength = 4
    /// The largest information payload the 16-bit Length field can announce: 65535 octets.
    public static let maximumPayloadLength = Int(UInt16.max)

    /// The destination endpoint of the frame.
    public var channelID: L2CAPChannelID
    /// The information payload (for example one ATT PDU), 0...65535 octets.
    public private(set) var payload: [UInt8]

    /// A B-frame for `channelID` carrying `payload`.
    ///
    /// - Precondition: `payload` has at most 65535 octets (what the Length field can say). A
    ///   caller builds payloads within an MTU, so a longer one is a programming error; decoded
    ///   frames can never be longer.
    public init(channelID: L2CAPChannelID, payload: [UInt8]) {
        precondition(payload.count <= Self.maximumPayloadLength,
                     "an L2CAP payload holds at most 65535 octets, not \(payload.count)")
        self.channelID = channelID
        self.payload = payload
    }

    /// Decodes one B-frame that fills `bytes` exactly.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for a header
    ///   shorter than 4 octets ("Length" at 0, "Channel ID" at 2) or an information payload shorter
    ///   than Length ("Information payload" at 4); ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)``
    ///   when octets follow the Length octets of payload.
    public init(decoding bytes: ArraySlice<UInt8>) throws(BLEDecodingError) {
        var r = ByteReader(bytes)
        let length = try r.readUInt16("Length")
        let cid = try r.readUInt16("Channel ID")
        let payload = try r.readBytes(Int(length), "Information payload")
        try r.expectEnd()
        self.channelID = L2CAPChannelID(rawValue: cid)
        self.payload = payload
    }

    /// Decodes one B-frame that fills `bytes` exactly; see ``init(decoding:)-(ArraySlice<UInt8>)``.
    public init(decoding bytes: [UInt8]) throws(BLEDecodingError) { try self.init(decoding: bytes[...]) }

    /// A frame from a header already checked against its payload (the reassembler's path).
    init(checkedChannelID: L2CAPChannelID, payload: [UInt8]) {
        self.channelID = checkedChannelID
        self.payload = payload
    }

    /// The octets on the link: header then payload, 4 + payload.count octets.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: Self.headerLength + payload.count)
        write(to: &w)
        return w.bytes
    }

    /// Appends the header and the payload to `w`.
    public func write(to w: inout ByteWriter) {
        w.writeUInt16(UInt16(truncatingIfNeeded: payload.count))
        w.writeUInt16(channelID.rawValue)
        w.writeBytes(payload)
    }

    /// "L2CAP ATT (0x0004), 7 octets".
    public var description: String {
        "L2CAP \(channelID), \(payload.count) octet\(payload.count == 1 ? "" : "s")"
    }
}
