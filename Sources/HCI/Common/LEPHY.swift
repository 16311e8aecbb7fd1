import BLECore

/// One LE PHY, as TX_PHY, RX_PHY, Primary_Advertising_PHY and Secondary_Advertising_PHY carry it
/// (Core v5.4, Vol 4, Part E, 7.7.65.12 and 7.8.53). Unknown values are kept raw.
public struct LEPHY: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: LE 1M.
    public static let le1M = LEPHY(rawValue: 0x01)
    /// 0x02: LE 2M.
    public static let le2M = LEPHY(rawValue: 0x02)
    /// 0x03: LE Coded.
    public static let leCoded = LEPHY(rawValue: 0x03)

    /// The value on one line, for logs and capture decoders.
    public var description: String {
        switch self {
        case .le1M: return "LE 1M"
        case .le2M: return "LE 2M"
        case .leCoded: return "LE Coded"
        default: return "PHY 0x\(Hex.encode([rawValue]))"
        }
    }
}
