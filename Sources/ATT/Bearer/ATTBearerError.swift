/// Why an ``ATTBearer`` could not carry a PDU.
public enum ATTBearerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bearer is closed (by this end, by the peer, or because the link went down); it
    /// carries no more PDUs.
    case closed

    /// "the ATT bearer is closed".
    public var description: String {
        switch self {
        case .closed: return "the ATT bearer is closed"
        }
    }
}
