import HCI

/// Why a host-mode connection operation did not succeed (``LEConnectionManager``,
/// ``LEConnection``).
public enum LEConnectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The link dropped; `reason` is the Disconnection Complete's Reason (Core v5.4, Vol 4,
    /// Part E, 7.7.5; for example 0x08 Connection Timeout, 0x13 Remote User Terminated
    /// Connection, 0x16 Connection Terminated By Local Host), or 0x03 Hardware Failure when the
    /// controller reported a Hardware Error, or the transport closed.
    case disconnected(reason: HCIStatus)
    /// No connection formed within the timeout, and the attempt was cancelled (LE Create
    /// Connection Cancel, then LE Connection Complete with Unknown Connection Identifier).
    case connectionTimeout(after: Duration)
    /// The attempt ended with a non-zero Status in its LE (Enhanced) Connection Complete
    /// (for example 0x3E Connection Failed To Be Established).
    case connectionFailed(HCIStatus)
    /// The caller's task was cancelled; a connection attempt was cancelled at the controller.
    case cancelled
    /// A command of the operation failed; the error names it.
    case command(HCICommandError)
    /// The operation needs the other role: only a central updates the connection parameters with
    /// LE Connection Update; only a peripheral asks for them with an L2CAP request.
    case wrongRole(LERole)
    /// The central rejected the L2CAP Connection Parameter Update Request (Vol 3, Part A, 4.21).
    case parametersRejected
    /// The parameters are outside what the Core specification allows (for example a supervision
    /// timeout not longer than (1 + latency) × interval max × 2, Vol 6, Part B, 4.5.2).
    case invalidParameters(String)
    /// A procedure did not end within the manager's procedure timeout: the peer did not answer
    /// an L2CAP signaling request (Vol 3, Part A, 6.2.1: RTX, 1-60 s), or the controller sent
    /// no completion event for a command.
    case procedureTimeout(String)
    /// All 255 L2CAP signaling Identifiers (0x01-0xFF) of the link belong to requests still
    /// waiting for their answers, so no request can be sent without two sharing an Identifier
    /// (Vol 3, Part A, 4). A request's Identifier is free again once it is answered or times out.
    case signalingIdentifiersInUse
    /// The manager ended, for the reason given; it starts nothing new.
    case ended(LEConnectionManager.EndCause)

    /// One line, naming the reason or the command.
    public var description: String {
        switch self {
        case .disconnected(let reason): return "the link dropped: \(reason)"
        case .connectionTimeout(let after): return "no connection within \(after); the attempt was cancelled"
        case .connectionFailed(let status): return "the connection failed: \(status)"
        case .cancelled: return "cancelled"
        case .command(let error): return error.description
        case .wrongRole(let role): return "not possible as the \(role)"
        case .parametersRejected: return "the central rejected the connection parameters"
        case .invalidParameters(let why): return "invalid connection parameters: \(why)"
        case .procedureTimeout(let what): return "\(what): no answer within the procedure timeout"
        case .signalingIdentifiersInUse: return "all 255 L2CAP signaling Identifiers wait for answers"
        case .ended(let cause): return "the host stack has ended: \(cause)"
        }
    }
}
