/// The container format of a capture file, recognised from its first octets.
public enum CaptureFormat: Hashable, Sendable, CaseIterable, CustomStringConvertible {
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
    /// Apple PacketLogger (.pklg): no file header, records of Length (4), Seconds (4),
    /// Microseconds (4), Packet Type (1) and payload, big-endian in the older format and
    /// little-endian in the later one (``PacketLoggerParser``). Recognised from its first record.
    case packetLogger

    /// The link types whose records this reader decodes in files of this format, in the order
    /// messages list them. A file of any other link type is read, but its records come out as
    /// ``CapturedPacket/unsupported(linkType:payload:)``.
    ///
    /// btsnoop: datalinks 1001 (HCI), 1002 (H4) and 2001 (Linux monitor); pcap and pcapng:
    /// LINKTYPE 187 and 201 (H4), 254 (Linux monitor), 251, 256 and 272 (the LE link layer,
    /// 272 with the nRF Sniffer's header) and 192 (PPI around the LE link layer). The two
    /// namespaces are separate: a btsnoop file with datalink 187 is not decoded, nor a pcap file
    /// with LinkType 1002. PacketLogger files have no link type (each record's Packet Type says
    /// what it is): none is listed.
    public var decodedLinkTypes: [LinkType] {
        switch self {
        case .packetLogger: return []
        case .btsnoop: return [.btsnoopHCI, .btsnoopH4, .btsnoopMonitor]
        case .pcap, .pcapng:
            return [.bluetoothHCIH4, .bluetoothHCIH4WithPHDR, .bluetoothLinuxMonitor, .bluetoothLELL, .bluetoothLELLWithPHDR,
                    .nordicBLE, .ppi]
        }
    }

    /// What the format calls a link type: "datalink" in btsnoop, "link type" in pcap and pcapng.
    public var linkTypeName: String {
        self == .btsnoop ? "datalink" : "link type"
    }

    public var description: String {
        switch self {
        case .btsnoop: return "btsnoop"
        case .pcap: return "pcap"
        case .pcapng: return "pcapng"
        case .packetLogger: return "PacketLogger"
        }
    }
}
