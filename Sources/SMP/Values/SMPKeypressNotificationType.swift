import BLECore

/// The Notification Type of Pairing Keypress Notification
/// (Core v5.4, Vol 3, Part H, 3.5.8, Table 3.8). Unknown values are kept raw.
public struct SMPKeypressNotificationType: RawRepresentable, Hashable, Sendable, CustomStringConvertible, RawFieldValue {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0: Passkey entry started.
    public static let passkeyEntryStarted = SMPKeypressNotificationType(rawValue: 0)
    /// 1: Passkey digit entered.
    public static let passkeyDigitEntered = SMPKeypressNotificationType(rawValue: 1)
    /// 2: Passkey digit erased.
    public static let passkeyDigitErased = SMPKeypressNotificationType(rawValue: 2)
    /// 3: Passkey cleared.
    public static let passkeyCleared = SMPKeypressNotificationType(rawValue: 3)
    /// 4: Passkey entry completed.
    public static let passkeyEntryCompleted = SMPKeypressNotificationType(rawValue: 4)

    /// "passkey digit entered", or "notification type 0x05 (reserved)".
    public var description: String {
        switch self {
        case .passkeyEntryStarted: return "passkey entry started"
        case .passkeyDigitEntered: return "passkey digit entered"
        case .passkeyDigitErased: return "passkey digit erased"
        case .passkeyCleared: return "passkey cleared"
        case .passkeyEntryCompleted: return "passkey entry completed"
        default: return "notification type 0x\(Hex.encode([rawValue])) (reserved)"
        }
    }
}
