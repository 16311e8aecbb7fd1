import BLECore

/// The Subevent_Code that starts every HCI_LE_Meta event's parameters
/// (Core v5.4, Vol 4, Part E, 7.7.65). Unknown values are kept raw.
public struct LEMetaSubeventCode: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: HCI_LE_Connection_Complete (7.7.65.1).
    public static let connectionComplete = LEMetaSubeventCode(rawValue: 0x01)
    /// 0x02: HCI_LE_Advertising_Report (7.7.65.2).
    public static let advertisingReport = LEMetaSubeventCode(rawValue: 0x02)
    /// 0x03: HCI_LE_Connection_Update_Complete (7.7.65.3).
    public static let connectionUpdateComplete = LEMetaSubeventCode(rawValue: 0x03)
    /// 0x04: HCI_LE_Read_Remote_Features_Complete (7.7.65.4).
    public static let readRemoteFeaturesComplete = LEMetaSubeventCode(rawValue: 0x04)
    /// 0x05: HCI_LE_Long_Term_Key_Request (7.7.65.5).
    public static let longTermKeyRequest = LEMetaSubeventCode(rawValue: 0x05)
    /// 0x06: HCI_LE_Remote_Connection_Parameter_Request (7.7.65.6).
    public static let remoteConnectionParameterRequest = LEMetaSubeventCode(rawValue: 0x06)
    /// 0x07: HCI_LE_Data_Length_Change (7.7.65.7).
    public static let dataLengthChange = LEMetaSubeventCode(rawValue: 0x07)
    /// 0x0A: HCI_LE_Enhanced_Connection_Complete [v1] (7.7.65.10).
    public static let enhancedConnectionComplete = LEMetaSubeventCode(rawValue: 0x0A)
    /// 0x0C: HCI_LE_PHY_Update_Complete (7.7.65.12).
    public static let phyUpdateComplete = LEMetaSubeventCode(rawValue: 0x0C)
    /// 0x0D: HCI_LE_Extended_Advertising_Report (7.7.65.13).
    public static let extendedAdvertisingReport = LEMetaSubeventCode(rawValue: 0x0D)
    /// 0x12: HCI_LE_Advertising_Set_Terminated (7.7.65.18).
    public static let advertisingSetTerminated = LEMetaSubeventCode(rawValue: 0x12)
    /// 0x14: HCI_LE_Channel_Selection_Algorithm (7.7.65.20).
    public static let channelSelectionAlgorithm = LEMetaSubeventCode(rawValue: 0x14)
    /// 0x29: HCI_LE_Enhanced_Connection_Complete [v2] (7.7.65.10).
    public static let enhancedConnectionCompleteV2 = LEMetaSubeventCode(rawValue: 0x29)

    /// The subevent's name in the specification's words (as in "LE Connection Complete"): every
    /// subevent that Core v5.4 defines (0x01 to 0x29, Vol 4, Part E, 7.7.65); nil for any other value.
    public var name: String? {
        switch rawValue {
        case 0x01: return "LE Connection Complete"
        case 0x02: return "LE Advertising Report"
        case 0x03: return "LE Connection Update Complete"
        case 0x04: return "LE Read Remote Features Complete"
        case 0x05: return "LE Long Term Key Request"
        case 0x06: return "LE Remote Connection Parameter Request"
        case 0x07: return "LE Data Length Change"
        case 0x08: return "LE Read Local P-256 Public Key Complete"
        case 0x09: return "LE Generate DHKey Complete"
        case 0x0A: return "LE Enhanced Connection Complete [v1]"
        case 0x0B: return "LE Directed Advertising Report"
        case 0x0C: return "LE PHY Update Complete"
        case 0x0D: return "LE Extended Advertising Report"
        case 0x0E: return "LE Periodic Advertising Sync Established [v1]"
        case 0x0F: return "LE Periodic Advertising Report [v1]"
        case 0x10: return "LE Periodic Advertising Sync Lost"
        case 0x11: return "LE Scan Timeout"
        case 0x12: return "LE Advertising Set Terminated"
        case 0x13: return "LE Scan Request Received"
        case 0x14: return "LE Channel Selection Algorithm"
        case 0x15: return "LE Connectionless IQ Report"
        case 0x16: return "LE Connection IQ Report"
        case 0x17: return "LE CTE Request Failed"
        case 0x18: return "LE Periodic Advertising Sync Transfer Received [v1]"
        case 0x19: return "LE CIS Established [v1]"
        case 0x1A: return "LE CIS Request"
        case 0x1B: return "LE Create BIG Complete"
        case 0x1C: return "LE Terminate BIG Complete"
        case 0x1D: return "LE BIG Sync Established"
        case 0x1E: return "LE BIG Sync Lost"
        case 0x1F: return "LE Request Peer SCA Complete"
        case 0x20: return "LE Path Loss Threshold"
        case 0x21: return "LE Transmit Power Reporting"
        case 0x22: return "LE BIGInfo Advertising Report"
        case 0x23: return "LE Subrate Change"
        case 0x24: return "LE Periodic Advertising Sync Established [v2]"
        case 0x25: return "LE Periodic Advertising Report [v2]"
        case 0x26: return "LE Periodic Advertising Sync Transfer Received [v2]"
        case 0x27: return "LE Periodic Advertising Subevent Data Request"
        case 0x28: return "LE Periodic Advertising Response Report"
        case 0x29: return "LE Enhanced Connection Complete [v2]"
        default: return nil
        }
    }

    /// The subevent's name, or "LE subevent 0x42" when it has none here.
    public var description: String { name ?? "LE subevent 0x\(Hex.encode([rawValue]).uppercased())" }
}
