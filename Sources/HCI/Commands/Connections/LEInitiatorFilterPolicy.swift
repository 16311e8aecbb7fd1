import BLECore

/// The Initiator_Filter_Policy parameter: whom a central connects to
/// (Core v5.4, Vol 4, Part E, 7.8.12 and 7.8.66). Unknown values are kept raw.
public struct LEInitiatorFilterPolicy: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: the peer given by Peer_Address_Type and Peer_Address.
    public static let peerAddress = LEInitiatorFilterPolicy(rawValue: 0x00)
    /// 0x01: any device in the Filter Accept List; the peer address is ignored.
    public static let filterAcceptList = LEInitiatorFilterPolicy(rawValue: 0x01)

    /// The value on one line, for logs and capture decoders.
    public var description: String {
        switch self {
        case .peerAddress: return "peer address"
        case .filterAcceptList: return "filter accept list"
        default: return "initiator filter policy 0x\(Hex.encode([rawValue]))"
        }
    }
}
