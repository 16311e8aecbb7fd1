import Testing
import BLECore
import HCI
@testable import Capture

/// LINKTYPE_NORDIC_BLE (272): the nRF Sniffer header in each of its versions, then the LE
/// link-layer packet, record by record.
@Suite("nRF Sniffer (LINKTYPE 272) reader")
struct NordicBLEReaderTests {
    /// The link-layer packet every header below carries: a SCAN_REQ.
    /// d6 be 89 8e           access address 0x8E89BED6 (advertising)
    /// c3 0c                 SCAN_REQ, TxAdd 1, RxAdd 1, Length 12
    /// 0c b2 f0 de f5 14     ScanA 14:F5:DE:F0:B2:0C
    /// 16 23 42 82 43 7d     AdvA 7D:43:82:42:23:16
    /// 0a d5 5a              CRC
    static let scanRequest = "d6 be 89 8e c3 0c 0c b2 f0 de f5 14 16 23 42 82 43 7d 0a d5 5a"

    /// Version 0 (legacy): no board ID.
    static let version0 = """
        be ef        # Marker
        06           # Packet ID: EVENT_PACKET_DATA
        05 00        # Packet Counter 5
        00 00        # reserved
        1e           # Payload Length 30: 9 octets of event fields + 21 of packet
        01           # Flags: CRC OK, LE 1M
        25           # Channel Index 37
        3a           # RSSI Sample 58: -58 dBm
        00 00        # Event Counter 0
        10 27 00 00  # Time 10,000 us since the end of the previous packet
        
        """ + scanRequest

    /// Version 1: Header Length and a one-octet Payload Length.
    static let version1 = """
        00           # Board ID 0
        06           # Header Length 6
        1f           # Payload Length 31: 10 octets of event header + 21 of packet
        01           # Protocol Version 1
        05 00        # Packet Counter 5
        06           # Packet ID: EVENT_PACKET_DATA
        0a           # Event Header Length 10
        01 25 3a 00 00 10 27 00 00
        
        """ + scanRequest

    /// Version 2: a two-octet Payload Length.
    static let version2 = """
        00           # Board ID 0
        1f 00        # Payload Length 31
        02           # Protocol Version 2
        05 00        # Packet Counter 5
        06           # Packet ID: EVENT_PACKET_DATA
        0a           # Event Header Length 10
        01 25 3a 00 00 10 27 00 00
        
        """ + scanRequest

    /// Version 3: the Packet ID names advertising, Time is the sniffer's clock.
    static let version3 = """
        00 1f 00 03 05 00
        02           # Packet ID: EVENT_PACKET_ADVERTISING
        0a 01 25 3a 00 00
        40 42 0f 00  # Time 1,000,000 us on the sniffer's clock
        
        """ + scanRequest

    /// A data PDU, peripheral to central, version 2: an ATT Exchange MTU Request.
    static let dataPeripheralToCentral = """
        00 1a 00 02 06 00 06 0a
        00           # Flags: CRC bad, peripheral to central, not encrypted, LE 1M
        0c           # Channel Index 12
        37           # RSSI Sample 55: -55 dBm
        2a 00        # Event Counter 42
        96 00 00 00  # Time 150 us
        27 4a 65 50  # access address 0x50654A27
        06 07        # LL Data (start), NESN 1, SN 0, Length 7
        03 00 04 00 02 05 02   # L2CAP length 3, CID 4: ATT Exchange MTU Request, MTU 517
        67 46 04     # CRC
        """

    static func decode(_ text: String) throws -> LinkLayerRecord {
        try LinkLayerRecord(decoding: try octets(text), linkType: .nordicBLE)
    }

    @Test("every header version decodes to the same event fields and the same packet",
          arguments: [UInt8(0), 1, 2, 3])
    func headerVersions(_ version: UInt8) throws {
        let text = [Self.version0, Self.version1, Self.version2, Self.version3][Int(version)]
        let record = try Self.decode(text)
        let header = try #require(record.nordic)
        #expect(header.version == version)
        #expect(header.boardID == (version == 0 ? nil : 0))
        #expect(header.packetCounter == 5)
        #expect(header.channelIndex == 37)
        #expect(header.rssi == -58)
        #expect(header.flags.isCRCValid)
        #expect(header.flags.phy == 0)
        #expect(header.time == (version == 3 ? 1_000_000 : 10_000))
        #expect(header.packetID == (version == 3 ? .advertisingPacket : .dataPacket))
        #expect(record.accessAddress == LinkLayerRecord.advertisingAccessAddress)
        guard case .advertising(let adv) = record.pdu else { Issue.record("not advertising: \(record.pdu)"); return }
        #expect(adv.pduType == .scanReq)
        #expect(adv.advA == BluetoothAddress("7D:43:82:42:23:16"))
        #expect(record.isCRCValid(crcInit: LinkLayerCRC.advertisingCRCInit))
        // The verdict: CRC from the header, no direction for advertising, RSSI and channel.
        #expect(record.sniffer == SnifferVerdict(isCRCValid: true, rssi: -58, channelIndex: 37, phy: 0))
        #expect(record.encoded == (try octets(text)))
    }

    @Test("a data PDU takes its direction, CRC result and event counter from the header")
    func dataPDU() throws {
        let record = try Self.decode(Self.dataPeripheralToCentral)
        let header = try #require(record.nordic)
        #expect(header.eventCounter == 42)
        #expect(header.rssi == -55)
        #expect(!header.flags.isCRCValid)
        guard case .data(let pdu) = record.pdu else { Issue.record("not data: \(record.pdu)"); return }
        #expect(pdu.payload == [0x03, 0x00, 0x04, 0x00, 0x02, 0x05, 0x02])
        #expect(record.sniffer.direction == .peripheralToCentral)
        #expect(record.sniffer.isCRCValid == false)
        #expect(record.sniffer.isEncrypted == false)
        #expect(record.sniffer.isMICValid == nil)
        #expect(record.encoded == (try octets(Self.dataPeripheralToCentral)))
    }

    @Test("a packet on LE Coded keeps the Coding Indicator between the access address and the PDU")
    func codedPHY() throws {
        var bytes = try octets(Self.version3)
        bytes[1] += 1                      // Payload Length 32: one more octet
        bytes[8] = 0x21                    // Flags: CRC OK, PHY 2 (LE Coded)
        bytes.insert(0x00, at: 17 + 4)     // Coding Indicator 0 (S=8) after the access address
        let record = try LinkLayerRecord(decoding: bytes, linkType: .nordicBLE)
        #expect(record.codingIndicator == 0)
        #expect(record.sniffer.phy == 2)
        guard case .advertising(let adv) = record.pdu else { Issue.record("not advertising"); return }
        #expect(adv.pduType == .scanReq)
        #expect(record.encoded == bytes)
    }

    @Test("a header of a version this reader does not know is refused with the version")
    func unknownVersion() throws {
        var bytes = try octets(Self.version2)
        bytes[3] = 4
        #expect(throws: BLEDecodingError.invalidValue(field: "Protocol Version", offset: 3,
                                                       reason: "nRF Sniffer header version 4 is not one this reader knows (0...3)")) {
            try LinkLayerRecord(decoding: bytes, linkType: .nordicBLE)
        }
    }

    @Test("a Payload Length that runs past the record, or stops short of it, is refused with both lengths")
    func payloadLengthMismatch() throws {
        var long = try octets(Self.version2)
        long[1] = 40
        #expect(throws: BLEDecodingError.invalidValue(field: "Payload Length", offset: 1,
            reason: "40 octets runs past the end of the record (31 octets follow the UART header)")) {
            try LinkLayerRecord(decoding: long, linkType: .nordicBLE)
        }
        var short = try octets(Self.version1)
        short[2] = 20
        #expect(throws: BLEDecodingError.invalidValue(field: "Payload Length", offset: 2,
            reason: "20 octets ends before the record does (31 octets follow the UART header)")) {
            try LinkLayerRecord(decoding: short, linkType: .nordicBLE)
        }
    }

    @Test("a version 3 Packet ID that is not a packet event is refused")
    func unknownPacketType() throws {
        var bytes = try octets(Self.version3)
        bytes[6] = 0x09
        #expect(throws: BLEDecodingError.invalidValue(field: "Packet ID", offset: 6,
            reason: "EVENT_DISCONNECT (0x09) is not a packet event (0x02 advertising, 0x06 data)")) {
            try LinkLayerRecord(decoding: bytes, linkType: .nordicBLE)
        }
    }

    @Test("a pcap file keeps the good records around one whose header is bad, which is listed raw with the reason")
    func badRecordBetweenGoodOnes() throws {
        var unknown = try octets(Self.version2)
        unknown[3] = 9
        let file = pcap([try octets(Self.version0), unknown, try octets(Self.version3)])
        let result = try CaptureFile(bytes: file).readAll()
        #expect(result.error == nil)
        #expect(result.records.count == 3)
        guard case .linkLayer = result.records[0].packet, case .linkLayer = result.records[2].packet,
              case let .malformed(linkType, payload, error) = result.records[1].packet else {
            Issue.record("records: \(result.records.map(\.packet))")
            return
        }
        #expect(linkType == .nordicBLE)
        #expect(payload == unknown)
        #expect(error.description.contains("version 9 is not one this reader knows"))
        var dissector = Dissector()
        let lines = result.records.map { dissector.dissect($0).line }
        #expect(lines[1].contains("malformed NORDIC_BLE (272) (38 octets)"))
        #expect(lines[1].contains("version 9"))
    }

    @Test("the record's direction is the header's for data PDUs, unknown for advertising")
    func recordDirection() throws {
        var flipped = try octets(Self.dataPeripheralToCentral)
        flipped[8] = 0x03   // CRC OK, central to peripheral
        let records = try CaptureFile(bytes: pcap([try octets(Self.dataPeripheralToCentral), flipped, try octets(Self.version1)]))
            .readAll().records
        #expect(records.map(\.direction) == [.peripheralToCentral, .centralToPeripheral, .unknown])
    }

    @Test("a bad CRC and a bad MIC are shown as such and never decoded as ATT; a decrypted payload is")
    func badCRCAndMIC() throws {
        let good = try octets(Self.dataPeripheralToCentral)
        // Each with its own SN, so that none repeats the one before (a retransmission).
        func with(flags: UInt8, sn: UInt8 = 0) -> [UInt8] { var b = good; b[8] = flags; b[21] |= sn << 3; return b }
        // 0x01 CRC OK; 0x00 CRC bad; 0x05 encrypted, MIC bad; 0x0D encrypted, MIC OK (decrypted);
        // 0x04 encrypted, MIC bad, CRC bad (the CRC wins).
        let file = pcap([with(flags: 0x01), with(flags: 0x00), with(flags: 0x05), with(flags: 0x0D, sn: 1), with(flags: 0x04)])
        var dissector = Dissector()
        let packets = try CaptureFile(bytes: file).readAll().records.map { dissector.dissect($0) }
        let stages = packets.map { packet -> String in
            guard case let .linkLayer(_, stage) = packet.content else { return "not link layer" }
            return stage.name
        }
        #expect(stages == ["l2cap", "bad_crc", "bad_mic", "l2cap", "bad_crc"])
        #expect(packets.map { $0.attPDU?.opcode.rawValue } == [0x02, nil, nil, 0x02, nil])
        #expect(packets[2].line.hasSuffix("P>C LL 0x50654a27 MIC error (decrypted incorrectly), not decoded"))
        #expect(packets[1].line.hasSuffix("P>C LL 0x50654a27 CRC error, not decoded"))
        #expect(dissector.report.attCounts.map(\.count) == [2])
    }

    @Test("the JSON of a packet carries what the header says: channel, RSSI, PHY, CRC and MIC results")
    func json() throws {
        var bytes = try octets(Self.dataPeripheralToCentral)
        bytes[8] = 0x1D   // CRC OK, encrypted, MIC OK, LE 2M
        var dissector = Dissector()
        let packet = dissector.dissect(try #require(try CaptureFile(bytes: pcap([bytes])).readAll().records.first))
        let text = packet.jsonText
        #expect(text.contains(#""link_layer":{"access_address":1348815399,"stage":"l2cap","channel_index":12,"rssi":-55,"phy":"LE 2M","crc_valid":true,"mic_valid":true}"#))
    }

    @Test("random damage to each header version either throws or decodes to a record that encodes back to the same octets")
    func damagedHeadersRoundTrip() throws {
        var rng = SplitMix64(seed: 0x272)
        let seeds = try [Self.version0, Self.version1, Self.version2, Self.version3, Self.dataPeripheralToCentral].map { try octets($0) }
        var decoded = 0
        for i in 0..<20_000 {
            let bytes = RobustnessTests.mutate(seeds[i % seeds.count], &rng)
            guard let record = try? LinkLayerRecord(decoding: bytes, linkType: .nordicBLE) else { continue }
            decoded += 1
            #expect(record.encoded == bytes)
            _ = record.description
            _ = record.sniffer
        }
        #expect(decoded > 2000)
    }

    /// A little-endian microsecond pcap file of LINKTYPE 272 holding `records`.
    func pcap(_ records: [[UInt8]]) -> [UInt8] {
        var w = ByteWriter()
        for value: UInt32 in [0xA1B2_C3D4] { w.writeUInt32(value) }
        w.writeUInt16(2)
        w.writeUInt16(4)
        for value: UInt32 in [0, 0, 65_535, 272] { w.writeUInt32(value) }
        for (i, record) in records.enumerated() {
            for value in [UInt32(1_700_000_000 + i), 0, UInt32(record.count), UInt32(record.count)] { w.writeUInt32(value) }
            w.writeBytes(record)
        }
        return w.bytes
    }
}
