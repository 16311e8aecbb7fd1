import BLECore

/// The Advertising_Type parameter of HCI_LE_Set_Advertising_Parameters: the legacy advertising
/// PDU to send (Core v5.4, Vol 4, Part E, 7.8.5). Unknown values are kept raw.
public struct LEAdvertisingType: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: connectable and scannable undirected (ADV_IND), the default.
    public static let advInd = LEAdvertisingType(rawValue: 0x00)
    /// 0x01: connectable high duty cycle directed (ADV_DIRECT_IND).
    public static let advDirectIndHighDutyCycle = LEAdvertisingType(rawValue: 0x01)
    /// 0x02: scannable undirected (ADV_SCAN_IND).
    public static let advScanInd = LEAdvertisingType(rawValue: 0x02)
    /// 0x03: non-connectable undirected (ADV_NONCONN_IND).
    public static let advNonconnInd = LEAdvertisingType(rawValue: 0x03)
    /// 0x04: connectable low duty cycle directed (ADV_DIRECT_IND).
    public static let advDirectIndLowDutyCycle = LEAdvertisingType(rawValue: 0x04)

    /// The value on one line, for logs and capture decoders.
    public var description: String {
        switch self {
        case .advInd: return "ADV_IND"
        case .advDirectIndHighDutyCycle: return "ADV_DIRECT_IND (high duty cycle)"
        case .advScanInd: return "ADV_SCAN_IND"
        case .advNonconnInd: return "ADV_NONCONN_IND"
        case .advDirectIndLowDutyCycle: return "ADV_DIRECT_IND (low duty cycle)"
        default: return "advertising type 0x\(Hex.encode([rawValue]))"
        }
    }
}
