import BLECore

/// The Code octet of an L2CAP signaling command (Core v5.4, Vol 3, Part A, 4, Table 4.2).
///
/// Names cover every code of the table, including those only valid on the BR/EDR signaling
/// channel (CID 0x0001); ``LESignalingCommand`` parses the codes allowed on LE-U and keeps the
/// rest raw. Unknown codes are kept raw.
public struct L2CAPSignalingCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: L2CAP_COMMAND_REJECT_RSP (ACL-U and LE-U).
    public static let commandReject = L2CAPSignalingCode(rawValue: 0x01)
    /// 0x02: L2CAP_CONNECTION_REQ (ACL-U only).
    public static let connectionRequest = L2CAPSignalingCode(rawValue: 0x02)
    /// 0x03: L2CAP_CONNECTION_RSP (ACL-U only).
    public static let connectionResponse = L2CAPSignalingCode(rawValue: 0x03)
    /// 0x04: L2CAP_CONFIGURATION_REQ (ACL-U only).
    public static let configurationRequest = L2CAPSignalingCode(rawValue: 0x04)
    /// 0x05: L2CAP_CONFIGURATION_RSP (ACL-U only).
    public static let configurationResponse = L2CAPSignalingCode(rawValue: 0x05)
    /// 0x06: L2CAP_DISCONNECTION_REQ (ACL-U and LE-U).
    public static let disconnectionRequest = L2CAPSignalingCode(rawValue: 0x06)
    /// 0x07: L2CAP_DISCONNECTION_RSP (ACL-U and LE-U).
    public static let disconnectionResponse = L2CAPSignalingCode(rawValue: 0x07)
    /// 0x08: L2CAP_ECHO_REQ (ACL-U only).
    public static let echoRequest = L2CAPSignalingCode(rawValue: 0x08)
    /// 0x09: L2CAP_ECHO_RSP (ACL-U only).
    public static let echoResponse = L2CAPSignalingCode(rawValue: 0x09)
    /// 0x0A: L2CAP_INFORMATION_REQ (ACL-U only).
    public static let informationRequest = L2CAPSignalingCode(rawValue: 0x0A)
    /// 0x0B: L2CAP_INFORMATION_RSP (ACL-U only).
    public static let informationResponse = L2CAPSignalingCode(rawValue: 0x0B)
    /// 0x12: L2CAP_CONNECTION_PARAMETER_UPDATE_REQ (LE-U only).
    public static let connectionParameterUpdateRequest = L2CAPSignalingCode(rawValue: 0x12)
    /// 0x13: L2CAP_CONNECTION_PARAMETER_UPDATE_RSP (LE-U only).
    public static let connectionParameterUpdateResponse = L2CAPSignalingCode(rawValue: 0x13)
    /// 0x14: L2CAP_LE_CREDIT_BASED_CONNECTION_REQ (LE-U only).
    public static let leCreditBasedConnectionRequest = L2CAPSignalingCode(rawValue: 0x14)
    /// 0x15: L2CAP_LE_CREDIT_BASED_CONNECTION_RSP (LE-U only).
    public static let leCreditBasedConnectionResponse = L2CAPSignalingCode(rawValue: 0x15)
    /// 0x16: L2CAP_FLOW_CONTROL_CREDIT_IND (ACL-U and LE-U).
    public static let flowControlCreditIndication = L2CAPSignalingCode(rawValue: 0x16)
    /// 0x17: L2CAP_CREDIT_BASED_CONNECTION_REQ (ACL-U and LE-U).
    public static let creditBasedConnectionRequest = L2CAPSignalingCode(rawValue: 0x17)
    /// 0x18: L2CAP_CREDIT_BASED_CONNECTION_RSP (ACL-U and LE-U).
    public static let creditBasedConnectionResponse = L2CAPSignalingCode(rawValue: 0x18)
    /// 0x19: L2CAP_CREDIT_BASED_RECONFIGURE_REQ (ACL-U and LE-U).
    public static let creditBasedReconfigureRequest = L2CAPSignalingCode(rawValue: 0x19)
    /// 0x1A: L2CAP_CREDIT_BASED_RECONFIGURE_RSP (ACL-U and LE-U).
    public static let creditBasedReconfigureResponse = L2CAPSignalingCode(rawValue: 0x1A)

    /// The command's name, nil for a reserved code.
    public var name: String? {
        switch rawValue {
        case 0x01: return "Command Reject"
        case 0x02: return "Connection Request"
        case 0x03: return "Connection Response"
        case 0x04: return "Configuration Request"
        case 0x05: return "Configuration Response"
        case 0x06: return "Disconnection Request"
        case 0x07: return "Disconnection Response"
        case 0x08: return "Echo Request"
        case 0x09: return "Echo Response"
        case 0x0A: return "Information Request"
        case 0x0B: return "Information Response"
        case 0x12: return "Connection Parameter Update Request"
        case 0x13: return "Connection Parameter Update Response"
        case 0x14: return "LE Credit Based Connection Request"
        case 0x15: return "LE Credit Based Connection Response"
        case 0x16: return "Flow Control Credit Indication"
        case 0x17: return "Credit Based Connection Request"
        case 0x18: return "Credit Based Connection Response"
        case 0x19: return "Credit Based Reconfigure Request"
        case 0x1A: return "Credit Based Reconfigure Response"
        default: return nil
        }
    }

    /// Whether the code answers or informs rather than asks: Command Reject, a response, or the
    /// Flow Control Credit Indication. Nothing answers such a packet: a response whose
    /// Identifier matches no request is discarded, and only a request gets Command Reject
    /// (Core v5.4, Vol 3, Part A, 4 and 4.1).
    public var isAnswerOrIndication: Bool {
        [0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x13, 0x15, 0x16, 0x18, 0x1A].contains(rawValue)
    }

    /// Whether the code may be used on the LE signaling channel (CID 0x0005), per Table 4.2.
    public var isAllowedOnLE: Bool {
        switch rawValue {
        case 0x01, 0x06, 0x07, 0x12...0x1A: return true
        default: return false
        }
    }

    /// "Connection Parameter Update Request (0x12)", or "signaling code 0x0c" when reserved.
    public var description: String {
        let number = "0x" + Hex.encode([rawValue])
        if let name { return "\(name) (\(number))" }
        return "signaling code \(number)"
    }
}
