import BLECore

/// One walk over an SMP command's fields, in wire order, that either reads them from octets or
/// appends them to octets. Each command declares its layout once, in
/// ``SMPCommandLayout/layout(_:)``, and both decoding and encoding follow that one list, so the
/// two cannot disagree.
protocol SMPLayoutCoder {
    associatedtype Failure: Error
    /// A 1-octet field.
    mutating func field(_ value: inout UInt8, _ name: String) throws(Failure)
    /// A 2-octet little-endian field.
    mutating func field(_ value: inout UInt16, _ name: String) throws(Failure)
    /// An 8-octet little-endian field.
    mutating func field(_ value: inout UInt64, _ name: String) throws(Failure)
    /// A 16-octet value, octets in transmission order.
    mutating func field(_ value: inout SMPValue128, _ name: String) throws(Failure)
    /// A 32-octet public key coordinate, octets in transmission order.
    mutating func field(_ value: inout SMPPublicKeyCoordinate, _ name: String) throws(Failure)
    /// A 6-octet BD_ADDR, least significant octet first.
    mutating func field(_ value: inout BluetoothAddress, _ name: String) throws(Failure)
}

/// A 1-octet code or bit field kept raw: what a layout needs to read or write one.
protocol SMPRawField8 {
    var rawValue: UInt8 { get }
    init(rawValue: UInt8)
}

extension SMPLayoutCoder {
    /// A 1-octet field with a raw-valued type (a code, a bit field).
    mutating func field<T: SMPRawField8>(_ value: inout T, _ name: String) throws(Failure) {
        var raw = value.rawValue
        try field(&raw, name)
        value = T(rawValue: raw)
    }
}

/// Reads fields; a short input throws the field's ``BLEDecodingError``.
struct SMPLayoutReader: SMPLayoutCoder {
    var reader: ByteReader

    mutating func field(_ value: inout UInt8, _ name: String) throws(BLEDecodingError) {
        value = try reader.readUInt8(name)
    }
    mutating func field(_ value: inout UInt16, _ name: String) throws(BLEDecodingError) {
        value = try reader.readUInt16(name)
    }
    mutating func field(_ value: inout UInt64, _ name: String) throws(BLEDecodingError) {
        value = try reader.readUInt64(name)
    }
    mutating func field(_ value: inout SMPValue128, _ name: String) throws(BLEDecodingError) {
        value = SMPValue128(checked: try reader.readBytes(SMPValue128.octetCount, name))
    }
    mutating func field(_ value: inout SMPPublicKeyCoordinate, _ name: String) throws(BLEDecodingError) {
        value = SMPPublicKeyCoordinate(checked: try reader.readBytes(SMPPublicKeyCoordinate.octetCount, name))
    }
    mutating func field(_ value: inout BluetoothAddress, _ name: String) throws(BLEDecodingError) {
        value = try BluetoothAddress(from: &reader, field: name)
    }
}

/// Appends fields; never fails.
struct SMPLayoutWriter: SMPLayoutCoder {
    var writer: ByteWriter

    mutating func field(_ value: inout UInt8, _ name: String) { writer.writeUInt8(value) }
    mutating func field(_ value: inout UInt16, _ name: String) { writer.writeUInt16(value) }
    mutating func field(_ value: inout UInt64, _ name: String) { writer.writeUInt64(value) }
    mutating func field(_ value: inout SMPValue128, _ name: String) { writer.writeBytes(value.octets) }
    mutating func field(_ value: inout SMPPublicKeyCoordinate, _ name: String) { writer.writeBytes(value.octets) }
    mutating func field(_ value: inout BluetoothAddress, _ name: String) { value.write(to: &writer) }
}

/// An SMP command whose data has one declared layout.
protocol SMPCommandLayout: Sendable {
    /// A value with every field zero, for a decoder to fill in.
    init()
    /// The command's fields after the Code octet, in wire order.
    mutating func layout<C: SMPLayoutCoder>(_ coder: inout C) throws(C.Failure)
}

extension SMPCommandLayout {
    /// Reads the command's fields from `reader`, positioned after the Code octet.
    init(reading reader: inout ByteReader) throws(BLEDecodingError) {
        self.init()
        try read(from: &reader)
    }

    /// Reads the command's fields from `reader` into this value (whose field names, for a
    /// shared layout, are already set).
    mutating func read(from reader: inout ByteReader) throws(BLEDecodingError) {
        var coder = SMPLayoutReader(reader: reader)
        try layout(&coder)
        reader = coder.reader
    }

    /// Appends the command's fields to `writer`.
    func write(to writer: inout ByteWriter) {
        var copy = self
        var coder = SMPLayoutWriter(writer: ByteWriter(capacity: 0))
        swap(&coder.writer, &writer)
        copy.layout(&coder)
        swap(&coder.writer, &writer)
    }
}
