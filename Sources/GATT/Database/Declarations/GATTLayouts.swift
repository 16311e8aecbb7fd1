import BLECore

/// Field layouts the declaration and descriptor values share, declared once.
enum GATTLayouts {
    /// Reads a UUID that fills the rest of a value: 2 octets (16-bit) or 16 octets (128-bit),
    /// least significant octet first, as in the service and characteristic declarations
    /// (Core v5.4, Vol 3, Part G, 3.1 and 3.3.1).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for fewer than 2
    ///   octets; ``BLEDecodingError/invalidValue(field:offset:reason:)`` for any length other
    ///   than 2 or 16.
    static func readUUID(_ r: inout ByteReader, field: String) throws(BLEDecodingError) -> BluetoothUUID {
        switch r.remainingCount {
        case 2: return BluetoothUUID(try r.readUInt16(field))
        case 16: return try BluetoothUUID(from: &r, width: .bits128, field: field)
        case let n where n < 2: throw .truncated(field: field, offset: r.offset, needed: 2, available: n)
        case let n:
            throw .invalidValue(field: field, offset: r.offset,
                                reason: "\(n) octets; a 16-bit (2-octet) or 128-bit (16-octet) UUID is required")
        }
    }

    /// Writes a UUID in 2 octets when it was made 16-bit, else in 16 (a 32-bit UUID in its
    /// 128-bit form: ATT carries no 32-bit UUIDs, Part F, 3.2.1).
    static func writeUUID(_ uuid: BluetoothUUID, to w: inout ByteWriter) {
        if uuid.width == .bits32 { uuid.as128Bit.write(to: &w) } else { uuid.write(to: &w) }
    }

    /// The UUID as GATT stores and sends it: unchanged when 16- or 128-bit, a 32-bit UUID in
    /// 128 bits.
    static func attUUID(_ uuid: BluetoothUUID) -> BluetoothUUID {
        uuid.width == .bits32 ? uuid.as128Bit : uuid
    }

    /// Decodes a whole value with `body`, then requires that nothing is left.
    ///
    /// - Throws: what `body` throws, or ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)``.
    static func decodeWhole<T>(_ value: some Collection<UInt8>,
                               _ body: (inout ByteReader) throws(BLEDecodingError) -> T) throws(BLEDecodingError) -> T {
        var r = ByteReader(Array(value))
        let result = try body(&r)
        try r.expectEnd()
        return result
    }
}
