import BLECore
import HCI

/// The Packet Type octet of an Apple PacketLogger (.pklg) record: an HCI packet with its
/// direction, an LMP or SCO packet, or one of the logger's text records (notes, system log
/// lines, kernel messages). Unknown values are kept raw, and their records are listed, not
/// decoded.
public struct PacketLoggerPacketType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: an HCI Command packet, host to controller.
    public static let hciCommand = PacketLoggerPacketType(rawValue: 0x00)
    /// 0x01: an HCI Event packet, controller to host.
    public static let hciEvent = PacketLoggerPacketType(rawValue: 0x01)
    /// 0x02: an HCI ACL Data packet the host sent.
    public static let sentACL = PacketLoggerPacketType(rawValue: 0x02)
    /// 0x03: an HCI ACL Data packet the host received.
    public static let receivedACL = PacketLoggerPacketType(rawValue: 0x03)
    /// 0x08: an HCI Synchronous Data packet the host sent.
    public static let sentSCO = PacketLoggerPacketType(rawValue: 0x08)
    /// 0x09: an HCI Synchronous Data packet the host received.
    public static let receivedSCO = PacketLoggerPacketType(rawValue: 0x09)
    /// 0x0A: a BR/EDR LMP packet sent (kept raw).
    public static let sentLMP = PacketLoggerPacketType(rawValue: 0x0A)
    /// 0x0B: a BR/EDR LMP packet received (kept raw).
    public static let receivedLMP = PacketLoggerPacketType(rawValue: 0x0B)
    /// 0xF7: a system log line.
    public static let syslog = PacketLoggerPacketType(rawValue: 0xF7)
    /// 0xF8: a kernel message.
    public static let kernel = PacketLoggerPacketType(rawValue: 0xF8)
    /// 0xF9: a kernel debug message.
    public static let kernelDebug = PacketLoggerPacketType(rawValue: 0xF9)
    /// 0xFA: an error message.
    public static let error = PacketLoggerPacketType(rawValue: 0xFA)
    /// 0xFB: a power state message.
    public static let power = PacketLoggerPacketType(rawValue: 0xFB)
    /// 0xFC: a note, typed by the user or written by the logger.
    public static let note = PacketLoggerPacketType(rawValue: 0xFC)
    /// 0xFD: a configuration message.
    public static let config = PacketLoggerPacketType(rawValue: 0xFD)
    /// 0xFE: a controller was added.
    public static let newController = PacketLoggerPacketType(rawValue: 0xFE)

    /// The HCI packet type and direction of the HCI types (Core v5.4, Vol 4, Part E, 5.4);
    /// nil for LMP, text and unknown types.
    public var hciPacket: (type: HCIPacketType, direction: CaptureDirection)? {
        switch rawValue {
        case 0x00: return (.command, .hostToController)
        case 0x01: return (.event, .controllerToHost)
        case 0x02: return (.acl, .hostToController)
        case 0x03: return (.acl, .controllerToHost)
        case 0x08: return (.sco, .hostToController)
        case 0x09: return (.sco, .controllerToHost)
        default: return nil
        }
    }

    /// Whether the record's payload is text (0xF7...0xFE), shown as text and never decoded as HCI.
    public var isText: Bool { rawValue >= 0xF7 && rawValue <= 0xFE }

    /// Whether the type is one of the values above.
    public var isKnown: Bool { hciPacket != nil || isText || self == .sentLMP || self == .receivedLMP }

    /// The type for an HCI packet of `type` travelling in `direction`; nil when PacketLogger
    /// has none (ISO data, data with an unknown direction).
    public static func forHCIPacket(_ type: HCIPacketType, direction: CaptureDirection) -> PacketLoggerPacketType? {
        switch (type, direction) {
        case (.command, _): return .hciCommand
        case (.event, _): return .hciEvent
        case (.acl, .hostToController): return .sentACL
        case (.acl, .controllerToHost): return .receivedACL
        case (.sco, .hostToController): return .sentSCO
        case (.sco, .controllerToHost): return .receivedSCO
        default: return nil
        }
    }

    public var description: String {
        switch rawValue {
        case 0x00: return "HCI Command"
        case 0x01: return "HCI Event"
        case 0x02: return "Sent ACL"
        case 0x03: return "Received ACL"
        case 0x08: return "Sent SCO"
        case 0x09: return "Received SCO"
        case 0x0A: return "Sent LMP"
        case 0x0B: return "Received LMP"
        case 0xF7: return "Syslog"
        case 0xF8: return "Kernel"
        case 0xF9: return "Kernel Debug"
        case 0xFA: return "Error"
        case 0xFB: return "Power"
        case 0xFC: return "Note"
        case 0xFD: return "Config"
        case 0xFE: return "New Controller"
        default: return "packet type 0x" + Hex.encode([rawValue])
        }
    }
}
