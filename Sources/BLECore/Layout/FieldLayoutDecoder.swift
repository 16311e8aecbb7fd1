/// The ``FieldLayoutCoder`` that fills fields from octets, over a ``ByteReader``.
///
/// A field that runs past the input throws
/// ``BLEDecodingError/truncated(field:offset:needed:available:)`` with the field's name, the
/// offset of its first octet (counted as the reader counts, from the first octet it was
/// given), the octets it needs and the octets left. The decoder does not check for trailing
/// octets: a caller whose structure must fill its input calls `reader.expectEnd()` after the walk.
public struct FieldLayoutDecoder: FieldLayoutCoder {
    /// Decoding fails with the field and offset.
    public typealias Failure = BLEDecodingError

    /// The reader, positioned after the last field decoded.
    public var reader: ByteReader

    /// A decoder over `bytes`; offsets count from its first octet.
    @inlinable
    public init(_ bytes: ArraySlice<UInt8>) { reader = ByteReader(bytes) }

    /// A decoder that continues where `reader` stands, keeping its offsets.
    @inlinable
    public init(reader: ByteReader) { self.reader = reader }

    /// Reads one octet.
    @inlinable
    public mutating func field(_ value: inout UInt8, _ name: String) throws(BLEDecodingError) {
        value = try reader.readUInt8(name)
    }

    /// Reads two octets, least significant first.
    @inlinable
    public mutating func field(_ value: inout UInt16, _ name: String) throws(BLEDecodingError) {
        value = try reader.readUInt16(name)
    }

    /// Reads four octets, least significant first.
    @inlinable
    public mutating func field(_ value: inout UInt32, _ name: String) throws(BLEDecodingError) {
        value = try reader.readUInt32(name)
    }

    /// Reads eight octets, least significant first.
    @inlinable
    public mutating func field(_ value: inout UInt64, _ name: String) throws(BLEDecodingError) {
        value = try reader.readUInt64(name)
    }

    /// Reads a six-octet address, least significant octet first.
    @inlinable
    public mutating func field(_ value: inout BluetoothAddress, _ name: String) throws(BLEDecodingError) {
        value = try BluetoothAddress(from: &reader, field: name)
    }

    /// Reads exactly `count` octets.
    @inlinable
    public mutating func field(_ value: inout [UInt8], count: Int, _ name: String) throws(BLEDecodingError) {
        value = try reader.readBytes(count, name)
    }

    /// Reads every octet left; never fails.
    @inlinable
    public mutating func remaining(_ value: inout [UInt8], _ name: String) throws(BLEDecodingError) {
        value = reader.readRemaining()
    }

    /// Reads 2-octet values until the input ends; an odd octet at the end throws the
    /// truncation of one more `name`.
    @inlinable
    public mutating func remaining(_ value: inout [UInt16], _ name: String) throws(BLEDecodingError) {
        var values: [UInt16] = []
        values.reserveCapacity(reader.remainingCount / 2)
        while !reader.isAtEnd { values.append(try reader.readUInt16(name)) }
        value = values
    }
}
