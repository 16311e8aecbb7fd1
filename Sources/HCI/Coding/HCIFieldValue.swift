/// A typed HCI parameter value carried as a little-endian unsigned integer: an enumeration whose
/// unknown values are kept raw (``HCIStatus``, ``LEAddressType``), a bit mask (``LEFeatures``),
/// or a duration in the specification's units (``HCIDuration``).
///
/// Every raw value is accepted: ``init(rawValue:)`` never fails, so decoding never loses or
/// rejects a value it does not know.
public protocol HCIFieldValue: RawRepresentable, Hashable, Sendable, CustomStringConvertible
where RawValue: FixedWidthInteger & UnsignedInteger {
    /// A value from its raw integer; every raw value is valid.
    init(rawValue: RawValue)

    /// The field's width on the wire in octets; by default the raw integer's width.
    static var octets: Int { get }
}

extension HCIFieldValue {
    /// The raw integer's width in octets.
    @inlinable
    public static var octets: Int { MemoryLayout<RawValue>.size }
}
