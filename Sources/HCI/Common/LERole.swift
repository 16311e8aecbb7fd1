import BLECore

/// The Role parameter of the LE connection events: this device's role in the new connection
/// (Core v5.4, Vol 4, Part E, 7.7.65.1). Unknown values are kept raw.
public struct LERole: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: Central (the device initiated the connection).
    public static let central = LERole(rawValue: 0x00)
    /// 0x01: Peripheral (the device was advertising).
    public static let peripheral = LERole(rawValue: 0x01)

    /// The value on one line, for logs and capture decoders.
    public var description: String {
        switch self {
        case .central: return "central"
        case .peripheral: return "peripheral"
        default: return "role 0x\(Hex.encode([rawValue]))"
        }
    }
}
