import BLECore
import HCI

/// Why an HCI command sent through ``HCICommandFlow`` did not succeed. Each case names the
/// command's opcode, so a log line says which command failed.
public enum HCICommandError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The controller answered with a non-zero Status, in Command Complete or Command Status
    /// (Core v5.4, Vol 4, Part E, 7.7.14 and 7.7.15; the codes in Vol 1, Part F). Command
    /// Disallowed (0x0C) here often means legacy and extended LE commands were mixed.
    case status(HCIStatus, opcode: HCIOpcode)
    /// No Command Complete or Command Status arrived within the flow's command timeout.
    case timeout(opcode: HCIOpcode, after: Duration)
    /// The transport closed (or the flow was closed) before the command completed.
    case closed(opcode: HCIOpcode)
    /// Command Complete arrived with Status 0x00 but return parameters that do not decode.
    case malformedReturnParameters(opcode: HCIOpcode, BLEDecodingError)
    /// The transport refused the command packet.
    case transport(opcode: HCIOpcode, HCITransportError)
    /// The calling task was cancelled before the command completed (a command already sent
    /// still runs on the controller; its completion is then ignored).
    case cancelled(opcode: HCIOpcode)
    /// The controller lost its state while the command was in flight or queued (a Hardware
    /// Error, after which the host resets it: ``HCICommandFlow/controllerReset()``); it gets no
    /// answer.
    case controllerReset(opcode: HCIOpcode)

    /// The command's opcode.
    public var opcode: HCIOpcode {
        switch self {
        case .status(_, let opcode), .timeout(let opcode, _), .closed(let opcode),
             .malformedReturnParameters(let opcode, _), .transport(let opcode, _), .cancelled(let opcode),
             .controllerReset(let opcode):
            return opcode
        }
    }

    /// The HCI error code, for ``status(_:opcode:)``; nil otherwise.
    public var status: HCIStatus? {
        if case .status(let status, _) = self { return status }
        return nil
    }

    /// The command and what went wrong, as in
    /// "LE Set Scan Enable failed: Command Disallowed (0x0C)".
    public var description: String {
        switch self {
        case .status(let status, let opcode): return "\(opcode) failed: \(status)"
        case .timeout(let opcode, let after): return "\(opcode): no Command Complete or Command Status within \(after)"
        case .closed(let opcode): return "\(opcode): the HCI transport closed before the command completed"
        case .malformedReturnParameters(let opcode, let error): return "\(opcode): malformed return parameters: \(error)"
        case .transport(let opcode, let error): return "\(opcode): \(error)"
        case .cancelled(let opcode): return "\(opcode): cancelled"
        case .controllerReset(let opcode): return "\(opcode): the controller was reset before it answered"
        }
    }
}
