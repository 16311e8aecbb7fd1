import BLECore

/// An HCI event, decoded (Core v5.4, Vol 4, Part E, 7.7). Events this package does not decode
/// are kept whole in ``unknown(_:)``, vendor-specific events (0xFF) included; nothing is dropped.
///
/// ```swift
/// let event = try HCIEvent(decoding: [0x05, 0x04, 0x00, 0x40, 0x00, 0x13])
/// if case .disconnectionComplete(let complete) = event { complete.reason }   // .remoteUserTerminatedConnection
/// event.description
/// // "Disconnection Complete status=Success connection_handle=0x0040 reason=Remote User Terminated Connection (0x13)"
/// ```
public enum HCIEvent: Hashable, Sendable, CustomStringConvertible {
    /// HCI_Disconnection_Complete (0x05).
    case disconnectionComplete(DisconnectionComplete)
    /// HCI_Encryption_Change [v1] (0x08).
    case encryptionChange(EncryptionChange)
    /// HCI_Encryption_Change [v2] (0x59).
    case encryptionChangeV2(EncryptionChangeV2)
    /// HCI_Command_Complete (0x0E).
    case commandComplete(CommandComplete)
    /// HCI_Command_Status (0x0F).
    case commandStatus(CommandStatus)
    /// HCI_Hardware_Error (0x10).
    case hardwareError(HardwareError)
    /// HCI_Number_Of_Completed_Packets (0x13).
    case numberOfCompletedPackets(NumberOfCompletedPackets)
    /// HCI_LE_Meta (0x3E) and its subevent.
    case leMeta(LEMetaEvent)
    /// Any other event, kept as received.
    case unknown(HCIEventPacket)

    /// Decodes the parameters of `packet` for the events this package knows.
    ///
    /// - Throws: ``BLEDecodingError`` naming the field, with offsets counted from the first octet
    ///   of the event packet (Event_Code at 0, the parameters from 2): for example a
    ///   Parameter_Total_Length too short for the event's fixed fields, or a Num_Reports larger
    ///   than the reports present.
    public init(packet: HCIEventPacket) throws(BLEDecodingError) {
        let parameters = packet.parameters[...]
        do {
            switch packet.code {
            case .disconnectionComplete: self = .disconnectionComplete(try .init(decoding: parameters))
            case .encryptionChange: self = .encryptionChange(try .init(decoding: parameters))
            case .encryptionChangeV2: self = .encryptionChangeV2(try .init(decoding: parameters))
            case .commandComplete: self = .commandComplete(try .init(decoding: parameters))
            case .commandStatus: self = .commandStatus(try .init(decoding: parameters))
            case .hardwareError: self = .hardwareError(try .init(decoding: parameters))
            case .numberOfCompletedPackets: self = .numberOfCompletedPackets(try .init(decoding: parameters))
            case .leMeta: self = .leMeta(try LEMetaEvent(parameters: parameters))
            default: self = .unknown(packet)
            }
        } catch {
            throw error.shifted(by: HCIEventPacket.headerLength)
        }
    }

    /// Decodes an event packet (Event_Code, Parameter_Total_Length, parameters; no H4
    /// indicator) and its parameters.
    ///
    /// - Throws: ``BLEDecodingError`` from ``HCIEventPacket/init(decoding:)``
    ///   when Parameter_Total_Length does not match the octets, or from ``init(packet:)``.
    public init(decoding bytes: ArraySlice<UInt8>) throws(BLEDecodingError) {
        try self.init(packet: try HCIEventPacket(decoding: bytes))
    }

    /// Decodes an event packet and its parameters.
    ///
    /// - Throws: as the slice overload does.
    public init(decoding bytes: [UInt8]) throws(BLEDecodingError) { try self.init(decoding: bytes[...]) }

    /// The event's code.
    public var code: HCIEventCode {
        switch self {
        case .disconnectionComplete: return .disconnectionComplete
        case .encryptionChange: return .encryptionChange
        case .encryptionChangeV2: return .encryptionChangeV2
        case .commandComplete: return .commandComplete
        case .commandStatus: return .commandStatus
        case .hardwareError: return .hardwareError
        case .numberOfCompletedPackets: return .numberOfCompletedPackets
        case .leMeta: return .leMeta
        case .unknown(let packet): return packet.code
        }
    }

    /// The event as an HCI Event packet.
    public var packet: HCIEventPacket {
        switch self {
        case .disconnectionComplete(let e): return e.packet
        case .encryptionChange(let e): return e.packet
        case .encryptionChangeV2(let e): return e.packet
        case .commandComplete(let e): return e.packet
        case .commandStatus(let e): return e.packet
        case .hardwareError(let e): return e.packet
        case .numberOfCompletedPackets(let e): return e.packet
        case .leMeta(let e): return HCIEventPacket(code: .leMeta, parameters: e.parameters)
        case .unknown(let packet): return packet
        }
    }

    /// The event packet's octets (no H4 indicator).
    public var encoded: [UInt8] { packet.encoded }

    /// The event's name and parameters on one line.
    public var description: String {
        switch self {
        case .disconnectionComplete(let e): return e.description
        case .encryptionChange(let e): return e.description
        case .encryptionChangeV2(let e): return e.description
        case .commandComplete(let e): return e.description
        case .commandStatus(let e): return e.description
        case .hardwareError(let e): return e.description
        case .numberOfCompletedPackets(let e): return e.description
        case .leMeta(let e): return e.description
        case .unknown(let packet): return packet.description
        }
    }
}
