/// The Format field of a Characteristic Presentation Format descriptor (Core v5.4, Vol 3,
/// Part G, 3.3.3.5.2; the values are in Assigned Numbers, 2.4.1 "Formats").
///
/// Values the Assigned Numbers do not list (0x00 and 0x1C on) are kept raw; ``name`` is nil
/// for them.
public struct GATTFormat: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The Format octet.
    public let rawValue: UInt8

    /// A format from its octet; every value is accepted and kept.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01 boolean: unsigned 1-bit, 0 = false, 1 = true.
    public static let boolean = GATTFormat(rawValue: 0x01)
    /// 0x02 2bit: unsigned 2-bit integer.
    public static let twoBit = GATTFormat(rawValue: 0x02)
    /// 0x03 nibble: unsigned 4-bit integer.
    public static let nibble = GATTFormat(rawValue: 0x03)
    /// 0x04 uint8.
    public static let uint8 = GATTFormat(rawValue: 0x04)
    /// 0x05 uint12.
    public static let uint12 = GATTFormat(rawValue: 0x05)
    /// 0x06 uint16.
    public static let uint16 = GATTFormat(rawValue: 0x06)
    /// 0x07 uint24.
    public static let uint24 = GATTFormat(rawValue: 0x07)
    /// 0x08 uint32.
    public static let uint32 = GATTFormat(rawValue: 0x08)
    /// 0x09 uint48.
    public static let uint48 = GATTFormat(rawValue: 0x09)
    /// 0x0A uint64.
    public static let uint64 = GATTFormat(rawValue: 0x0A)
    /// 0x0B uint128.
    public static let uint128 = GATTFormat(rawValue: 0x0B)
    /// 0x0C sint8.
    public static let sint8 = GATTFormat(rawValue: 0x0C)
    /// 0x0D sint12.
    public static let sint12 = GATTFormat(rawValue: 0x0D)
    /// 0x0E sint16.
    public static let sint16 = GATTFormat(rawValue: 0x0E)
    /// 0x0F sint24.
    public static let sint24 = GATTFormat(rawValue: 0x0F)
    /// 0x10 sint32.
    public static let sint32 = GATTFormat(rawValue: 0x10)
    /// 0x11 sint48.
    public static let sint48 = GATTFormat(rawValue: 0x11)
    /// 0x12 sint64.
    public static let sint64 = GATTFormat(rawValue: 0x12)
    /// 0x13 sint128.
    public static let sint128 = GATTFormat(rawValue: 0x13)
    /// 0x14 float32: IEEE-754 32-bit floating point.
    public static let float32 = GATTFormat(rawValue: 0x14)
    /// 0x15 float64: IEEE-754 64-bit floating point.
    public static let float64 = GATTFormat(rawValue: 0x15)
    /// 0x16 SFLOAT: IEEE-11073 16-bit SFLOAT.
    public static let sfloat = GATTFormat(rawValue: 0x16)
    /// 0x17 FLOAT: IEEE-11073 32-bit FLOAT.
    public static let float = GATTFormat(rawValue: 0x17)
    /// 0x18 duint16: IEEE-20601 format (two uint16).
    public static let duint16 = GATTFormat(rawValue: 0x18)
    /// 0x19 utf8s: UTF-8 string.
    public static let utf8s = GATTFormat(rawValue: 0x19)
    /// 0x1A utf16s: UTF-16 string.
    public static let utf16s = GATTFormat(rawValue: 0x1A)
    /// 0x1B struct: opaque structure.
    public static let opaqueStructure = GATTFormat(rawValue: 0x1B)

    /// The Short Names of the Assigned Numbers for 0x01...0x1B, in value order.
    static let shortNames: [String] = [
        "boolean", "2bit", "nibble", "uint8", "uint12", "uint16", "uint24", "uint32", "uint48", "uint64",
        "uint128", "sint8", "sint12", "sint16", "sint24", "sint32", "sint48", "sint64", "sint128",
        "float32", "float64", "SFLOAT", "FLOAT", "duint16", "utf8s", "utf16s", "struct",
    ]

    /// The Assigned Numbers' Short Name ("uint8", "utf8s", "SFLOAT"); nil for a value they do
    /// not list.
    public var name: String? {
        let index = Int(rawValue) - 1
        return Self.shortNames.indices.contains(index) ? Self.shortNames[index] : nil
    }

    /// The format whose Short Name is `name` (as ``name`` gives it); nil for any other text.
    public init?(name: String) {
        guard let index = Self.shortNames.firstIndex(of: name) else { return nil }
        self.init(rawValue: UInt8(index + 1))
    }

    /// "uint8 (0x04)", or "0x1c" for an unlisted value.
    public var description: String {
        let hex = "0x" + String(rawValue, radix: 16).leftPadded(to: 2)
        return name.map { "\($0) (\(hex))" } ?? hex
    }
}
