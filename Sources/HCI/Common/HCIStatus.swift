import BLECore

/// An HCI status or error code, as Status and Reason parameters carry it
/// (Core v5.4, Vol 1, Part F, 1.3, "List of Error Codes"). Unknown values are kept raw.
///
/// 0x00 is success; every other value is an error, and ``HCIStatus`` is itself an `Error` so a
/// host can throw the status a controller returned.
public struct HCIStatus: HCIFieldValue, Error {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: Success.
    public static let success = HCIStatus(rawValue: 0x00)
    /// 0x01: Unknown HCI Command.
    public static let unknownHCICommand = HCIStatus(rawValue: 0x01)
    /// 0x02: Unknown Connection Identifier.
    public static let unknownConnectionIdentifier = HCIStatus(rawValue: 0x02)
    /// 0x03: Hardware Failure.
    public static let hardwareFailure = HCIStatus(rawValue: 0x03)
    /// 0x04: Page Timeout.
    public static let pageTimeout = HCIStatus(rawValue: 0x04)
    /// 0x05: Authentication Failure.
    public static let authenticationFailure = HCIStatus(rawValue: 0x05)
    /// 0x06: PIN or Key Missing.
    public static let pinOrKeyMissing = HCIStatus(rawValue: 0x06)
    /// 0x07: Memory Capacity Exceeded.
    public static let memoryCapacityExceeded = HCIStatus(rawValue: 0x07)
    /// 0x08: Connection Timeout.
    public static let connectionTimeout = HCIStatus(rawValue: 0x08)
    /// 0x09: Connection Limit Exceeded.
    public static let connectionLimitExceeded = HCIStatus(rawValue: 0x09)
    /// 0x0A: Synchronous Connection Limit To A Device Exceeded.
    public static let synchronousConnectionLimitExceeded = HCIStatus(rawValue: 0x0A)
    /// 0x0B: Connection Already Exists.
    public static let connectionAlreadyExists = HCIStatus(rawValue: 0x0B)
    /// 0x0C: Command Disallowed.
    public static let commandDisallowed = HCIStatus(rawValue: 0x0C)
    /// 0x0D: Connection Rejected due to Limited Resources.
    public static let connectionRejectedLimitedResources = HCIStatus(rawValue: 0x0D)
    /// 0x0E: Connection Rejected Due To Security Reasons.
    public static let connectionRejectedSecurityReasons = HCIStatus(rawValue: 0x0E)
    /// 0x0F: Connection Rejected due to Unacceptable BD_ADDR.
    public static let connectionRejectedUnacceptableBDADDR = HCIStatus(rawValue: 0x0F)
    /// 0x10: Connection Accept Timeout Exceeded.
    public static let connectionAcceptTimeoutExceeded = HCIStatus(rawValue: 0x10)
    /// 0x11: Unsupported Feature or Parameter Value.
    public static let unsupportedFeatureOrParameterValue = HCIStatus(rawValue: 0x11)
    /// 0x12: Invalid HCI Command Parameters.
    public static let invalidHCICommandParameters = HCIStatus(rawValue: 0x12)
    /// 0x13: Remote User Terminated Connection.
    public static let remoteUserTerminatedConnection = HCIStatus(rawValue: 0x13)
    /// 0x14: Remote Device Terminated Connection due to Low Resources.
    public static let remoteDeviceTerminatedLowResources = HCIStatus(rawValue: 0x14)
    /// 0x15: Remote Device Terminated Connection due to Power Off.
    public static let remoteDeviceTerminatedPowerOff = HCIStatus(rawValue: 0x15)
    /// 0x16: Connection Terminated By Local Host.
    public static let connectionTerminatedByLocalHost = HCIStatus(rawValue: 0x16)
    /// 0x17: Repeated Attempts.
    public static let repeatedAttempts = HCIStatus(rawValue: 0x17)
    /// 0x18: Pairing Not Allowed.
    public static let pairingNotAllowed = HCIStatus(rawValue: 0x18)
    /// 0x19: Unknown LMP PDU.
    public static let unknownLMPPDU = HCIStatus(rawValue: 0x19)
    /// 0x1A: Unsupported Remote Feature.
    public static let unsupportedRemoteFeature = HCIStatus(rawValue: 0x1A)
    /// 0x1B: SCO Offset Rejected.
    public static let scoOffsetRejected = HCIStatus(rawValue: 0x1B)
    /// 0x1C: SCO Interval Rejected.
    public static let scoIntervalRejected = HCIStatus(rawValue: 0x1C)
    /// 0x1D: SCO Air Mode Rejected.
    public static let scoAirModeRejected = HCIStatus(rawValue: 0x1D)
    /// 0x1E: Invalid LMP Parameters / Invalid LL Parameters.
    public static let invalidLLParameters = HCIStatus(rawValue: 0x1E)
    /// 0x1F: Unspecified Error.
    public static let unspecifiedError = HCIStatus(rawValue: 0x1F)
    /// 0x20: Unsupported LMP Parameter Value / Unsupported LL Parameter Value.
    public static let unsupportedLLParameterValue = HCIStatus(rawValue: 0x20)
    /// 0x21: Role Change Not Allowed.
    public static let roleChangeNotAllowed = HCIStatus(rawValue: 0x21)
    /// 0x22: LMP Response Timeout / LL Response Timeout.
    public static let llResponseTimeout = HCIStatus(rawValue: 0x22)
    /// 0x23: LMP Error Transaction Collision / LL Procedure Collision.
    public static let llProcedureCollision = HCIStatus(rawValue: 0x23)
    /// 0x24: LMP PDU Not Allowed.
    public static let lmpPDUNotAllowed = HCIStatus(rawValue: 0x24)
    /// 0x25: Encryption Mode Not Acceptable.
    public static let encryptionModeNotAcceptable = HCIStatus(rawValue: 0x25)
    /// 0x26: Link Key cannot be Changed.
    public static let linkKeyCannotBeChanged = HCIStatus(rawValue: 0x26)
    /// 0x27: Requested QoS Not Supported.
    public static let requestedQoSNotSupported = HCIStatus(rawValue: 0x27)
    /// 0x28: Instant Passed.
    public static let instantPassed = HCIStatus(rawValue: 0x28)
    /// 0x29: Pairing With Unit Key Not Supported.
    public static let pairingWithUnitKeyNotSupported = HCIStatus(rawValue: 0x29)
    /// 0x2A: Different Transaction Collision.
    public static let differentTransactionCollision = HCIStatus(rawValue: 0x2A)
    /// 0x2C: QoS Unacceptable Parameter.
    public static let qosUnacceptableParameter = HCIStatus(rawValue: 0x2C)
    /// 0x2D: QoS Rejected.
    public static let qosRejected = HCIStatus(rawValue: 0x2D)
    /// 0x2E: Channel Classification Not Supported.
    public static let channelClassificationNotSupported = HCIStatus(rawValue: 0x2E)
    /// 0x2F: Insufficient Security.
    public static let insufficientSecurity = HCIStatus(rawValue: 0x2F)
    /// 0x30: Parameter Out Of Mandatory Range.
    public static let parameterOutOfMandatoryRange = HCIStatus(rawValue: 0x30)
    /// 0x32: Role Switch Pending.
    public static let roleSwitchPending = HCIStatus(rawValue: 0x32)
    /// 0x34: Reserved Slot Violation.
    public static let reservedSlotViolation = HCIStatus(rawValue: 0x34)
    /// 0x35: Role Switch Failed.
    public static let roleSwitchFailed = HCIStatus(rawValue: 0x35)
    /// 0x36: Extended Inquiry Response Too Large.
    public static let extendedInquiryResponseTooLarge = HCIStatus(rawValue: 0x36)
    /// 0x37: Secure Simple Pairing Not Supported By Host.
    public static let secureSimplePairingNotSupportedByHost = HCIStatus(rawValue: 0x37)
    /// 0x38: Host Busy - Pairing.
    public static let hostBusyPairing = HCIStatus(rawValue: 0x38)
    /// 0x39: Connection Rejected due to No Suitable Channel Found.
    public static let connectionRejectedNoSuitableChannelFound = HCIStatus(rawValue: 0x39)
    /// 0x3A: Controller Busy.
    public static let controllerBusy = HCIStatus(rawValue: 0x3A)
    /// 0x3B: Unacceptable Connection Parameters.
    public static let unacceptableConnectionParameters = HCIStatus(rawValue: 0x3B)
    /// 0x3C: Advertising Timeout.
    public static let advertisingTimeout = HCIStatus(rawValue: 0x3C)
    /// 0x3D: Connection Terminated due to MIC Failure.
    public static let connectionTerminatedMICFailure = HCIStatus(rawValue: 0x3D)
    /// 0x3E: Connection Failed to be Established / Synchronization Timeout.
    public static let connectionFailedToBeEstablished = HCIStatus(rawValue: 0x3E)
    /// 0x3F: Previously used (MAC Connection Failed, for the AMP controllers removed in v5.3).
    public static let previouslyUsed3F = HCIStatus(rawValue: 0x3F)
    /// 0x40: Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging.
    public static let coarseClockAdjustmentRejected = HCIStatus(rawValue: 0x40)
    /// 0x41: Type0 Submap Not Defined.
    public static let type0SubmapNotDefined = HCIStatus(rawValue: 0x41)
    /// 0x42: Unknown Advertising Identifier.
    public static let unknownAdvertisingIdentifier = HCIStatus(rawValue: 0x42)
    /// 0x43: Limit Reached.
    public static let limitReached = HCIStatus(rawValue: 0x43)
    /// 0x44: Operation Cancelled by Host.
    public static let operationCancelledByHost = HCIStatus(rawValue: 0x44)
    /// 0x45: Packet Too Long.
    public static let packetTooLong = HCIStatus(rawValue: 0x45)
    /// 0x46: Too Late.
    public static let tooLate = HCIStatus(rawValue: 0x46)
    /// 0x47: Too Early.
    public static let tooEarly = HCIStatus(rawValue: 0x47)

    /// Whether this is 0x00, Success.
    public var isSuccess: Bool { rawValue == 0 }

    /// The error code's name in Vol 1, Part F, 1.3; nil for reserved and unknown values.
    public var name: String? {
        switch rawValue {
        case 0x00: return "Success"
        case 0x01: return "Unknown HCI Command"
        case 0x02: return "Unknown Connection Identifier"
        case 0x03: return "Hardware Failure"
        case 0x04: return "Page Timeout"
        case 0x05: return "Authentication Failure"
        case 0x06: return "PIN or Key Missing"
        case 0x07: return "Memory Capacity Exceeded"
        case 0x08: return "Connection Timeout"
        case 0x09: return "Connection Limit Exceeded"
        case 0x0A: return "Synchronous Connection Limit To A Device Exceeded"
        case 0x0B: return "Connection Already Exists"
        case 0x0C: return "Command Disallowed"
        case 0x0D: return "Connection Rejected due to Limited Resources"
        case 0x0E: return "Connection Rejected Due To Security Reasons"
        case 0x0F: return "Connection Rejected due to Unacceptable BD_ADDR"
        case 0x10: return "Connection Accept Timeout Exceeded"
        case 0x11: return "Unsupported Feature or Parameter Value"
        case 0x12: return "Invalid HCI Command Parameters"
        case 0x13: return "Remote User Terminated Connection"
        case 0x14: return "Remote Device Terminated Connection due to Low Resources"
        case 0x15: return "Remote Device Terminated Connection due to Power Off"
        case 0x16: return "Connection Terminated By Local Host"
        case 0x17: return "Repeated Attempts"
        case 0x18: return "Pairing Not Allowed"
        case 0x19: return "Unknown LMP PDU"
        case 0x1A: return "Unsupported Remote Feature"
        case 0x1B: return "SCO Offset Rejected"
        case 0x1C: return "SCO Interval Rejected"
        case 0x1D: return "SCO Air Mode Rejected"
        case 0x1E: return "Invalid LMP Parameters / Invalid LL Parameters"
        case 0x1F: return "Unspecified Error"
        case 0x20: return "Unsupported LMP Parameter Value / Unsupported LL Parameter Value"
        case 0x21: return "Role Change Not Allowed"
        case 0x22: return "LMP Response Timeout / LL Response Timeout"
        case 0x23: return "LMP Error Transaction Collision / LL Procedure Collision"
        case 0x24: return "LMP PDU Not Allowed"
        case 0x25: return "Encryption Mode Not Acceptable"
        case 0x26: return "Link Key cannot be Changed"
        case 0x27: return "Requested QoS Not Supported"
        case 0x28: return "Instant Passed"
        case 0x29: return "Pairing With Unit Key Not Supported"
        case 0x2A: return "Different Transaction Collision"
        case 0x2C: return "QoS Unacceptable Parameter"
        case 0x2D: return "QoS Rejected"
        case 0x2E: return "Channel Classification Not Supported"
        case 0x2F: return "Insufficient Security"
        case 0x30: return "Parameter Out Of Mandatory Range"
        case 0x32: return "Role Switch Pending"
        case 0x34: return "Reserved Slot Violation"
        case 0x35: return "Role Switch Failed"
        case 0x36: return "Extended Inquiry Response Too Large"
        case 0x37: return "Secure Simple Pairing Not Supported By Host"
        case 0x38: return "Host Busy - Pairing"
        case 0x39: return "Connection Rejected due to No Suitable Channel Found"
        case 0x3A: return "Controller Busy"
        case 0x3B: return "Unacceptable Connection Parameters"
        case 0x3C: return "Advertising Timeout"
        case 0x3D: return "Connection Terminated due to MIC Failure"
        case 0x3E: return "Connection Failed to be Established / Synchronization Timeout"
        case 0x3F: return "Previously used"
        case 0x40: return "Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging"
        case 0x41: return "Type0 Submap Not Defined"
        case 0x42: return "Unknown Advertising Identifier"
        case 0x43: return "Limit Reached"
        case 0x44: return "Operation Cancelled by Host"
        case 0x45: return "Packet Too Long"
        case 0x46: return "Too Late"
        case 0x47: return "Too Early"
        default: return nil
        }
    }

    /// "Success", or an error's name with its code, as in "Remote User Terminated Connection (0x13)";
    /// "reserved (0x2B)" for a value the specification does not define.
    public var description: String {
        if rawValue == 0 { return "Success" }
        return "\(name ?? "reserved") (0x\(Hex.encode([rawValue]).uppercased()))"
    }
}
