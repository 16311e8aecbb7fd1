import BLECore
import HCI

/// A Linux Bluetooth monitor opcode: what a record of the monitor channel (HCI_CHANNEL_MONITOR),
/// btsnoop datalink 2001 or LINKTYPE 254 carries. The values are those of BlueZ's
/// `doc/btsnoop-protocol.rst` (`src/shared/btsnoop.h`). Unknown values are kept raw.
public struct MonitorOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 0x0000: a controller index was added. Parameters: Type (1), Bus (1), BD_ADDR (6), Name (8).
    public static let newIndex = MonitorOpcode(rawValue: 0x0000)
    /// 0x0001: a controller index was removed.
    public static let deleteIndex = MonitorOpcode(rawValue: 0x0001)
    /// 0x0002: an HCI Command packet (host to controller).
    public static let commandPacket = MonitorOpcode(rawValue: 0x0002)
    /// 0x0003: an HCI Event packet (controller to host).
    public static let eventPacket = MonitorOpcode(rawValue: 0x0003)
    /// 0x0004: an outgoing HCI ACL Data packet.
    public static let aclTXPacket = MonitorOpcode(rawValue: 0x0004)
    /// 0x0005: an incoming HCI ACL Data packet.
    public static let aclRXPacket = MonitorOpcode(rawValue: 0x0005)
    /// 0x0006: an outgoing HCI Synchronous Data packet.
    public static let scoTXPacket = MonitorOpcode(rawValue: 0x0006)
    /// 0x0007: an incoming HCI Synchronous Data packet.
    public static let scoRXPacket = MonitorOpcode(rawValue: 0x0007)
    /// 0x0008: the HCI transport of the controller was opened.
    public static let openIndex = MonitorOpcode(rawValue: 0x0008)
    /// 0x0009: the HCI transport of the controller was closed.
    public static let closeIndex = MonitorOpcode(rawValue: 0x0009)
    /// 0x000A: index information. Parameters: BD_ADDR (6), Manufacturer (2).
    public static let indexInfo = MonitorOpcode(rawValue: 0x000A)
    /// 0x000B: vendor diagnostic information.
    public static let vendorDiagnostic = MonitorOpcode(rawValue: 0x000B)
    /// 0x000C: a system note (text).
    public static let systemNote = MonitorOpcode(rawValue: 0x000C)
    /// 0x000D: user logging. Parameters: Priority (1), Ident_Length (1), Ident, message.
    public static let userLogging = MonitorOpcode(rawValue: 0x000D)
    /// 0x000E: a management control channel was opened.
    public static let controlOpen = MonitorOpcode(rawValue: 0x000E)
    /// 0x000F: a management control channel was closed.
    public static let controlClose = MonitorOpcode(rawValue: 0x000F)
    /// 0x0010: a management command.
    public static let controlCommand = MonitorOpcode(rawValue: 0x0010)
    /// 0x0011: a management event.
    public static let controlEvent = MonitorOpcode(rawValue: 0x0011)
    /// 0x0012: an outgoing HCI ISO Data packet.
    public static let isoTXPacket = MonitorOpcode(rawValue: 0x0012)
    /// 0x0013: an incoming HCI ISO Data packet.
    public static let isoRXPacket = MonitorOpcode(rawValue: 0x0013)
    /// 0x0016: an outgoing vendor HCI packet (newer BlueZ; kept as a monitor record).
    public static let vendorTXPacket = MonitorOpcode(rawValue: 0x0016)
    /// 0x0017: an incoming vendor HCI packet (newer BlueZ; kept as a monitor record).
    public static let vendorRXPacket = MonitorOpcode(rawValue: 0x0017)

    /// The HCI packet type and direction of a packet opcode; nil for the opcodes that are not
    /// HCI packets (index, note, logging and control records).
    public var hciPacket: (type: HCIPacketType, direction: CaptureDirection)? {
        switch rawValue {
        case 0x0002: return (.command, .hostToController)
        case 0x0003: return (.event, .controllerToHost)
        case 0x0004: return (.acl, .hostToController)
        case 0x0005: return (.acl, .controllerToHost)
        case 0x0006: return (.sco, .hostToController)
        case 0x0007: return (.sco, .controllerToHost)
        case 0x0012: return (.iso, .hostToController)
        case 0x0013: return (.iso, .controllerToHost)
        default: return nil
        }
    }

    /// The packet opcode for an HCI packet of `type` travelling in `direction`; nil when the
    /// monitor has no opcode for it (an unknown packet type, or data with an unknown direction).
    public static func forHCIPacket(_ type: HCIPacketType, direction: CaptureDirection) -> MonitorOpcode? {
        switch (type, direction) {
        case (.command, _): return .commandPacket
        case (.event, _): return .eventPacket
        case (.acl, .hostToController): return .aclTXPacket
        case (.acl, .controllerToHost): return .aclRXPacket
        case (.sco, .hostToController): return .scoTXPacket
        case (.sco, .controllerToHost): return .scoRXPacket
        case (.iso, .hostToController): return .isoTXPacket
        case (.iso, .controllerToHost): return .isoRXPacket
        default: return nil
        }
    }

    public var description: String {
        switch rawValue {
        case 0x0000: return "New Index"
        case 0x0001: return "Delete Index"
        case 0x0002: return "Command Packet"
        case 0x0003: return "Event Packet"
        case 0x0004: return "ACL TX Packet"
        case 0x0005: return "ACL RX Packet"
        case 0x0006: return "SCO TX Packet"
        case 0x0007: return "SCO RX Packet"
        case 0x0008: return "Open Index"
        case 0x0009: return "Close Index"
        case 0x000A: return "Index Info"
        case 0x000B: return "Vendor Diagnostic"
        case 0x000C: return "System Note"
        case 0x000D: return "User Logging"
        case 0x000E: return "Control Open"
        case 0x000F: return "Control Close"
        case 0x0010: return "Control Command"
        case 0x0011: return "Control Event"
        case 0x0012: return "ISO TX Packet"
        case 0x0013: return "ISO RX Packet"
        case 0x0016: return "Vendor TX Packet"
        case 0x0017: return "Vendor RX Packet"
        default: return "monitor opcode 0x\(Hex.encode([UInt8(rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)]))"
        }
    }
}
