/// The Characteristic Properties bit field of a characteristic declaration (Core v5.4, Vol 3,
/// Part G, 3.3.1.1): how the characteristic value may be used.
///
/// | Bit | Property | When set |
/// |---|---|---|
/// | 0x01 | Broadcast | a Server Characteristic Configuration descriptor shall exist |
/// | 0x02 | Read | the value may be read |
/// | 0x04 | Write Without Response | the value may be written with ATT_WRITE_CMD |
/// | 0x08 | Write | the value may be written with ATT_WRITE_REQ |
/// | 0x10 | Notify | a Client Characteristic Configuration descriptor shall exist |
/// | 0x20 | Indicate | a Client Characteristic Configuration descriptor shall exist |
/// | 0x40 | Authenticated Signed Writes | the value may be written with ATT_SIGNED_WRITE_CMD |
/// | 0x80 | Extended Properties | a Characteristic Extended Properties descriptor shall exist |
///
/// Every bit of the octet is defined, so no value is lost.
public struct GATTCharacteristicProperties: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The Characteristic Properties octet.
    public let rawValue: UInt8

    /// Properties from their octet.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01 Broadcast.
    public static let broadcast = GATTCharacteristicProperties(rawValue: 0x01)
    /// 0x02 Read.
    public static let read = GATTCharacteristicProperties(rawValue: 0x02)
    /// 0x04 Write Without Response.
    public static let writeWithoutResponse = GATTCharacteristicProperties(rawValue: 0x04)
    /// 0x08 Write.
    public static let write = GATTCharacteristicProperties(rawValue: 0x08)
    /// 0x10 Notify.
    public static let notify = GATTCharacteristicProperties(rawValue: 0x10)
    /// 0x20 Indicate.
    public static let indicate = GATTCharacteristicProperties(rawValue: 0x20)
    /// 0x40 Authenticated Signed Writes.
    public static let authenticatedSignedWrites = GATTCharacteristicProperties(rawValue: 0x40)
    /// 0x80 Extended Properties.
    public static let extendedProperties = GATTCharacteristicProperties(rawValue: 0x80)

    /// Each property with the name the JSON database format uses (docs/gatt-database-json.md),
    /// in bit order.
    public static let names: [(name: String, property: GATTCharacteristicProperties)] = [
        ("broadcast", .broadcast), ("read", .read), ("writeWithoutResponse", .writeWithoutResponse),
        ("write", .write), ("notify", .notify), ("indicate", .indicate),
        ("authenticatedSignedWrites", .authenticatedSignedWrites), ("extendedProperties", .extendedProperties),
    ]

    /// The property named `name` in ``names``; nil for any other text.
    public init?(name: String) {
        guard let entry = Self.names.first(where: { $0.name == name }) else { return nil }
        self = entry.property
    }

    /// The names of the bits set, in bit order.
    public var nameList: [String] { Self.names.filter { contains($0.property) }.map(\.name) }

    /// "0x12 [read, notify]".
    public var description: String {
        "0x" + String(rawValue, radix: 16).leftPadded(to: 2) + " [" + nameList.joined(separator: ", ") + "]"
    }
}

/// The Characteristic Extended Properties bit field (Core v5.4, Vol 3, Part G, 3.3.3.1):
/// the value of the Characteristic Extended Properties descriptor.
///
/// | Bit | Property | When set |
/// |---|---|---|
/// | 0x0001 | Reliable Write | the value may be written with reliable writes (queued writes checked by the client, 4.9.5) |
/// | 0x0002 | Writable Auxiliaries | the Characteristic User Description descriptor may be written |
///
/// The other bits are reserved; they are kept raw so a captured value survives a round trip.
public struct GATTCharacteristicExtendedProperties: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The two-octet Characteristic Extended Properties value.
    public let rawValue: UInt16

    /// Extended properties from their value.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 0x0001 Reliable Write.
    public static let reliableWrite = GATTCharacteristicExtendedProperties(rawValue: 0x0001)
    /// 0x0002 Writable Auxiliaries.
    public static let writableAuxiliaries = GATTCharacteristicExtendedProperties(rawValue: 0x0002)

    /// Each defined property with the name the JSON database format uses, in bit order.
    public static let names: [(name: String, property: GATTCharacteristicExtendedProperties)] = [
        ("reliableWrite", .reliableWrite), ("writableAuxiliaries", .writableAuxiliaries),
    ]

    /// The property named `name` in ``names``; nil for any other text.
    public init?(name: String) {
        guard let entry = Self.names.first(where: { $0.name == name }) else { return nil }
        self = entry.property
    }

    /// The names of the defined bits set, in bit order (reserved bits have no name).
    public var nameList: [String] { Self.names.filter { contains($0.property) }.map(\.name) }

    /// "0x0001 [reliableWrite]".
    public var description: String {
        "0x" + String(rawValue, radix: 16).leftPadded(to: 4) + " [" + nameList.joined(separator: ", ") + "]"
    }
}

extension String {
    /// The text with leading zeros up to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
