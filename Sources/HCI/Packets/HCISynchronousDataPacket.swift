import BLECore

/// An HCI Synchronous Data packet, for SCO and eSCO links (Core v5.4, Vol 4, Part E, 5.4.3).
///
/// Layout, little-endian: Connection_Handle (12 bits) | Packet_Status_Flag (2 bits) | RFU
/// (2 bits), then Data_Total_Length (1 octet), then that many octets of data. LE has no
/// synchronous links; this type lets captures and H4 streams carry them without loss.
public struct HCISynchronousDataPacket: Hashable, Sendable {
    /// The octets before the data.
    public static let headerLength = 3

    /// The connection handle, 0x0000...0x0EFF (12 bits).
    public var handle: UInt16
    /// The Packet_Status_Flag (2 bits): 0b00 correctly received, 0b01 possibly invalid,
    /// 0b10 no data received, 0b11 data partially lost.
    public var packetStatus: UInt8
    /// The two RFU bits after Packet_Status_Flag, kept as received.
    public var reservedBits: UInt8
    /// The data, Data_Total_Length octets (0...255).
    public var data: [UInt8]

    /// A synchronous data packet. `handle` is masked to 12 bits, `packetStatus` and
    /// `reservedBits` to 2.
    public init(handle: UInt16, packetStatus: UInt8 = 0, reservedBits: UInt8 = 0, data: [UInt8]) {
        self.handle = handle & 0x0FFF
        self.packetStatus = packetStatus & 0b11
        self.reservedBits = reservedBits & 0b11
        self.data = data
    }

    /// Decodes a synchronous data packet without its H4 packet indicator.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` when the header
    ///   or the data are short; ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)``
    ///   when there are more octets than Data_Total_Length.
    public init(decoding bytes: ArraySlice<UInt8>) throws(BLEDecodingError) {
        var r = ByteReader(bytes)
        let header = try r.readUInt16("Connection_Handle and flags")
        let length = try r.readUInt8("Data_Total_Length")
        let data = try r.readBytes(Int(length), "Data")
        try r.expectEnd()
        self.init(handle: header, packetStatus: UInt8(header >> 12 & 0b11), reservedBits: UInt8(header >> 14), data: data)
    }

    /// Decodes an synchronous data packet without its H4 packet indicator.
    ///
    /// - Throws: as the slice overload does.
    public init(decoding bytes: [UInt8]) throws(BLEDecodingError) { try self.init(decoding: bytes[...]) }

    /// The packet without its H4 packet indicator.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: Self.headerLength + data.count)
        w.writeUInt16(handle & 0x0FFF | UInt16(packetStatus & 0b11) << 12 | UInt16(reservedBits & 0b11) << 14)
        w.writeUInt8(UInt8(truncatingIfNeeded: data.count))
        w.writeBytes(data)
        return w.bytes
    }
}
