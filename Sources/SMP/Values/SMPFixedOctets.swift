import BLECore

/// A 128-bit SMP value as its 16 octets in transmission order (least significant octet first,
/// Core v5.4, Vol 3, Part H, 3.1): a key (LTK, IRK, CSRK), a Confirm or Random value, or a
/// DHKey Check value.
///
/// The octet count is part of the type, so an SMP command always encodes to its fixed length.
/// ``description`` prints the octets as hexadecimal in transmission order, as a capture shows
/// them; ``mostSignificantFirstHex`` prints them the way the specification's sample data does.
public struct SMPValue128: Hashable, Sendable, CustomStringConvertible {
    /// 16.
    public static let octetCount = 16
    /// Sixteen zero octets.
    public static let zero = SMPValue128(checked: [UInt8](repeating: 0, count: 16))

    /// The octets in transmission order, always 16.
    public let octets: [UInt8]

    /// A value from 16 octets in transmission order; nil for any other count.
    public init?(octets: [UInt8]) {
        guard octets.count == Self.octetCount else { return nil }
        self.octets = octets
    }

    /// A value from octets already known to be 16.
    init(checked octets: [UInt8]) { self.octets = octets }

    /// The octets as hexadecimal, most significant first.
    public var mostSignificantFirstHex: String { Hex.encode(octets.reversed()) }

    /// The octets as hexadecimal in transmission order.
    public var description: String { Hex.encode(octets) }
}

/// One coordinate of a P-256 public key as its 32 octets in transmission order (least
/// significant octet first; Core v5.4, Vol 3, Part H, 3.5.6).
public struct SMPPublicKeyCoordinate: Hashable, Sendable, CustomStringConvertible {
    /// 32.
    public static let octetCount = 32
    /// Thirty-two zero octets.
    public static let zero = SMPPublicKeyCoordinate(checked: [UInt8](repeating: 0, count: 32))

    /// The octets in transmission order, always 32.
    public let octets: [UInt8]

    /// A coordinate from 32 octets in transmission order; nil for any other count.
    public init?(octets: [UInt8]) {
        guard octets.count == Self.octetCount else { return nil }
        self.octets = octets
    }

    /// A coordinate from octets already known to be 32.
    init(checked octets: [UInt8]) { self.octets = octets }

    /// The octets as hexadecimal, most significant first.
    public var mostSignificantFirstHex: String { Hex.encode(octets.reversed()) }

    /// The octets as hexadecimal in transmission order.
    public var description: String { Hex.encode(octets) }
}
