/// Who may read and write a ``MutableCharacteristic``'s value, as Core Bluetooth's
/// `CBAttributePermissions` (Core v5.4, Vol 3, Part F, 3.2.5).
///
/// A request the permissions refuse is answered by the stack, before the application hears of
/// it: Read Not Permitted (0x02), Write Not Permitted (0x03), or, on a link that is not
/// encrypted, Insufficient Authentication (0x05) (Vol 3, Part C, 10.3.1).
public struct AttributePermissions: OptionSet, Hashable, Sendable {
    /// The bits.
    public let rawValue: UInt8

    /// Permissions from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The value may be read.
    public static let readable = AttributePermissions(rawValue: 0x01)
    /// The value may be written.
    public static let writeable = AttributePermissions(rawValue: 0x02)
    /// Reading needs an encrypted link (with ``readable``).
    public static let readEncryptionRequired = AttributePermissions(rawValue: 0x04)
    /// Writing needs an encrypted link (with ``writeable``).
    public static let writeEncryptionRequired = AttributePermissions(rawValue: 0x08)
}
