import BLECore

/// The Operation parameter of HCI_LE_Set_Extended_Advertising_Data and
/// HCI_LE_Set_Extended_Scan_Response_Data: which part of the data this command carries
/// (Core v5.4, Vol 4, Part E, 7.8.54). Unknown values are kept raw.
public struct LEAdvertisingDataOperation: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: an intermediate fragment.
    public static let intermediateFragment = LEAdvertisingDataOperation(rawValue: 0x00)
    /// 0x01: the first fragment.
    public static let firstFragment = LEAdvertisingDataOperation(rawValue: 0x01)
    /// 0x02: the last fragment.
    public static let lastFragment = LEAdvertisingDataOperation(rawValue: 0x02)
    /// 0x03: the complete data.
    public static let complete = LEAdvertisingDataOperation(rawValue: 0x03)
    /// 0x04: unchanged data, only a new Advertising DID (advertising data only).
    public static let unchangedData = LEAdvertisingDataOperation(rawValue: 0x04)

    /// The value on one line, for logs and capture decoders.
    public var description: String {
        switch self {
        case .intermediateFragment: return "intermediate fragment"
        case .firstFragment: return "first fragment"
        case .lastFragment: return "last fragment"
        case .complete: return "complete"
        case .unchangedData: return "unchanged data"
        default: return "operation 0x\(Hex.encode([rawValue]))"
        }
    }
}

/// The Fragment_Preference parameter of the extended advertising data commands
/// (Core v5.4, Vol 4, Part E, 7.8.54). Unknown values are kept raw.
public struct LEFragmentPreference: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: the controller may fragment all data.
    public static let mayFragment = LEFragmentPreference(rawValue: 0x00)
    /// 0x01: the controller should not fragment, or should minimize fragmentation.
    public static let shouldNotFragment = LEFragmentPreference(rawValue: 0x01)

    /// The value on one line, for logs and capture decoders.
    public var description: String {
        switch self {
        case .mayFragment: return "may fragment"
        case .shouldNotFragment: return "should not fragment"
        default: return "fragment preference 0x\(Hex.encode([rawValue]))"
        }
    }
}
