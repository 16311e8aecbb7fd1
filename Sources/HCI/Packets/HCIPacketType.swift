import BLECore

/// The HCI packet indicator that precedes every packet on an H4 (UART) transport and in
/// btsnoop/pcap H4 captures (Core v5.4, Vol 4, Part A, 2). Unknown indicators are kept raw.
public struct HCIPacketType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: HCI Command packet, host to controller.
    public static let command = HCIPacketType(rawValue: 0x01)
    /// 0x02: HCI ACL Data packet, both ways.
    public static let acl = HCIPacketType(rawValue: 0x02)
    /// 0x03: HCI Synchronous (SCO) Data packet, both ways.
    public static let sco = HCIPacketType(rawValue: 0x03)
    /// 0x04: HCI Event packet, controller to host.
    public static let event = HCIPacketType(rawValue: 0x04)
    /// 0x05: HCI ISO Data packet, both ways.
    public static let iso = HCIPacketType(rawValue: 0x05)

    /// The value on one line, for logs and capture decoders.
    public var description: String {
        switch self {
        case .command: return "Command"
        case .acl: return "ACL"
        case .sco: return "SCO"
        case .event: return "Event"
        case .iso: return "ISO"
        default: return "packet type 0x\(Hex.encode([rawValue]))"
        }
    }
}
