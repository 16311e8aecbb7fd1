import BLECore

/// An HCI ACL Data packet (Core v5.4, Vol 4, Part E, 5.4.2).
///
/// Layout, little-endian: Handle (12 bits) | PB_Flag (2 bits) | BC_Flag (2 bits), then
/// Data_Total_Length (2 octets), then that many octets of data. On LE the data are fragments
/// of L2CAP PDUs; `L2CAP`'s reassembler puts them back together.
public struct HCIACLDataPacket: Hashable, Sendable {
    /// The Packet_Boundary_Flag (2 bits).
    public struct PacketBoundary: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The value as carried on the wire.
        public let rawValue: UInt8
        /// The value whose raw value is `rawValue`; every raw value is accepted.
        public init(rawValue: UInt8) { self.rawValue = rawValue & 0b11 }

        /// 0b00: first fragment of a non-automatically-flushable L2CAP PDU (host to controller).
        public static let firstNonFlushable = PacketBoundary(rawValue: 0b00)
        /// 0b01: a continuing fragment.
        public static let continuing = PacketBoundary(rawValue: 0b01)
        /// 0b10: first fragment of an automatically flushable L2CAP PDU (the LE start fragment).
        public static let firstFlushable = PacketBoundary(rawValue: 0b10)
        /// 0b11: a complete L2CAP PDU, automatically flushable (BR/EDR only; not allowed on LE).
        public static let complete = PacketBoundary(rawValue: 0b11)

        /// Whether this fragment starts an L2CAP PDU.
        public var isStart: Bool { self != .continuing }

        /// The value on one line, for logs and capture decoders.
        public var description: String {
            switch rawValue {
            case 0b00: return "first (non-flushable)"
            case 0b01: return "continuing"
            case 0b10: return "first"
            default: return "complete"
            }
        }
    }

    /// The connection handle, 0x0000...0x0EFF (12 bits).
    public var handle: UInt16
    /// The Packet_Boundary_Flag.
    public var packetBoundary: PacketBoundary
    /// The Broadcast_Flag (2 bits); 0b00 (point-to-point) on LE.
    public var broadcast: UInt8
    /// The data, Data_Total_Length octets.
    public var data: [UInt8]

    /// An ACL Data packet. `handle` is masked to 12 bits and `broadcast` to 2.
    public init(handle: UInt16, packetBoundary: PacketBoundary, broadcast: UInt8 = 0, data: [UInt8]) {
        self.handle = handle & 0x0FFF
        self.packetBoundary = packetBoundary
        self.broadcast = broadcast & 0b11
        self.data = data
    }

    /// Decodes an ACL Data packet without its H4 packet indicator.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` when the header
    ///   or the data are short; ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)`` when
    ///   there are more octets than Data_Total_Length.
    public init(decoding bytes: ArraySlice<UInt8>) throws(BLEDecodingError) {
        var r = ByteReader(bytes)
        let header = try r.readUInt16("Handle and flags")
        let length = try r.readUInt16("Data_Total_Length")
        let data = try r.readBytes(Int(length), "Data")
        try r.expectEnd()
        self.init(handle: header & 0x0FFF, packetBoundary: PacketBoundary(rawValue: UInt8(header >> 12 & 0b11)),
                  broadcast: UInt8(header >> 14), data: data)
    }

    /// Decodes an ACL Data packet without its H4 packet indicator.
    public init(decoding bytes: [UInt8]) throws(BLEDecodingError) { try self.init(decoding: bytes[...]) }

    /// The packet without its H4 packet indicator.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: 4 + data.count)
        w.writeUInt16(handle & 0x0FFF | UInt16(packetBoundary.rawValue) << 12 | UInt16(broadcast & 0b11) << 14)
        w.writeUInt16(UInt16(data.count))
        w.writeBytes(data)
        return w.bytes
    }
}
