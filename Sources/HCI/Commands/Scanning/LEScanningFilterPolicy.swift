import BLECore

/// The Scanning_Filter_Policy parameter (Core v5.4, Vol 4, Part E, 7.8.10 and 7.8.64).
/// Unknown values are kept raw.
public struct LEScanningFilterPolicy: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: accept every advertising PDU except directed ones not addressed to this device.
    public static let basicUnfiltered = LEScanningFilterPolicy(rawValue: 0x00)
    /// 0x01: accept only PDUs from devices in the Filter Accept List (and directed ones to this device).
    public static let basicFiltered = LEScanningFilterPolicy(rawValue: 0x01)
    /// 0x02: as 0x00, also accepting directed PDUs whose target is a resolvable private address.
    public static let extendedUnfiltered = LEScanningFilterPolicy(rawValue: 0x02)
    /// 0x03: as 0x01, also accepting directed PDUs whose target is a resolvable private address.
    public static let extendedFiltered = LEScanningFilterPolicy(rawValue: 0x03)

    /// The value on one line, for logs and capture decoders.
    public var description: String {
        switch self {
        case .basicUnfiltered: return "basic unfiltered"
        case .basicFiltered: return "basic filtered"
        case .extendedUnfiltered: return "extended unfiltered"
        case .extendedFiltered: return "extended filtered"
        default: return "scanning filter policy 0x\(Hex.encode([rawValue]))"
        }
    }
}
