import BLECore

/// One walk over a signaling command's fields, in wire order, that either reads them from
/// octets or appends them to octets. Each command declares its layout once, in
/// ``SignalingCommandLayout/layout(_:)``, and both decoding and encoding follow that one list,
/// so the two cannot disagree.
protocol SignalingLayoutCoder {
    associatedtype Failure: Error
    /// A 2-octet little-endian field.
    mutating func field(_ value: inout UInt16, _ name: String) throws(Failure)
    /// Every octet left in the command (reading), or all of `value` (writing).
    mutating func remaining(_ value: inout [UInt8], _ name: String) throws(Failure)
    /// Every 2-octet value left in the command (reading), or all of `value` (writing).
    mutating func remaining(_ value: inout [UInt16], _ name: String) throws(Failure)
}

/// A 2-octet code or result kept raw: what a layout needs to read or write one.
protocol SignalingRawField16 {
    var rawValue: UInt16 { get }
    init(rawValue: UInt16)
}

extension SignalingLayoutCoder {
    /// A 2-octet field with a raw-valued type (a result or reason code).
    mutating func field<T: SignalingRawField16>(_ value: inout T, _ name: String) throws(Failure) {
        var raw = value.rawValue
        try field(&raw, name)
        value = T(rawValue: raw)
    }
}

/// Reads fields; a short input throws the field's ``BLEDecodingError``.
struct SignalingLayoutReader: SignalingLayoutCoder {
    var reader: ByteReader
    init(_ reader: ByteReader) { self.reader = reader }

    mutating func field(_ value: inout UInt16, _ name: String) throws(BLEDecodingError) {
        value = try reader.readUInt16(name)
    }
    mutating func remaining(_ value: inout [UInt8], _ name: String) throws(BLEDecodingError) {
        value = reader.readRemaining()
    }
    mutating func remaining(_ value: inout [UInt16], _ name: String) throws(BLEDecodingError) {
        var values: [UInt16] = []
        values.reserveCapacity(reader.remainingCount / 2)
        while !reader.isAtEnd { values.append(try reader.readUInt16(name)) }
        value = values
    }
}

/// Appends fields; never fails.
struct SignalingLayoutWriter: SignalingLayoutCoder {
    var writer: ByteWriter
    init(capacity: Int) { writer = ByteWriter(capacity: capacity) }

    mutating func field(_ value: inout UInt16, _ name: String) { writer.writeUInt16(value) }
    mutating func remaining(_ value: inout [UInt8], _ name: String) { writer.writeBytes(value) }
    mutating func remaining(_ value: inout [UInt16], _ name: String) {
        for v in value { writer.writeUInt16(v) }
    }
}

/// A signaling command whose data field has one declared layout.
protocol SignalingCommandLayout: Sendable {
    /// The Code octet of the command.
    static var code: L2CAPSignalingCode { get }
    /// A value with every field zero or empty, for a decoder to fill in.
    init()
    /// The command's data fields in wire order.
    mutating func layout<C: SignalingLayoutCoder>(_ coder: inout C) throws(C.Failure)
}

extension SignalingCommandLayout {
    /// Decodes the command's data, which must be exactly the data octets.
    ///
    /// - Throws: the field that ran short, or trailing octets, with offsets counted from the
    ///   first data octet.
    init(data: ArraySlice<UInt8>) throws(BLEDecodingError) {
        self.init()
        var coder = SignalingLayoutReader(ByteReader(data))
        try layout(&coder)
        try coder.reader.expectEnd()
    }

    /// The command's data field.
    var encodedData: [UInt8] {
        var copy = self
        var coder = SignalingLayoutWriter(capacity: 16)
        copy.layout(&coder)
        return coder.writer.bytes
    }
}
