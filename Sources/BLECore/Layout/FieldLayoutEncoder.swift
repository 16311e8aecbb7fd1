/// The ``FieldLayoutCoder`` that appends fields to a ``ByteWriter``. It never fails.
///
/// It writes what the fields hold: a fixed-size octet field is written from its value as it
/// is (the layout's `count` only guides decoders), so types that must encode to a fixed
/// length keep that length in their own invariants.
public struct FieldLayoutEncoder: FieldLayoutCoder {
    /// Encoding never fails.
    public typealias Failure = Never

    /// The octets written so far.
    public var writer: ByteWriter

    /// An encoder with an empty buffer that holds `capacity` octets before it reallocates.
    @inlinable
    public init(capacity: Int = 32) { writer = ByteWriter(capacity: capacity) }

    /// An encoder that appends to what `writer` holds. To append without copying the
    /// buffer, move it in and back: `var e = FieldLayoutEncoder(writer: w); w = ByteWriter(capacity: 0)`,
    /// walk, then `w = e.writer`.
    @inlinable
    public init(writer: ByteWriter) { self.writer = writer }

    /// The octets written so far.
    @inlinable
    public var bytes: [UInt8] { writer.bytes }

    /// Writes one octet.
    @inlinable
    public mutating func field(_ value: inout UInt8, _ name: String) { writer.writeUInt8(value) }

    /// Writes two octets, least significant first.
    @inlinable
    public mutating func field(_ value: inout UInt16, _ name: String) { writer.writeUInt16(value) }

    /// Writes four octets, least significant first.
    @inlinable
    public mutating func field(_ value: inout UInt32, _ name: String) { writer.writeUInt32(value) }

    /// Writes eight octets, least significant first.
    @inlinable
    public mutating func field(_ value: inout UInt64, _ name: String) { writer.writeUInt64(value) }

    /// Writes the six octets of the address, least significant first.
    @inlinable
    public mutating func field(_ value: inout BluetoothAddress, _ name: String) { value.write(to: &writer) }

    /// Writes every octet of `value`.
    @inlinable
    public mutating func field(_ value: inout [UInt8], count: Int, _ name: String) { writer.writeBytes(value) }

    /// Writes every octet of `value`.
    @inlinable
    public mutating func remaining(_ value: inout [UInt8], _ name: String) { writer.writeBytes(value) }

    /// Writes every value, each as two octets, least significant first.
    @inlinable
    public mutating func remaining(_ value: inout [UInt16], _ name: String) {
        for element in value { writer.writeUInt16(element) }
    }
}
