import BLECore

/// The Code octet that starts every SMP command (Core v5.4, Vol 3, Part H, 3.3, Table 3.1).
/// Unknown codes are kept raw.
public struct SMPCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: Pairing Request.
    public static let pairingRequest = SMPCode(rawValue: 0x01)
    /// 0x02: Pairing Response.
    public static let pairingResponse = SMPCode(rawValue: 0x02)
    /// 0x03: Pairing Confirm.
    public static let pairingConfirm = SMPCode(rawValue: 0x03)
    /// 0x04: Pairing Random.
    public static let pairingRandom = SMPCode(rawValue: 0x04)
    /// 0x05: Pairing Failed.
    public static let pairingFailed = SMPCode(rawValue: 0x05)
    /// 0x06: Encryption Information.
    public static let encryptionInformation = SMPCode(rawValue: 0x06)
    /// 0x07: Central Identification.
    public static let centralIdentification = SMPCode(rawValue: 0x07)
    /// 0x08: Identity Information.
    public static let identityInformation = SMPCode(rawValue: 0x08)
    /// 0x09: Identity Address Information.
    public static let identityAddressInformation = SMPCode(rawValue: 0x09)
    /// 0x0A: Signing Information.
    public static let signingInformation = SMPCode(rawValue: 0x0A)
    /// 0x0B: Security Request.
    public static let securityRequest = SMPCode(rawValue: 0x0B)
    /// 0x0C: Pairing Public Key.
    public static let pairingPublicKey = SMPCode(rawValue: 0x0C)
    /// 0x0D: Pairing DHKey Check.
    public static let pairingDHKeyCheck = SMPCode(rawValue: 0x0D)
    /// 0x0E: Pairing Keypress Notification.
    public static let pairingKeypressNotification = SMPCode(rawValue: 0x0E)

    /// The command's name in the specification, nil for a reserved code.
    public var name: String? {
        switch rawValue {
        case 0x01: return "Pairing Request"
        case 0x02: return "Pairing Response"
        case 0x03: return "Pairing Confirm"
        case 0x04: return "Pairing Random"
        case 0x05: return "Pairing Failed"
        case 0x06: return "Encryption Information"
        case 0x07: return "Central Identification"
        case 0x08: return "Identity Information"
        case 0x09: return "Identity Address Information"
        case 0x0A: return "Signing Information"
        case 0x0B: return "Security Request"
        case 0x0C: return "Pairing Public Key"
        case 0x0D: return "Pairing DHKey Check"
        case 0x0E: return "Pairing Keypress Notification"
        default: return nil
        }
    }

    /// "Pairing Request (0x01)", or "SMP code 0x0f" when reserved.
    public var description: String {
        let number = "0x" + Hex.encode([rawValue])
        return name.map { "\($0) (\(number))" } ?? "SMP code \(number)"
    }
}
