import BLECore

/// The header Nordic Semiconductor's nRF Sniffer for Bluetooth LE puts before each LE
/// link-layer packet in LINKTYPE_NORDIC_BLE (272) captures: how the sniffer's board framed
/// the packet on its UART, and what its radio saw (CRC and MIC checks, direction, channel,
/// RSSI, PHY, connection event counter, time).
///
/// Four header versions exist; the first octets tell them apart. Multi-octet fields are
/// little-endian. The event fields (Flags to Time, 9 octets) are the same in every version.
///
/// | version | layout before the event fields |
/// |---|---|
/// | 0 (legacy, the sniffer's board header before protocol versions) | Marker `BE EF` (2), Packet ID (1), Packet Counter (2), reserved (2), Payload Length (1: the octets after it) |
/// | 1 | Board ID (1), Header Length (1, 6), Payload Length (1), Protocol Version (1), Packet Counter (2), Packet ID (1), Event Header Length (1, 10) |
/// | 2 and 3 | Board ID (1), Payload Length (2), Protocol Version (1), Packet Counter (2), Packet ID (1), Event Header Length (1, 10) |
///
/// Event fields: Flags (1, ``Flags``), Channel Index (1, 0...39), RSSI Sample (1, the
/// magnitude of a negative dBm value), Event Counter (2), Time (4, µs: in versions 0...2 the
/// time from the end of the previous packet to the start of this one, in version 3 the
/// sniffer's own clock at the start of this packet). The link-layer packet follows: access
/// address, a Coding Indicator octet on the LE Coded PHY, PDU, CRC (Core v5.4, Vol 6, Part B,
/// 2.1 and 2.2).
///
/// Payload Length counts the octets after the 6-octet UART header (after the Marker's 8
/// octets in version 0), so Board ID (or Marker), UART header and payload fill the record
/// exactly; a record they do not fill is malformed. In version 3 the Packet ID says which
/// kind of PDU follows (0x02 advertising, 0x06 data); earlier versions use 0x06 for both, and
/// the access address decides.
public struct NordicBLEHeader: Hashable, Sendable, CustomStringConvertible {
    /// The Flags octet. Its bits mean different things for advertising and data PDUs.
    public struct Flags: RawFieldValue, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: the CRC the sniffer received matched the packet.
        public var isCRCValid: Bool { rawValue & 0x01 != 0 }
        /// Bit 1, data PDUs: the central sent the packet (clear: the peripheral did).
        public var isCentralToPeripheral: Bool { rawValue & 0x02 != 0 }
        /// Bit 2, data PDUs: the packet was encrypted on air.
        public var isEncrypted: Bool { rawValue & 0x04 != 0 }
        /// Bit 3, data PDUs that were encrypted: the sniffer decrypted the payload and its
        /// MIC matched (clear: it could not, and the payload is not plaintext).
        public var isMICValid: Bool { rawValue & 0x08 != 0 }
        /// Bits 1...2, version 3 advertising PDUs on a secondary channel (index below 37): 0
        /// AUX_ADV_IND, 1 AUX_CHAIN_IND, 2 AUX_SYNC_IND, 3 AUX_SCAN_RSP.
        public var auxiliaryType: UInt8 { rawValue >> 1 & 0b11 }
        /// Bit 3, version 3 advertising PDUs: the sniffer resolved the advertiser's private address.
        public var isAddressResolved: Bool { rawValue & 0x08 != 0 }
        /// Bits 4...6: the PHY, 0 LE 1M, 1 LE 2M, 2 LE Coded (others reserved).
        public var phy: UInt8 { rawValue >> 4 & 0b111 }

        /// Flags for a data PDU (bit 0 CRC, 1 direction, 2 encrypted, 3 MIC) on `phy`.
        public static func data(crcValid: Bool, centralToPeripheral: Bool, encrypted: Bool = false,
                                micValid: Bool = false, phy: UInt8 = 0) -> Flags {
            Flags(rawValue: (crcValid ? 0x01 : 0) | (centralToPeripheral ? 0x02 : 0) | (encrypted ? 0x04 : 0)
                  | (micValid ? 0x08 : 0) | (phy & 0b111) << 4)
        }

        /// Flags for an advertising PDU (bit 0 CRC) on `phy`.
        public static func advertising(crcValid: Bool, phy: UInt8 = 0) -> Flags {
            Flags(rawValue: (crcValid ? 0x01 : 0) | (phy & 0b111) << 4)
        }
    }

    /// The Packet ID: what the sniffer's UART message is. Only packet events carry a
    /// link-layer packet. Unknown values are kept raw.
    public struct PacketID: RawFieldValue, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// 0x02, version 3: an advertising physical channel PDU (EVENT_PACKET_ADVERTISING).
        public static let advertisingPacket = PacketID(rawValue: 0x02)
        /// 0x06: a received packet (EVENT_PACKET_DATA); in version 3 a data physical channel
        /// PDU, before it a packet of either kind.
        public static let dataPacket = PacketID(rawValue: 0x06)

        public var description: String {
            switch rawValue {
            case 0x00: return "REQ_FOLLOW (0x00)"
            case 0x01: return "EVENT_FOLLOW (0x01)"
            case 0x02: return "EVENT_PACKET_ADVERTISING (0x02)"
            case 0x05: return "EVENT_CONNECT (0x05)"
            case 0x06: return "EVENT_PACKET_DATA (0x06)"
            case 0x07: return "REQ_SCAN_CONT (0x07)"
            case 0x09: return "EVENT_DISCONNECT (0x09)"
            default: return "packet ID 0x" + Hex.encode([rawValue])
            }
        }
    }

    /// The header versions this reader knows: 0 (legacy) to 3.
    public static let knownVersions: ClosedRange<UInt8> = 0...3
    /// The Marker that opens a version 0 header, octets `BE EF`.
    public static let legacyMarker: [UInt8] = [0xBE, 0xEF]
    /// The octets of the UART header after the Board ID (or after the Marker in version 0).
    public static let uartHeaderLength = 6
    /// The event header: its own Length octet, then the 9 octets of the event fields.
    public static let eventHeaderLength = 10

    /// 0 (legacy), 1, 2 or 3.
    public var version: UInt8
    /// The sniffer board's number in the capture (nil in version 0, which has none).
    public var boardID: UInt8?
    /// What the UART message is; see ``PacketID``.
    public var packetID: PacketID
    /// The sniffer's running count of UART messages (wraps at 65,536).
    public var packetCounter: UInt16
    /// The two reserved octets of version 0, kept so the header re-encodes exactly (0 otherwise).
    public var legacyReserved: UInt16
    /// CRC, direction, encryption, MIC and PHY; see ``Flags``.
    public var flags: Flags
    /// The link layer's channel index, 0...39 (37...39 primary advertising channels).
    public var channelIndex: UInt8
    /// The RSSI sample the radio read: the received signal strength is minus this, in dBm.
    public var rssiSample: UInt8
    /// The connection event counter (meaningful for data PDUs only).
    public var eventCounter: UInt16
    /// µs. Versions 0...2: from the end of the previous packet to the start of this one.
    /// Version 3: the sniffer's clock at the start of this packet.
    public var time: UInt32

    /// A header; the length fields follow from the packet it is written before.
    public init(version: UInt8, boardID: UInt8? = 0, packetID: PacketID = .dataPacket, packetCounter: UInt16 = 0,
                flags: Flags, channelIndex: UInt8, rssiSample: UInt8, eventCounter: UInt16 = 0, time: UInt32 = 0,
                legacyReserved: UInt16 = 0) {
        self.version = version
        self.boardID = version == 0 ? nil : (boardID ?? 0)
        self.packetID = packetID
        self.packetCounter = packetCounter
        self.legacyReserved = version == 0 ? legacyReserved : 0
        self.flags = flags
        self.channelIndex = channelIndex
        self.rssiSample = rssiSample
        self.eventCounter = eventCounter
        self.time = time
    }

    /// The header's octets in `version`: 17 in every version (the Marker's 2 in version 0, the
    /// Board ID's 1 and the Event Header Length's 1 in the others).
    public static func length(version: UInt8) -> Int {
        version == 0 ? legacyMarker.count + uartHeaderLength + eventHeaderLength - 1 : 1 + uartHeaderLength + eventHeaderLength
    }

    /// The received signal strength in dBm: minus ``rssiSample``.
    public var rssi: Int { -Int(rssiSample) }

    /// Whether a data physical channel PDU follows according to the header: the Packet ID in
    /// version 3; nil before it, when only the access address tells.
    public var isDataPDU: Bool? {
        guard version >= 3 else { return nil }
        return packetID == .dataPacket
    }

    /// The one walk over the header's fields, for decoding and encoding alike. `lengths` holds
    /// the length fields' values: when encoding, those to write; when decoding, those read.
    mutating func layout<C: FieldLayoutCoder>(_ c: inout C, lengths: inout Lengths) throws(C.Failure) {
        if version == 0 {
            var marker = Self.legacyMarker
            try c.field(&marker, count: 2, "Marker")
            try c.field(&packetID, "Packet ID")
            try c.field(&packetCounter, "Packet Counter")
            try c.field(&legacyReserved, "Reserved")
            var payload = UInt8(truncatingIfNeeded: lengths.payload)
            try c.field(&payload, "Payload Length")
            lengths.payload = Int(payload)
        } else {
            var board = boardID ?? 0
            try c.field(&board, "Board ID")
            boardID = board
            if version == 1 {
                var header = UInt8(truncatingIfNeeded: lengths.header)
                try c.field(&header, "Header Length")
                lengths.header = Int(header)
                var payload = UInt8(truncatingIfNeeded: lengths.payload)
                try c.field(&payload, "Payload Length")
                lengths.payload = Int(payload)
            } else {
                var payload = UInt16(truncatingIfNeeded: lengths.payload)
                try c.field(&payload, "Payload Length")
                lengths.payload = Int(payload)
            }
            try c.field(&version, "Protocol Version")
            try c.field(&packetCounter, "Packet Counter")
            try c.field(&packetID, "Packet ID")
            var event = UInt8(truncatingIfNeeded: lengths.event)
            try c.field(&event, "Event Header Length")
            lengths.event = Int(event)
        }
        try c.field(&flags, "Flags")
        try c.field(&channelIndex, "Channel Index")
        try c.field(&rssiSample, "RSSI Sample")
        try c.field(&eventCounter, "Event Counter")
        try c.field(&time, "Time")
    }

    /// The length fields of one header.
    struct Lengths {
        var header = NordicBLEHeader.uartHeaderLength
        var payload: Int
        var event = NordicBLEHeader.eventHeaderLength
    }

    /// Reads a header from the start of a record and checks its lengths against the record:
    /// `r` holds the whole record, and the header must leave exactly the link-layer packet.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for a record
    ///   shorter than its header; ``BLEDecodingError/invalidValue(field:offset:reason:)`` for a
    ///   Protocol Version this reader does not know (above 3), a Header Length
    ///   other than 6 or an Event Header Length other than 10, a Payload Length that does not
    ///   end where the record ends, or, in version 3, a Packet ID that is not a packet event.
    public init(from r: inout ByteReader) throws(BLEDecodingError) {
        let start = r.offset
        let total = r.remainingCount
        var peek = r
        let first = try peek.readUInt8("Board ID or Marker")
        let second = try peek.readUInt8("UART header")
        let version: UInt8
        if first == Self.legacyMarker[0] && second == Self.legacyMarker[1] {
            version = 0
        } else {
            _ = try peek.readUInt8("UART header")
            version = try peek.readUInt8("Protocol Version")
            guard Self.knownVersions.contains(version) else {
                throw .invalidValue(field: "Protocol Version", offset: start + 3,
                                    reason: "nRF Sniffer header version \(version) is not one this reader knows (0...3)")
            }
        }
        self.init(version: version, flags: Flags(rawValue: 0), channelIndex: 0, rssiSample: 0)
        var lengths = Lengths(payload: 0)
        var decoder = FieldLayoutDecoder(reader: r)
        try layout(&decoder, lengths: &lengths)
        r = decoder.reader

        // What the lengths must be for this record: the octets after the UART header.
        let payloadOffset = version == 0 ? 7 : (version == 1 ? 2 : 1)
        let expectedPayload = total - (version == 0 ? Self.legacyMarker.count + Self.uartHeaderLength : 1 + Self.uartHeaderLength)
        guard lengths.header == Self.uartHeaderLength else {
            throw .invalidValue(field: "Header Length", offset: start + 1,
                                reason: "\(lengths.header) is not the 6-octet UART header of version 1")
        }
        guard lengths.event == Self.eventHeaderLength else {
            throw .invalidValue(field: "Event Header Length", offset: start + 7,
                                reason: "\(lengths.event) is not the 10-octet event header this reader knows")
        }
        guard lengths.payload == expectedPayload else {
            let verb = lengths.payload > expectedPayload ? "runs past the end of the record" : "ends before the record does"
            throw .invalidValue(field: "Payload Length", offset: start + payloadOffset,
                                reason: "\(lengths.payload) octets \(verb) (\(expectedPayload) octets follow the UART header)")
        }
        if version == 3, packetID != .advertisingPacket, packetID != .dataPacket {
            throw .invalidValue(field: "Packet ID", offset: start + 6,
                                reason: "\(packetID) is not a packet event (0x02 advertising, 0x06 data)")
        }
    }

    /// Appends the header for a link-layer packet of `packetLength` octets (access address,
    /// Coding Indicator if any, PDU, CRC), with every length field computed from it.
    public func write(to w: inout ByteWriter, packetLength: Int) {
        var lengths = Lengths(payload: Self.length(version: version) - (version == 0 ? 8 : 7) + packetLength)
        var encoder = FieldLayoutEncoder(writer: w)
        var copy = self
        copy.layout(&encoder, lengths: &lengths)
        w = encoder.writer
    }

    /// "nRF Sniffer v3, channel 37, -58 dBm, CRC OK, LE 1M".
    public var description: String {
        var parts = ["nRF Sniffer v\(version)", "channel \(channelIndex)", "\(rssi) dBm"]
        parts.append(flags.isCRCValid ? "CRC OK" : "CRC bad")
        parts.append(Self.phyName(flags.phy))
        return parts.joined(separator: ", ")
    }

    /// "LE 1M", "LE 2M", "LE Coded", or "PHY n" for a reserved value (Core v5.4, Vol 6, Part B, 2.1).
    public static func phyName(_ phy: UInt8) -> String {
        switch phy {
        case 0: return "LE 1M"
        case 1: return "LE 2M"
        case 2: return "LE Coded"
        default: return "PHY \(phy)"
        }
    }
}
