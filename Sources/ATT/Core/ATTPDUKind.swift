/// The six types of Attribute PDU (Core v5.4, Vol 3, Part F, 3.3, Table 3.1), named by the
/// suffix of the PDU name, plus ``unknown`` for an opcode the specification does not define
/// and whose Command Flag is clear.
///
/// This is the stack's classification of an ``ATTOpcode``, not a field on the wire.
public enum ATTPDUKind: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// REQ: sent by a client to a server; invokes a response (or ATT_ERROR_RSP).
    case request
    /// RSP: sent by a server to a client in response to a request.
    case response
    /// CMD: sent by a client to a server; invokes no response. Any opcode with the Command
    /// Flag set is a command (3.3.1).
    case command
    /// NTF: unsolicited, sent by a server to a client; invokes no confirmation.
    case notification
    /// IND: unsolicited, sent by a server to a client; invokes a confirmation.
    case indication
    /// CFM: sent by a client to a server to confirm receipt of an indication.
    case confirmation
    /// An opcode the specification does not define, Command Flag clear: a server answers it
    /// with ATT_ERROR_RSP, Request Not Supported (0x06), handle 0x0000 (3.3).
    case unknown

    /// Whether a PDU of this kind travels from client to server (requests, commands,
    /// confirmations); nil for ``unknown``.
    public var isSentByClient: Bool? {
        switch self {
        case .request, .command, .confirmation: return true
        case .response, .notification, .indication: return false
        case .unknown: return nil
        }
    }

    /// The spec's PDU-name suffix: "REQ", "RSP", "CMD", "NTF", "IND", "CFM"; "unknown" for ``unknown``.
    public var description: String {
        switch self {
        case .request: return "REQ"
        case .response: return "RSP"
        case .command: return "CMD"
        case .notification: return "NTF"
        case .indication: return "IND"
        case .confirmation: return "CFM"
        case .unknown: return "unknown"
        }
    }
}
