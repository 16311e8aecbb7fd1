import BLECore

extension FieldLayoutCoder {
    /// A 16-octet SMP value (a key, a Confirm, Random or DHKey Check value), octets in
    /// transmission order (Core v5.4, Vol 3, Part H, 3.1).
    ///
    /// - Throws: what the coder's 16-octet field throws (a decoder: the truncated field).
    mutating func field(_ value: inout SMPValue128, _ name: String) throws(Failure) {
        var octets = value.octets
        try field(&octets, count: SMPValue128.octetCount, name)
        value = SMPValue128(checked: octets)
    }

    /// A 32-octet public key coordinate, octets in transmission order (Core v5.4, Vol 3,
    /// Part H, 3.5.6).
    ///
    /// - Throws: what the coder's 32-octet field throws (a decoder: the truncated field).
    mutating func field(_ value: inout SMPPublicKeyCoordinate, _ name: String) throws(Failure) {
        var octets = value.octets
        try field(&octets, count: SMPPublicKeyCoordinate.octetCount, name)
        value = SMPPublicKeyCoordinate(checked: octets)
    }
}

/// An SMP command whose data has one declared layout, walked by BLECore's
/// ``FieldLayoutCoder``: reading and writing both run ``layout(_:)``, so they cannot disagree.
protocol SMPCommandLayout: Sendable {
    /// A value with every field zero, for a decoder to fill in.
    init()
    /// The command's fields after the Code octet, in wire order.
    mutating func layout<C: FieldLayoutCoder>(_ coder: inout C) throws(C.Failure)
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
        var coder = FieldLayoutDecoder(reader: reader)
        try layout(&coder)
        reader = coder.reader
    }

    /// Appends the command's fields to `writer`.
    func write(to writer: inout ByteWriter) {
        var copy = self
        // Move the buffer into the encoder and back, so appending does not copy it.
        var coder = FieldLayoutEncoder(writer: writer)
        writer = ByteWriter(capacity: 0)
        copy.layout(&coder)
        writer = coder.writer
    }
}
