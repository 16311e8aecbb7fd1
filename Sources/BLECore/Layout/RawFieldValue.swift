/// A field value carried as a little-endian unsigned integer and kept raw: a code or result
/// whose unknown values must survive decoding (Command Reject Reason, Pairing Failed Reason),
/// or a bit field whose reserved bits must survive (AuthReq, key distribution).
///
/// Every raw value is accepted: ``init(rawValue:)`` never fails, so a ``FieldLayoutCoder``
/// never loses or rejects a value it does not know. The field is as wide as `RawValue`
/// (1, 2, 4 or 8 octets).
public protocol RawFieldValue: RawRepresentable where RawValue: FixedWidthInteger & UnsignedInteger {
    /// A value from its raw integer; every raw value is valid.
    init(rawValue: RawValue)
}
