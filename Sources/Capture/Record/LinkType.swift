import BLECore

/// The number that says how to read a capture record's octets: a LINKTYPE_ value from the
/// tcpdump.org link-layer header type registry (pcap and pcapng), or a btsnoop datalink code.
///
/// The two namespaces do not overlap in practice: btsnoop datalink codes are 1001...1004 and
/// 2001, above every LINKTYPE_ value the registry has assigned. Unknown values are kept raw;
/// their records come out as ``CapturedPacket/unsupported(linkType:payload:)``.
public struct LinkType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// LINKTYPE_USER0 (147): private use. Ubertooth's tools wrapped raw LE link-layer packets
    /// (access address, header, payload, CRC) in PPI under this value before LINKTYPE 251
    /// existed; inside PPI this reader decodes it exactly like ``bluetoothLELL``.
    public static let user0 = LinkType(rawValue: 147)
    /// LINKTYPE_BLUETOOTH_HCI_H4 (187): an HCI packet with its H4 packet indicator, no direction.
    public static let bluetoothHCIH4 = LinkType(rawValue: 187)
    /// LINKTYPE_PPI (192): a Per-Packet Information header, then a packet of the link type it names.
    public static let ppi = LinkType(rawValue: 192)
    /// LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR (201): a 4-octet big-endian direction
    /// (bit 0: 0 sent by the host, 1 received by the host), then an H4 packet.
    public static let bluetoothHCIH4WithPHDR = LinkType(rawValue: 201)
    /// LINKTYPE_BLUETOOTH_LE_LL (251): an LE link-layer packet without its preamble:
    /// access address, PDU, CRC (Core v5.4, Vol 6, Part B, 2.1).
    public static let bluetoothLELL = LinkType(rawValue: 251)
    /// LINKTYPE_BLUETOOTH_LINUX_MONITOR (254): adapter index (2 octets, big-endian) and
    /// opcode (2 octets, big-endian), then the Linux monitor payload.
    public static let bluetoothLinuxMonitor = LinkType(rawValue: 254)
    /// LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR (256): a 10-octet radio pseudo-header
    /// (``LELLPseudoHeader``), then an LE link-layer packet as in ``bluetoothLELL``.
    public static let bluetoothLELLWithPHDR = LinkType(rawValue: 256)
    /// LINKTYPE_NORDIC_BLE (272): the nRF Sniffer for Bluetooth LE's header
    /// (``NordicBLEHeader``), then an LE link-layer packet as in ``bluetoothLELL``.
    public static let nordicBLE = LinkType(rawValue: 272)

    /// btsnoop datalink 1001: un-encapsulated HCI; the record flags give the packet type.
    public static let btsnoopHCI = LinkType(rawValue: 1001)
    /// btsnoop datalink 1002: HCI UART (H4); the first octet is the packet indicator.
    public static let btsnoopH4 = LinkType(rawValue: 1002)
    /// btsnoop datalink 1003: HCI BCSP (not decoded; records are kept raw).
    public static let btsnoopBCSP = LinkType(rawValue: 1003)
    /// btsnoop datalink 1004: HCI Three-wire UART (H5) (not decoded; records are kept raw).
    public static let btsnoopH5 = LinkType(rawValue: 1004)
    /// btsnoop datalink 2001: Linux monitor; the record flags hold the controller index
    /// (upper 16 bits) and the monitor opcode (lower 16 bits).
    public static let btsnoopMonitor = LinkType(rawValue: 2001)

    /// Whether records of this link type are Bluetooth the decoder reads in some format: H4
    /// (187, 201), the Linux monitor (254), the LE link layer (251, 256, 272, and PPI around it), and
    /// btsnoop 1001, 1002 and 2001 (``CaptureFormat/decodedLinkTypes``, which also says in which
    /// format). Anything else (Ethernet, say, or USER0 outside PPI) is kept raw and not decoded.
    public var isDecoded: Bool {
        CaptureFormat.allCases.contains { $0.decodedLinkTypes.contains(self) }
    }

    public var description: String {
        switch self {
        case .user0: return "USER0 (147)"
        case .bluetoothHCIH4: return "BLUETOOTH_HCI_H4 (187)"
        case .ppi: return "PPI (192)"
        case .bluetoothHCIH4WithPHDR: return "BLUETOOTH_HCI_H4_WITH_PHDR (201)"
        case .bluetoothLELL: return "BLUETOOTH_LE_LL (251)"
        case .bluetoothLinuxMonitor: return "BLUETOOTH_LINUX_MONITOR (254)"
        case .bluetoothLELLWithPHDR: return "BLUETOOTH_LE_LL_WITH_PHDR (256)"
        case .nordicBLE: return "NORDIC_BLE (272)"
        case .btsnoopHCI: return "btsnoop HCI (1001)"
        case .btsnoopH4: return "btsnoop H4 (1002)"
        case .btsnoopBCSP: return "btsnoop BCSP (1003)"
        case .btsnoopH5: return "btsnoop H5 (1004)"
        case .btsnoopMonitor: return "btsnoop Linux monitor (2001)"
        default: return "link type \(rawValue)"
        }
    }
}
