/// Why an ``HCITransport`` could not send a packet.
public enum HCITransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The transport is closed.
    case closed
    /// The link refused the packet: the reason, such as "write: Network is down (errno 100)".
    case failed(String)

    /// The reason on one line.
    public var description: String {
        switch self {
        case .closed: return "HCI transport closed"
        case .failed(let reason): return "HCI transport failed: \(reason)"
        }
    }
}
