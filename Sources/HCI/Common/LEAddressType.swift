import BLECore

/// An HCI LE address-type parameter such as Address_Type, Peer_Address_Type or
/// Direct_Address_Type (Core v5.4, Vol 4, Part E, 7.7.65.2 and 7.7.65.13). Unknown values are
/// kept raw.
public struct LEAddressType: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: Public Device Address.
    public static let `public` = LEAddressType(rawValue: 0x00)
    /// 0x01: Random Device Address.
    public static let random = LEAddressType(rawValue: 0x01)
    /// 0x02: Public Identity Address (resolved from a resolvable private address by the controller).
    public static let publicIdentity = LEAddressType(rawValue: 0x02)
    /// 0x03: Random (static) Identity Address (resolved by the controller).
    public static let randomIdentity = LEAddressType(rawValue: 0x03)
    /// 0xFF: no address provided (anonymous advertisement, extended reports only).
    public static let anonymous = LEAddressType(rawValue: 0xFF)

    /// Whether the address is a random device address (the random types and the random identity).
    public var isRandom: Bool { self == .random || self == .randomIdentity }

    /// The address kind of `address` under this type, nil for anonymous and unknown values.
    public func addressKind(of address: BluetoothAddress) -> BluetoothAddressType? {
        switch self {
        case .public, .publicIdentity: return .public
        case .random, .randomIdentity: return BluetoothAddressType(address: address, isRandom: true)
        default: return nil
        }
    }

    /// The value on one line, for logs and capture decoders.
    public var description: String {
        switch self {
        case .public: return "public"
        case .random: return "random"
        case .publicIdentity: return "public identity"
        case .randomIdentity: return "random identity"
        case .anonymous: return "anonymous"
        default: return "address type 0x\(Hex.encode([rawValue]))"
        }
    }
}
