/// A set of LE PHYs as one octet of bits: Scanning_PHYs, Initiating_PHYs, TX_PHYs and RX_PHYs
/// (Core v5.4, Vol 4, Part E, 7.8.49, 7.8.64 and 7.8.66). Bit 0 is LE 1M, bit 1 LE 2M, bit 2
/// LE Coded; other bits are reserved and kept.
///
/// In the commands with one parameter set per PHY, the sets follow in bit order, one for each
/// bit set.
public struct LEPHYs: OptionSet, HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: LE 1M.
    public static let le1M = LEPHYs(rawValue: 1 << 0)
    /// Bit 1: LE 2M (not allowed in Scanning_PHYs).
    public static let le2M = LEPHYs(rawValue: 1 << 1)
    /// Bit 2: LE Coded.
    public static let leCoded = LEPHYs(rawValue: 1 << 2)

    /// The number of bits set, which is the number of per-PHY parameter sets that follow.
    public var count: Int { rawValue.nonzeroBitCount }

    /// The PHYs by name, lowest bit first ("bit N" for reserved bits).
    public var description: String {
        HCIBitNames.describe(UInt64(rawValue)) { bit in
            switch bit {
            case 0: return "LE 1M"
            case 1: return "LE 2M"
            case 2: return "LE Coded"
            default: return nil
            }
        }
    }
}
