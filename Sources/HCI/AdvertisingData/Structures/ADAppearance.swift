import BLECore

/// The Appearance AD data (AD type 0x19, CSS Part A, 1.12): the external appearance of the
/// device, 2 octets, the same value as the GAP Appearance characteristic (Core v5.4, Vol 3,
/// Part C, 12.2). Bits 15...6 are the category, bits 5...0 the sub-category (Assigned Numbers 2.6).
public struct ADAppearance: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 16-bit appearance value.
    public let rawValue: UInt16
    /// The appearance with this value, assigned or not.
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A value from its category (10 bits) and sub-category (6 bits); higher bits are discarded.
    public init(category: UInt16, subcategory: UInt8) {
        rawValue = (category & 0x3FF) << 6 | UInt16(subcategory & 0x3F)
    }

    /// 0x0000: Unknown.
    public static let unknown = ADAppearance(rawValue: 0x0000)

    /// Bits 15...6.
    public var category: UInt16 { rawValue >> 6 }
    /// Bits 5...0.
    public var subcategory: UInt8 { UInt8(truncatingIfNeeded: rawValue & 0x3F) }

    /// "Category" or "Category: Sub-category" from the assigned numbers; nil when unassigned.
    public var name: String? { AssignedNumbers.appearanceName(rawValue) }

    /// "0x03C1 (Human Interface Device: Keyboard)".
    public var description: String {
        let hex = "0x" + ADText.hex(rawValue)
        if let name { return "\(hex) (\(name))" }
        return hex
    }
}
