import BLECore

/// The Reason field of Pairing Failed (Core v5.4, Vol 3, Part H, 3.5.5, Table 3.7).
/// Unknown values are kept raw.
public struct SMPPairingFailedReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible, RawFieldValue {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: the user input of passkey failed, for example the user cancelled.
    public static let passkeyEntryFailed = SMPPairingFailedReason(rawValue: 0x01)
    /// 0x02: the OOB data is not available.
    public static let oobNotAvailable = SMPPairingFailedReason(rawValue: 0x02)
    /// 0x03: the IO capabilities of the devices cannot meet the authentication requirements.
    public static let authenticationRequirements = SMPPairingFailedReason(rawValue: 0x03)
    /// 0x04: the confirm value does not match the calculated compare value.
    public static let confirmValueFailed = SMPPairingFailedReason(rawValue: 0x04)
    /// 0x05: pairing is not supported by the device.
    public static let pairingNotSupported = SMPPairingFailedReason(rawValue: 0x05)
    /// 0x06: the resultant encryption key size is not long enough.
    public static let encryptionKeySize = SMPPairingFailedReason(rawValue: 0x06)
    /// 0x07: the SMP command received is not supported.
    public static let commandNotSupported = SMPPairingFailedReason(rawValue: 0x07)
    /// 0x08: pairing failed for an unspecified reason.
    public static let unspecifiedReason = SMPPairingFailedReason(rawValue: 0x08)
    /// 0x09: too little time has passed since the last pairing or security request.
    public static let repeatedAttempts = SMPPairingFailedReason(rawValue: 0x09)
    /// 0x0A: the command length is invalid or a parameter is out of range.
    public static let invalidParameters = SMPPairingFailedReason(rawValue: 0x0A)
    /// 0x0B: the DHKey Check value received does not match the one calculated.
    public static let dhKeyCheckFailed = SMPPairingFailedReason(rawValue: 0x0B)
    /// 0x0C: the confirm values of the numeric comparison do not match.
    public static let numericComparisonFailed = SMPPairingFailedReason(rawValue: 0x0C)
    /// 0x0D: pairing over BR/EDR is in progress.
    public static let brEdrPairingInProgress = SMPPairingFailedReason(rawValue: 0x0D)
    /// 0x0E: the BR/EDR link key or the LE LTK cannot be used to derive keys for the other transport.
    public static let crossTransportKeyDerivationNotAllowed = SMPPairingFailedReason(rawValue: 0x0E)
    /// 0x0F: the device chose not to accept a distributed key.
    public static let keyRejected = SMPPairingFailedReason(rawValue: 0x0F)

    /// The reason's name in the specification's words, nil when reserved.
    public var name: String? {
        switch rawValue {
        case 0x01: return "Passkey Entry Failed"
        case 0x02: return "OOB Not Available"
        case 0x03: return "Authentication Requirements"
        case 0x04: return "Confirm Value Failed"
        case 0x05: return "Pairing Not Supported"
        case 0x06: return "Encryption Key Size"
        case 0x07: return "Command Not Supported"
        case 0x08: return "Unspecified Reason"
        case 0x09: return "Repeated Attempts"
        case 0x0A: return "Invalid Parameters"
        case 0x0B: return "DHKey Check Failed"
        case 0x0C: return "Numeric Comparison Failed"
        case 0x0D: return "BR/EDR pairing in progress"
        case 0x0E: return "Cross-transport Key Derivation/Generation not allowed"
        case 0x0F: return "Key Rejected"
        default: return nil
        }
    }

    /// "Confirm Value Failed (0x04)", or "reason 0x10 (reserved)".
    public var description: String {
        let number = "0x" + Hex.encode([rawValue])
        return name.map { "\($0) (\(number))" } ?? "reason \(number) (reserved)"
    }
}
