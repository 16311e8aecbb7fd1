import BLECore

/// The value of a Client Characteristic Configuration descriptor, CCCD (Core v5.4, Vol 3,
/// Part G, 3.3.3.3): what this client asked the server to send. The server keeps
/// one per connection (and per bonded client); the database holds 0x0000.
///
/// | Bit | Configuration |
/// |---|---|
/// | 0x0001 | Notification |
/// | 0x0002 | Indication |
///
/// The value is 2 octets. Reserved bits are kept raw.
public struct GATTClientCharacteristicConfiguration: OptionSet, Sendable, Hashable {
    /// The two-octet value.
    public let rawValue: UInt16

    /// A configuration from its value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 0x0001: the characteristic value shall be notified (if Notify is a property).
    public static let notification = GATTClientCharacteristicConfiguration(rawValue: 0x0001)
    /// 0x0002: the characteristic value shall be indicated (if Indicate is a property).
    public static let indication = GATTClientCharacteristicConfiguration(rawValue: 0x0002)

    /// The Notification and Indication bits alone: bits 2-15 are Reserved for Future Use (Core
    /// v5.4, Vol 3, Part G, 3.3.3.3, Table 3.11), so a value with only those set enables nothing.
    public var withoutReservedBits: GATTClientCharacteristicConfiguration { intersection([.notification, .indication]) }

    /// Decodes the 2-octet value.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for
    ///   "Characteristic Configuration Bits" under 2 octets,
    ///   ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)`` over 2.
    public init(decoding value: some Collection<UInt8>) throws(BLEDecodingError) {
        rawValue = try GATTLayouts.decodeWhole(value) { (r: inout ByteReader) throws(BLEDecodingError) in
            try r.readUInt16("Characteristic Configuration Bits")
        }
    }

    /// The 2 value octets, least significant first.
    public var encoded: [UInt8] { [UInt8(truncatingIfNeeded: rawValue), UInt8(truncatingIfNeeded: rawValue >> 8)] }
}

/// The value of a Server Characteristic Configuration descriptor, SCCD (Core v5.4, Vol 3,
/// Part G, 3.3.3.4): whether the server broadcasts the characteristic value in its
/// advertising data. One value for all clients.
///
/// | Bit | Configuration |
/// |---|---|
/// | 0x0001 | Broadcast |
///
/// The value is 2 octets. Reserved bits are kept raw.
public struct GATTServerCharacteristicConfiguration: OptionSet, Sendable, Hashable {
    /// The two-octet value.
    public let rawValue: UInt16

    /// A configuration from its value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 0x0001: the characteristic value shall be broadcast (if Broadcast is a property).
    public static let broadcast = GATTServerCharacteristicConfiguration(rawValue: 0x0001)

    /// Decodes the 2-octet value.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for
    ///   "Characteristic Configuration Bits" under 2 octets,
    ///   ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)`` over 2.
    public init(decoding value: some Collection<UInt8>) throws(BLEDecodingError) {
        rawValue = try GATTLayouts.decodeWhole(value) { (r: inout ByteReader) throws(BLEDecodingError) in
            try r.readUInt16("Characteristic Configuration Bits")
        }
    }

    /// The 2 value octets, least significant first.
    public var encoded: [UInt8] { [UInt8(truncatingIfNeeded: rawValue), UInt8(truncatingIfNeeded: rawValue >> 8)] }
}

extension GATTCharacteristicExtendedProperties {
    /// Decodes the value of a Characteristic Extended Properties descriptor (Core v5.4, Vol 3,
    /// Part G, 3.3.3.1): 2 octets.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for
    ///   "Characteristic Extended Properties Bit Field" under 2 octets,
    ///   ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)`` over 2.
    public init(decoding value: some Collection<UInt8>) throws(BLEDecodingError) {
        self.init(rawValue: try GATTLayouts.decodeWhole(value) { (r: inout ByteReader) throws(BLEDecodingError) in
            try r.readUInt16("Characteristic Extended Properties Bit Field")
        })
    }

    /// The 2 value octets, least significant first.
    public var encoded: [UInt8] { [UInt8(truncatingIfNeeded: rawValue), UInt8(truncatingIfNeeded: rawValue >> 8)] }
}
