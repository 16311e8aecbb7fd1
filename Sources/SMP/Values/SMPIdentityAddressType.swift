import BLECore

/// The AddrType field of Identity Address Information
/// (Core v5.4, Vol 3, Part H, 3.6.5). Unknown values are kept raw.
public struct SMPIdentityAddressType: RawRepresentable, Hashable, Sendable, CustomStringConvertible, RawFieldValue {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: Public Device Address.
    public static let `public` = SMPIdentityAddressType(rawValue: 0x00)
    /// 0x01: Static Random Device Address.
    public static let staticRandom = SMPIdentityAddressType(rawValue: 0x01)

    /// "public", "random static", or "address type 0x02 (reserved)".
    public var description: String {
        switch self {
        case .public: return "public"
        case .staticRandom: return "random static"
        default: return "address type 0x\(Hex.encode([rawValue])) (reserved)"
        }
    }
}
