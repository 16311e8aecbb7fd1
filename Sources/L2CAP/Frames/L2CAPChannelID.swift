import BLECore

/// An L2CAP channel identifier (CID): the local name of one endpoint of a channel
/// (Core v5.4, Vol 3, Part A, 2.1, Tables 2.1 and 2.3).
///
/// Fixed channels have assigned CIDs; on an LE-U logical link, connection-oriented channels
/// opened with the credit-based commands get a CID from the dynamic range 0x0040...0x007F.
/// Every 16-bit value is kept as received: reserved and unknown CIDs print as raw numbers.
public struct L2CAPChannelID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 0x0000: the null identifier, never used as a destination.
    public static let null = L2CAPChannelID(rawValue: 0x0000)
    /// 0x0001: the L2CAP signaling channel on ACL-U (BR/EDR).
    public static let signaling = L2CAPChannelID(rawValue: 0x0001)
    /// 0x0002: the connectionless channel on ACL-U (BR/EDR).
    public static let connectionless = L2CAPChannelID(rawValue: 0x0002)
    /// 0x0004: the Attribute Protocol (ATT) fixed channel.
    public static let att = L2CAPChannelID(rawValue: 0x0004)
    /// 0x0005: the LE L2CAP signaling channel (Part A, 4).
    public static let leSignaling = L2CAPChannelID(rawValue: 0x0005)
    /// 0x0006: the Security Manager Protocol (SMP) fixed channel on LE-U (Part H, 3.2).
    public static let smp = L2CAPChannelID(rawValue: 0x0006)
    /// 0x0007: the BR/EDR Security Manager channel (SMP over ACL-U).
    public static let brEdrSMP = L2CAPChannelID(rawValue: 0x0007)

    /// 0x0040...0x007F: the CIDs an LE-U link allocates dynamically to credit-based channels.
    public static let leDynamicRange: ClosedRange<UInt16> = 0x0040...0x007F

    /// Whether this CID lies in the LE-U dynamically allocated range (0x0040...0x007F).
    public var isLEDynamic: Bool { Self.leDynamicRange.contains(rawValue) }

    /// The channel's name in the specification's terms, nil for a CID without a fixed meaning.
    public var name: String? {
        switch rawValue {
        case 0x0000: return "null"
        case 0x0001: return "BR/EDR signaling"
        case 0x0002: return "connectionless"
        case 0x0004: return "ATT"
        case 0x0005: return "LE signaling"
        case 0x0006: return "SMP"
        case 0x0007: return "BR/EDR SMP"
        default: return isLEDynamic ? "dynamic" : nil
        }
    }

    /// "ATT (0x0004)", "dynamic (0x0040)", or "CID 0x0003" for a CID without a name.
    public var description: String {
        let number = "0x" + Hex.encode([UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)])
        if let name { return "\(name) (\(number))" }
        return "CID \(number)"
    }

    /// Orders CIDs by number.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
