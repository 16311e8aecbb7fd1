import BLECore

/// The ``HCIParameterCoder`` that writes fields as octets, into a ``ByteWriter``. It never fails.
///
/// It writes what the fields hold: a count or length field is written from the array or octets
/// beside it by the layout, and nothing is truncated or padded beyond what the layout declares.
public struct HCIParameterEncoder: HCIParameterCoder {
    /// Encoding never fails.
    public typealias Failure = Never

    /// The octets written so far.
    public var writer: ByteWriter

    /// An encoder that appends to `writer`.
    @inlinable
    public init(writer: ByteWriter = ByteWriter()) { self.writer = writer }

    /// Always false.
    @inlinable public var isDecoding: Bool { false }
    @inlinable public var offset: Int { writer.count }

    /// Writes one octet.
    @inlinable
    public mutating func code(_ value: inout UInt8, _ field: String, format: HCIFieldFormat) {
        writer.writeUInt8(value)
    }

    /// Writes two octets, least significant first.
    @inlinable
    public mutating func code(_ value: inout UInt16, _ field: String, format: HCIFieldFormat) {
        writer.writeUInt16(value)
    }

    /// Writes the low 24 bits of `value`.
    @inlinable
    public mutating func codeUInt24(_ value: inout UInt32, _ field: String, format: HCIFieldFormat) {
        writer.writeUInt24(value & 0xFF_FFFF)
    }

    /// Writes four octets, least significant first.
    @inlinable
    public mutating func code(_ value: inout UInt32, _ field: String, format: HCIFieldFormat) {
        writer.writeUInt32(value)
    }

    /// Writes eight octets, least significant first.
    @inlinable
    public mutating func code(_ value: inout UInt64, _ field: String, format: HCIFieldFormat) {
        writer.writeUInt64(value)
    }

    /// Writes the signed value's octet.
    @inlinable
    public mutating func code(dBm value: inout Int8, _ field: String) {
        writer.writeUInt8(UInt8(bitPattern: value))
    }

    /// Writes the six octets, least significant first.
    @inlinable
    public mutating func code(_ value: inout BluetoothAddress, _ field: String) {
        value.write(to: &writer)
    }

    /// Writes every octet of `value`; `count` only guides decoders.
    @inlinable
    public mutating func code(_ value: inout [UInt8], count: Int, _ field: String) {
        writer.writeBytes(value)
    }

    /// Writes every octet of `value`.
    @inlinable
    public mutating func codeRemaining(_ value: inout [UInt8], _ field: String) {
        writer.writeBytes(value)
    }

    /// Writes every element in order.
    @inlinable
    public mutating func code<E: HCIParameterLayout>(_ elements: inout [E], count: Int, _ field: String) {
        for index in elements.indices { elements[index].layout(&self) }
    }

    /// Encoders check nothing: they write what they are given.
    @inlinable
    public mutating func check(_ condition: Bool, _ field: String, offset: Int, _ reason: @autoclosure () -> String) {}
}
