import BLECore

/// Text helpers shared by the PDUs' summaries. Only used off the decode path.
enum ATTText {
    /// "0x003f": a handle or other 16-bit value, four lower-case digits.
    static func hex16(_ value: UInt16) -> String {
        "0x" + Hex.encode([UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)])
    }

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
        hex16(start) + ".." + hex16(end)
    }
}
