import BLECore
import HCI

/// What one capture record holds, independent of the file format it came from.
///
/// Every record of a file becomes exactly one of these; nothing is dropped. Octets that a
/// link type cannot explain are kept raw (``unsupported(linkType:payload:)``), and a record
/// whose own octets are malformed keeps them beside the error (``malformed(linkType:payload:error:)``).
public enum CapturedPacket: Hashable, Sendable, CustomStringConvertible {
    /// An HCI packet: `payload` is the packet without its H4 packet indicator (Core v5.4,
    /// Vol 4, Part A, 2), for example an HCI Event packet starting with Event_Code.
    /// Monitor packet records (command, event, ACL/SCO/ISO TX/RX) come out as this case.
    case hci(type: HCIPacketType, payload: [UInt8])
    /// A Linux monitor record that is not an HCI packet (new/delete/open/close index, index
    /// info, system note, user logging, control channel records, vendor diagnostics, ...):
    /// the opcode and its parameters, undecoded.
    case monitor(opcode: MonitorOpcode, payload: [UInt8])
    /// An LE link-layer packet captured over the air (LINKTYPE 251, 256, 272, or PPI around 251/147).
    /// Stored out of line (the record is large), so that every record stays small to copy.
    indirect case linkLayer(LinkLayerRecord)
    /// An Apple PacketLogger record that is not an HCI packet: a text record (a note, a
    /// system log line, a kernel message; ``PacketLoggerPacketType/isText``), an LMP packet,
    /// or a Packet Type this reader does not know, with its payload as stored.
    case packetLogger(type: PacketLoggerPacketType, payload: [UInt8])
    /// A record of a link type this reader does not decode: its octets as stored.
    case unsupported(linkType: LinkType, payload: [UInt8])
    /// A record whose octets do not decode under their link type (for example an empty H4
    /// record, or an LE packet whose Length field runs past the record): its octets as stored
    /// and the error, with the offset counted from the record's first octet.
    /// Stored out of line, as the error is large and such records are rare.
    indirect case malformed(linkType: LinkType, payload: [UInt8], error: BLEDecodingError)

    /// One line naming the packet, for logs and listings.
    public var description: String {
        switch self {
        case let .hci(type, payload):
            return "HCI \(type), \(payload.count) octet\(payload.count == 1 ? "" : "s")"
        case let .monitor(opcode, payload):
            return "monitor \(opcode), \(payload.count) octet\(payload.count == 1 ? "" : "s")"
        case let .linkLayer(record):
            return record.description
        case let .packetLogger(type, payload):
            return "PacketLogger \(type), \(payload.count) octet\(payload.count == 1 ? "" : "s")"
        case let .unsupported(linkType, payload):
            return "\(linkType) record, \(payload.count) octets (not decoded)"
        case let .malformed(linkType, payload, error):
            return "malformed \(linkType) record, \(payload.count) octets: \(error)"
        }
    }
}
