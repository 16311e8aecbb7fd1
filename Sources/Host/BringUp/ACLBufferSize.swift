import HCI

/// The controller's ACL data buffers that the host's LE flow control runs on (Core v5.4, Vol 4,
/// Part E, 4.1.1 and 7.8.2): the largest payload of one ACL data packet the host may send, and
/// how many such packets the controller holds at once.
public struct ACLBufferSize: Hashable, Sendable, CustomStringConvertible {
    /// Where the sizes came from.
    public enum Source: Hashable, Sendable, CustomStringConvertible {
        /// HCI_LE_Read_Buffer_Size [v2] (7.8.2): LE buffers of their own.
        case leV2
        /// HCI_LE_Read_Buffer_Size [v1] (7.8.2): LE buffers of their own.
        case leV1
        /// HCI_Read_Buffer_Size (7.4.5): the LE length was 0, so LE shares the BR/EDR buffers.
        case shared

        /// The command, for logs.
        public var description: String {
            switch self {
            case .leV2: return "LE Read Buffer Size [v2]"
            case .leV1: return "LE Read Buffer Size [v1]"
            case .shared: return "Read Buffer Size (shared with BR/EDR)"
            }
        }
    }

    /// The largest ACL data payload, in octets (at least 27 on an LE controller).
    public var length: Int
    /// How many ACL data packets the controller holds: the host's credits.
    public var count: Int
    /// Where the sizes came from.
    public var source: Source

    /// Buffer sizes from their values.
    public init(length: Int, count: Int, source: Source) {
        self.length = length
        self.count = count
        self.source = source
    }

    /// "8 × 27 octets (LE Read Buffer Size [v1])".
    public var description: String { "\(count) × \(length) octets (\(source))" }
}
