import BLECore

/// The Advertising_Filter_Policy parameter: which scan and connection requests an advertiser
/// accepts (Core v5.4, Vol 4, Part E, 7.8.5 and 7.8.53). Unknown values are kept raw.
public struct LEAdvertisingFilterPolicy: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: scan and connection requests from any device.
    public static let acceptAll = LEAdvertisingFilterPolicy(rawValue: 0x00)
    /// 0x01: scan requests only from the Filter Accept List, connection requests from any device.
    public static let filterScanRequests = LEAdvertisingFilterPolicy(rawValue: 0x01)
    /// 0x02: scan requests from any device, connection requests only from the Filter Accept List.
    public static let filterConnectionRequests = LEAdvertisingFilterPolicy(rawValue: 0x02)
    /// 0x03: both only from the Filter Accept List.
    public static let filterBoth = LEAdvertisingFilterPolicy(rawValue: 0x03)

    /// The value on one line, for logs and capture decoders.
    public var description: String {
        switch self {
        case .acceptAll: return "accept all"
        case .filterScanRequests: return "filter scan requests"
        case .filterConnectionRequests: return "filter connection requests"
        case .filterBoth: return "filter scan and connection requests"
        default: return "advertising filter policy 0x\(Hex.encode([rawValue]))"
        }
    }
}
