import BLECore

/// The Own_Address_Type parameter of the LE scanning, advertising and connection commands:
/// which of its addresses the controller uses (Core v5.4, Vol 4, Part E, 7.8.5 and 7.8.10).
/// Unknown values are kept raw.
public struct LEOwnAddressType: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: the Public Device Address.
    public static let `public` = LEOwnAddressType(rawValue: 0x00)
    /// 0x01: the Random Device Address (set with HCI_LE_Set_Random_Address).
    public static let random = LEOwnAddressType(rawValue: 0x01)
    /// 0x02: a resolvable private address generated from the resolving list, or the public
    /// address when the list has no match.
    public static let resolvableOrPublic = LEOwnAddressType(rawValue: 0x02)
    /// 0x03: a resolvable private address generated from the resolving list, or the random
    /// address when the list has no match.
    public static let resolvableOrRandom = LEOwnAddressType(rawValue: 0x03)

    /// The value on one line, for logs and capture decoders.
    public var description: String {
        switch self {
        case .public: return "public"
        case .random: return "random"
        case .resolvableOrPublic: return "resolvable or public"
        case .resolvableOrRandom: return "resolvable or random"
        default: return "own address type 0x\(Hex.encode([rawValue]))"
        }
    }
}
