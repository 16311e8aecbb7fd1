import BLECore

/// The LE_Scan_Type and Scan_Type parameters (Core v5.4, Vol 4, Part E, 7.8.10 and 7.8.64).
/// Unknown values are kept raw.
public struct LEScanType: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: passive scanning; no scan requests are sent.
    public static let passive = LEScanType(rawValue: 0x00)
    /// 0x01: active scanning; scan requests may be sent, scan responses are reported.
    public static let active = LEScanType(rawValue: 0x01)

    /// The value on one line, for logs and capture decoders.
    public var description: String {
        switch self {
        case .passive: return "passive"
        case .active: return "active"
        default: return "scan type 0x\(Hex.encode([rawValue]))"
        }
    }
}
