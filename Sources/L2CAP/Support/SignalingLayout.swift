import BLECore

/// A signaling command whose data field has one declared layout, walked by BLECore's
/// ``FieldLayoutCoder``: ``init(data:)`` and ``encodedData`` both run ``layout(_:)``, so
/// decoding and encoding cannot disagree.
protocol SignalingCommandLayout: Sendable {
    /// The Code octet of the command.
    static var code: L2CAPSignalingCode { get }
    /// A value with every field zero or empty, for a decoder to fill in.
    init()
    /// The command's data fields in wire order.
    mutating func layout<C: FieldLayoutCoder>(_ coder: inout C) throws(C.Failure)
}

extension SignalingCommandLayout {
    /// Decodes the command's data, which must be exactly the data octets.
    ///
    /// - Throws: the field that ran short, or trailing octets, with offsets counted from the
    ///   first data octet.
    init(data: ArraySlice<UInt8>) throws(BLEDecodingError) {
        self.init()
        var coder = FieldLayoutDecoder(data)
        try layout(&coder)
        try coder.reader.expectEnd()
    }

    /// The command's data field.
    var encodedData: [UInt8] {
        var copy = self
        var coder = FieldLayoutEncoder(capacity: 16)
        copy.layout(&coder)
        return coder.bytes
    }
}
