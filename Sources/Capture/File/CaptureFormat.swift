/// The container format of a capture file, recognised from its first octets.
public enum CaptureFormat: Hashable, Sendable, CustomStringConvertible {
    /// btsnoop version 1 (the RFC 1761 snoop layout with Bluetooth datalinks): a 16-octet
    /// header "btsnoop\0", version, datalink; then records with big-endian fields and
    /// timestamps in microseconds since 0000-01-01 (used by BlueZ btmon and Android HCI snoop).
    case btsnoop
    /// pcap (libpcap savefile): a 24-octet header whose magic gives the byte order and
    /// whether record timestamps count microseconds or nanoseconds.
    case pcap
    /// pcapng: a sequence of blocks; each Section Header Block sets the byte order, each
    /// Interface Description Block a link type and a timestamp resolution.
    case pcapng

    public var description: String {
        switch self {
        case .btsnoop: return "btsnoop"
        case .pcap: return "pcap"
        case .pcapng: return "pcapng"
        }
    }
}
