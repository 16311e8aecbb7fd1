import BLECore

/// An HCI ISO Data packet, for isochronous channels (Core v5.4, Vol 4, Part E, 5.4.5).
///
/// Layout, little-endian: Connection_Handle (12 bits) | PB_Flag (2 bits) | TS_Flag (1 bit) |
/// RFU (1 bit), then ISO_Data_Load_Length (14 bits) | RFU (2 bits), then the ISO_Data_Load. The
/// load is kept whole: when TS_Flag is set it begins with a 4-octet Time_Stamp, and in a first
/// or complete fragment the Packet_Sequence_Number and ISO_SDU_Length header follow.
public struct HCIISODataPacket: Hashable, Sendable {
    /// The octets before the ISO_Data_Load.
    public static let headerLength = 4

    /// The PB_Flag (2 bits) of an ISO Data packet.
    public struct PacketBoundary: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The value as carried on the wire.
        public let rawValue: UInt8
        /// A flag from its two low bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue & 0b11 }

        /// 0b00: the first fragment of a fragmented SDU.
        public static let firstFragment = PacketBoundary(rawValue: 0b00)
        /// 0b01: a continuation fragment.
        public static let continuationFragment = PacketBoundary(rawValue: 0b01)
        /// 0b10: a complete SDU.
        public static let complete = PacketBoundary(rawValue: 0b10)
        /// 0b11: the last fragment of a fragmented SDU.
        public static let lastFragment = PacketBoundary(rawValue: 0b11)

        /// The value on one line, for logs and capture decoders.
        public var description: String {
            switch rawValue {
            case 0b00: return "first fragment"
            case 0b01: return "continuation fragment"
            case 0b10: return "complete"
            default: return "last fragment"
            }
        }
    }

    /// The connection handle of the CIS or BIS, 12 bits.
    public var handle: UInt16
    /// The PB_Flag.
    public var packetBoundary: PacketBoundary
    /// The TS_Flag: whether the ISO_Data_Load starts with a Time_Stamp.
    public var hasTimestamp: Bool
    /// The RFU bit after TS_Flag (bit 15 of the first header field), kept as received.
    public var reservedHandleBit: UInt8
    /// The two RFU bits after ISO_Data_Load_Length, kept as received.
    public var reservedLengthBits: UInt8
    /// The ISO_Data_Load, ISO_Data_Load_Length octets (0...16383).
    public var dataLoad: [UInt8]

    /// An ISO Data packet. `handle` is masked to 12 bits and the reserved fields to their widths.
    public init(handle: UInt16, packetBoundary: PacketBoundary, hasTimestamp: Bool = false,
                reservedHandleBit: UInt8 = 0, reservedLengthBits: UInt8 = 0, dataLoad: [UInt8]) {
        self.handle = handle & 0x0FFF
        self.packetBoundary = packetBoundary
        self.hasTimestamp = hasTimestamp
        self.reservedHandleBit = reservedHandleBit & 0b1
        self.reservedLengthBits = reservedLengthBits & 0b11
        self.dataLoad = dataLoad
    }

    /// Decodes an ISO Data packet without its H4 packet indicator.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` when the header
    ///   or the load are short; ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)``
    ///   when there are more octets than ISO_Data_Load_Length.
    public init(decoding bytes: ArraySlice<UInt8>) throws(BLEDecodingError) {
        var r = ByteReader(bytes)
        let header = try r.readUInt16("Connection_Handle and flags")
        let lengthField = try r.readUInt16("ISO_Data_Load_Length")
        let load = try r.readBytes(Int(lengthField & 0x3FFF), "ISO_Data_Load")
        try r.expectEnd()
        self.init(handle: header, packetBoundary: PacketBoundary(rawValue: UInt8(header >> 12 & 0b11)),
                  hasTimestamp: header & 0x4000 != 0, reservedHandleBit: UInt8(header >> 15),
                  reservedLengthBits: UInt8(lengthField >> 14), dataLoad: load)
    }

    /// Decodes an ISO Data packet without its H4 packet indicator.
    ///
    /// - Throws: as the slice overload does.
    public init(decoding bytes: [UInt8]) throws(BLEDecodingError) { try self.init(decoding: bytes[...]) }

    /// The packet without its H4 packet indicator. ISO_Data_Load_Length is the low 14 bits of
    /// the load's count.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: Self.headerLength + dataLoad.count)
        w.writeUInt16(handle & 0x0FFF | UInt16(packetBoundary.rawValue) << 12
            | (hasTimestamp ? 0x4000 : 0) | UInt16(reservedHandleBit & 1) << 15)
        w.writeUInt16(UInt16(truncatingIfNeeded: dataLoad.count) & 0x3FFF | UInt16(reservedLengthBits & 0b11) << 14)
        w.writeBytes(dataLoad)
        return w.bytes
    }
}
