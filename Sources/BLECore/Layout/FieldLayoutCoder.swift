/// One walk over a structure's fields, in wire order, that either reads them from octets
/// (``FieldLayoutDecoder``) or appends them to octets (``FieldLayoutEncoder``).
///
/// A protocol data unit declares its layout once, as a function that hands each field to a
/// coder in the order and size the specification lists them; decoding and encoding both run
/// that one function, so they cannot disagree. Multi-octet fields are little-endian, least
/// significant octet first (Core v5.4, Vol 1, Part E, 2.2).
///
/// ```swift
/// struct DisconnectionRequest {
///     var destinationCID: UInt16 = 0
///     var sourceCID: UInt16 = 0
///
///     mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
///         try c.field(&destinationCID, "Destination CID")
///         try c.field(&sourceCID, "Source CID")
///     }
/// }
///
/// var request = DisconnectionRequest()
/// var decoder = FieldLayoutDecoder([0x40, 0x00, 0x41, 0x00][...])
/// try request.layout(&decoder)          // throws BLEDecodingError naming the field and offset
/// try decoder.reader.expectEnd()
///
/// var encoder = FieldLayoutEncoder(capacity: 4)
/// request.layout(&encoder)               // never throws: Failure is Never
/// encoder.bytes                          // [0x40, 0x00, 0x41, 0x00]
/// ```
///
/// Field names are the specification's (for example "Initial Credits", "BD_ADDR"); a decoder
/// puts them in its errors, with the offset of the field's first octet.
public protocol FieldLayoutCoder {
    /// What the walk can fail with: ``BLEDecodingError`` when decoding, `Never` when encoding.
    associatedtype Failure: Error

    /// A 1-octet field.
    mutating func field(_ value: inout UInt8, _ name: String) throws(Failure)
    /// A 2-octet little-endian field.
    mutating func field(_ value: inout UInt16, _ name: String) throws(Failure)
    /// A 4-octet little-endian field.
    mutating func field(_ value: inout UInt32, _ name: String) throws(Failure)
    /// An 8-octet little-endian field.
    mutating func field(_ value: inout UInt64, _ name: String) throws(Failure)
    /// A 6-octet BD_ADDR, least significant octet first (Core v5.4, Vol 2, Part B, 1.2).
    mutating func field(_ value: inout BluetoothAddress, _ name: String) throws(Failure)
    /// A field of exactly `count` octets, in transmission order, when decoding; every octet of
    /// `value` when encoding (`count` only guides decoders).
    mutating func field(_ value: inout [UInt8], count: Int, _ name: String) throws(Failure)
    /// Every octet left in the input (possibly none) when decoding; every octet of `value`
    /// when encoding.
    mutating func remaining(_ value: inout [UInt8], _ name: String) throws(Failure)
    /// Every 2-octet little-endian value left in the input when decoding, each named `name`
    /// (an odd octet at the end is a truncated value); every value of `value` when encoding.
    mutating func remaining(_ value: inout [UInt16], _ name: String) throws(Failure)
}

extension FieldLayoutCoder {
    /// A field whose value is kept as its raw unsigned integer (an enumeration whose unknown
    /// values must stay raw, a bit field), as many octets wide as that integer.
    ///
    /// - Throws: what the coder's integer field of that width throws.
    @inlinable
    public mutating func field<T: RawFieldValue>(_ value: inout T, _ name: String) throws(Failure) {
        switch T.RawValue.bitWidth {
        case 8:
            var raw = UInt8(truncatingIfNeeded: value.rawValue)
            try field(&raw, name)
            value = T(rawValue: T.RawValue(truncatingIfNeeded: raw))
        case 16:
            var raw = UInt16(truncatingIfNeeded: value.rawValue)
            try field(&raw, name)
            value = T(rawValue: T.RawValue(truncatingIfNeeded: raw))
        case 32:
            var raw = UInt32(truncatingIfNeeded: value.rawValue)
            try field(&raw, name)
            value = T(rawValue: T.RawValue(truncatingIfNeeded: raw))
        default:
            var raw = UInt64(truncatingIfNeeded: value.rawValue)
            try field(&raw, name)
            value = T(rawValue: T.RawValue(truncatingIfNeeded: raw))
        }
    }
}
