import BLECore

/// The IO Capability field of Pairing Request and Pairing Response
/// (Core v5.4, Vol 3, Part H, 3.5.1, Table 3.4). Unknown values are kept raw.
public struct SMPIOCapability: RawRepresentable, Hashable, Sendable, CustomStringConvertible, RawFieldValue {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: DisplayOnly.
    public static let displayOnly = SMPIOCapability(rawValue: 0x00)
    /// 0x01: DisplayYesNo.
    public static let displayYesNo = SMPIOCapability(rawValue: 0x01)
    /// 0x02: KeyboardOnly.
    public static let keyboardOnly = SMPIOCapability(rawValue: 0x02)
    /// 0x03: NoInputNoOutput.
    public static let noInputNoOutput = SMPIOCapability(rawValue: 0x03)
    /// 0x04: KeyboardDisplay.
    public static let keyboardDisplay = SMPIOCapability(rawValue: 0x04)

    /// "KeyboardDisplay", or "IO capability 0x05 (reserved)".
    public var description: String {
        switch self {
        case .displayOnly: return "DisplayOnly"
        case .displayYesNo: return "DisplayYesNo"
        case .keyboardOnly: return "KeyboardOnly"
        case .noInputNoOutput: return "NoInputNoOutput"
        case .keyboardDisplay: return "KeyboardDisplay"
        default: return "IO capability 0x\(Hex.encode([rawValue])) (reserved)"
        }
    }
}

/// The OOB data flag of Pairing Request and Pairing Response
/// (Core v5.4, Vol 3, Part H, 3.5.1, Table 3.5). Unknown values are kept raw.
public struct SMPOOBDataFlag: RawRepresentable, Hashable, Sendable, CustomStringConvertible, RawFieldValue {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: OOB Authentication data not present.
    public static let notPresent = SMPOOBDataFlag(rawValue: 0x00)
    /// 0x01: OOB Authentication data from remote device present.
    public static let present = SMPOOBDataFlag(rawValue: 0x01)

    /// "OOB data not present", "OOB data present", or "OOB data flag 0x02 (reserved)".
    public var description: String {
        switch self {
        case .notPresent: return "OOB data not present"
        case .present: return "OOB data present"
        default: return "OOB data flag 0x\(Hex.encode([rawValue])) (reserved)"
        }
    }
}
