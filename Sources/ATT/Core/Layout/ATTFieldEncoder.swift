import BLECore

/// The ``ATTFieldCoder`` that appends fields to a ``ByteWriter``, least significant octet first.
/// It never fails, and writes what the fields hold: counts and lengths come from the layout
/// (a list's Length from its first entry), and the validating initializers of the PDUs keep
/// lists and values within what the format can carry.
struct ATTFieldEncoder: ATTFieldCoder {
    /// The octets written so far.
    var writer: ByteWriter

    /// An encoder that appends to `writer`.
    init(writer: ByteWriter) { self.writer = writer }

    var offset: Int { 0 }

    mutating func handle(_ value: inout UInt16, _ parameter: ATTParameter) { writer.writeUInt16(value) }
    mutating func integer(_ value: inout UInt8, _ parameter: ATTParameter) { writer.writeUInt8(value) }
    mutating func integer(_ value: inout UInt16, _ parameter: ATTParameter) { writer.writeUInt16(value) }
    mutating func integer(_ value: inout UInt32, _ parameter: ATTParameter) { writer.writeUInt32(value) }
    mutating func integerOctets(_ value: inout UInt64, _ parameter: ATTParameter) { writer.writeUInt64(value) }
    mutating func code<T: ATTCodedValue>(_ value: inout T, _ parameter: ATTParameter) { writer.writeUInt8(value.rawValue) }

    mutating func remaining(_ value: inout [UInt8], _ parameter: ATTParameter, reserving reserved: Int) {
        writer.writeBytes(value)
    }

    /// Writes 2 octets for a UUID made 16-bit, else 16 (a 32-bit UUID in its 128-bit form).
    mutating func uuid(_ value: inout BluetoothUUID, _ parameter: ATTParameter) {
        if value.width == .bits32 { value.as128Bit.write(to: &writer) } else { value.write(to: &writer) }
    }

    mutating func uuid16(_ value: inout UInt16, _ parameter: ATTParameter) { writer.writeUInt16(value) }

    mutating func handles(_ value: inout [UInt16], _ parameter: ATTParameter, element: ATTParameter, minimumCount: Int) {
        for handle in value { writer.writeUInt16(handle) }
    }

    mutating func list<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter, entrySize: Int, minimumCount: Int) {
        for index in entries.indices { entries[index].walk(&self) }
    }

    mutating func sequence<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter, minimumLength: Int) {
        for index in entries.indices { entries[index].walk(&self) }
    }

    mutating func lengthValue(_ length: inout UInt16, _ value: inout [UInt8], _ lengthParameter: ATTParameter,
                              _ valueParameter: ATTParameter, truncatable: Bool) {
        writer.writeUInt16(length)
        writer.writeBytes(value)
    }

    mutating func group<G: ATTLayout>(_ value: inout G, _ parameter: ATTParameter, size: Int) { value.walk(&self) }

    /// Encoders check nothing.
    mutating func check(_ condition: Bool, _ parameter: ATTParameter, offset: Int, _ reason: @autoclosure () -> String) {}
}
