import BLECore

/// An HCI Event_Code (Core v5.4, Vol 4, Part E, 7.7). 0xFF is reserved for vendor-specific
/// events (Vol 4, Part E, 5.4.4). Unknown values are kept raw.
public struct HCIEventCode: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x05: HCI_Disconnection_Complete (7.7.5).
    public static let disconnectionComplete = HCIEventCode(rawValue: 0x05)
    /// 0x08: HCI_Encryption_Change [v1] (7.7.8).
    public static let encryptionChange = HCIEventCode(rawValue: 0x08)
    /// 0x0C: HCI_Read_Remote_Version_Information_Complete (7.7.12).
    public static let readRemoteVersionInformationComplete = HCIEventCode(rawValue: 0x0C)
    /// 0x0E: HCI_Command_Complete (7.7.14).
    public static let commandComplete = HCIEventCode(rawValue: 0x0E)
    /// 0x0F: HCI_Command_Status (7.7.15).
    public static let commandStatus = HCIEventCode(rawValue: 0x0F)
    /// 0x10: HCI_Hardware_Error (7.7.16).
    public static let hardwareError = HCIEventCode(rawValue: 0x10)
    /// 0x13: HCI_Number_Of_Completed_Packets (7.7.19).
    public static let numberOfCompletedPackets = HCIEventCode(rawValue: 0x13)
    /// 0x1A: HCI_Data_Buffer_Overflow (7.7.26).
    public static let dataBufferOverflow = HCIEventCode(rawValue: 0x1A)
    /// 0x30: HCI_Encryption_Key_Refresh_Complete (7.7.39).
    public static let encryptionKeyRefreshComplete = HCIEventCode(rawValue: 0x30)
    /// 0x3E: HCI_LE_Meta (7.7.65); its first parameter is a ``LEMetaSubeventCode``.
    public static let leMeta = HCIEventCode(rawValue: 0x3E)
    /// 0x57: HCI_Authenticated_Payload_Timeout_Expired (7.7.75).
    public static let authenticatedPayloadTimeoutExpired = HCIEventCode(rawValue: 0x57)
    /// 0x59: HCI_Encryption_Change [v2] (7.7.8), which adds Encryption_Key_Size.
    public static let encryptionChangeV2 = HCIEventCode(rawValue: 0x59)
    /// 0xFF: vendor-specific event.
    public static let vendorSpecific = HCIEventCode(rawValue: 0xFF)

    /// The event's name in the specification's words (as in "Disconnection Complete"); nil when
    /// this package does not know it.
    public var name: String? {
        switch rawValue {
        case 0x01: return "Inquiry Complete"
        case 0x02: return "Inquiry Result"
        case 0x03: return "Connection Complete"
        case 0x04: return "Connection Request"
        case 0x05: return "Disconnection Complete"
        case 0x06: return "Authentication Complete"
        case 0x07: return "Remote Name Request Complete"
        case 0x08: return "Encryption Change [v1]"
        case 0x09: return "Change Connection Link Key Complete"
        case 0x0B: return "Read Remote Supported Features Complete"
        case 0x0C: return "Read Remote Version Information Complete"
        case 0x0D: return "QoS Setup Complete"
        case 0x0E: return "Command Complete"
        case 0x0F: return "Command Status"
        case 0x10: return "Hardware Error"
        case 0x11: return "Flush Occurred"
        case 0x12: return "Role Change"
        case 0x13: return "Number Of Completed Packets"
        case 0x14: return "Mode Change"
        case 0x15: return "Return Link Keys"
        case 0x16: return "PIN Code Request"
        case 0x17: return "Link Key Request"
        case 0x18: return "Link Key Notification"
        case 0x19: return "Loopback Command"
        case 0x1A: return "Data Buffer Overflow"
        case 0x1B: return "Max Slots Change"
        case 0x1C: return "Read Clock Offset Complete"
        case 0x1D: return "Connection Packet Type Changed"
        case 0x1E: return "QoS Violation"
        case 0x20: return "Page Scan Repetition Mode Change"
        case 0x21: return "Flow Specification Complete"
        case 0x22: return "Inquiry Result with RSSI"
        case 0x23: return "Read Remote Extended Features Complete"
        case 0x2C: return "Synchronous Connection Complete"
        case 0x2D: return "Synchronous Connection Changed"
        case 0x2E: return "Sniff Subrating"
        case 0x2F: return "Extended Inquiry Result"
        case 0x30: return "Encryption Key Refresh Complete"
        case 0x31: return "IO Capability Request"
        case 0x32: return "IO Capability Response"
        case 0x33: return "User Confirmation Request"
        case 0x34: return "User Passkey Request"
        case 0x35: return "Remote OOB Data Request"
        case 0x36: return "Simple Pairing Complete"
        case 0x38: return "Link Supervision Timeout Changed"
        case 0x39: return "Enhanced Flush Complete"
        case 0x3B: return "User Passkey Notification"
        case 0x3C: return "Keypress Notification"
        case 0x3D: return "Remote Host Supported Features Notification"
        case 0x3E: return "LE Meta"
        case 0x57: return "Authenticated Payload Timeout Expired"
        case 0x59: return "Encryption Change [v2]"
        case 0xFF: return "Vendor Specific"
        default: return nil
        }
    }

    /// The event's name, or "Event 0x42" when it has none here.
    public var description: String { name ?? "Event 0x\(Hex.encode([rawValue]).uppercased())" }
}
