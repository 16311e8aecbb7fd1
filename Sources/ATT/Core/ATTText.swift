import BLECore

/// Text helpers shared by the PDUs' summaries. Only used off the decode path.
enum ATTText {
    /// "0x3f": one octet, two lower-case digits.
    static func hex8(_ value: UInt8) -> String {
        "0x" + Hex.encode(CollectionOfOne(value))
    }

    /// Octets in lower-case hexadecimal without separators, or "(empty)".
    static func octets(_ value: [UInt8]) -> String {
        value.isEmpty ? "(empty)" : Hex.encode(value)
    }

    /// "0x0001..0xffff": a handle range.
    static func range(_ start: UInt16, _ end: UInt16) -> String {
        Hex.hex16(start) + ".." + Hex.hex16(end)
    }
}
