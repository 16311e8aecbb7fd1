import Testing
import BLECore
import HCI
@testable import Capture

@Suite("pcap reader")
struct PcapReaderTests {
    /// Little-endian, microsecond pcap with LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR (201).
    static let h4WithDirection = """
        d4 c3 b2 a1               # magic 0xa1b2c3d4 written little-endian: microseconds
        02 00 04 00               # version 2.4
        00 00 00 00 00 00 00 00   # two reserved fields
        ff ff 00 00               # SnapLen 65535
        c9 00 00 00               # LinkType 201
        # record 0 at offset 24
        d6 2c 1d 51               # 1360866518 s
        2b 42 05 00               # 344619 us
        08 00 00 00 08 00 00 00   # Captured and Original Packet Length 8
        00 00 00 00               # direction 0: sent by the host
        01 03 0c 00               # H4 Command HCI_Reset
        # record 1 at offset 48
        d6 2c 1d 51 2c 42 05 00   # 1360866518.344620
        0b 00 00 00 0b 00 00 00   # 11 octets
        00 00 00 01               # direction 1: received by the host
        04 0e 04 01 03 0c 00      # H4 Event Command Complete
        # end at offset 75
        """

    @Test("LINKTYPE 201, little-endian microseconds, field by field")
    func h4WithPHDR() throws {
        let file = try CaptureFile(bytes: try octets(Self.h4WithDirection))
        #expect(file.format == .pcap)
        #expect(file.linkType == .bluetoothHCIH4WithPHDR)
        let result = file.readAll()
        #expect(result.error == nil)
        try #require(result.records.count == 2)
        let (command, event) = (result.records[0], result.records[1])
        #expect(command.index == 0)
        #expect(command.timestamp == 1_360_866_518_344_619)
        #expect(command.subMicrosecondNanoseconds == 0)
        #expect(command.direction == .hostToController)
        #expect(command.packet == .hci(type: .command, payload: [0x03, 0x0C, 0x00]))
        #expect(command.originalLength == 8 && command.capturedLength == 8)
        #expect(command.controllerIndex == nil && command.interfaceID == nil && command.cumulativeDrops == nil)
        #expect(event.index == 1)
        #expect(event.timestamp == 1_360_866_518_344_620)
        #expect(event.direction == .controllerToHost)
        #expect(event.packet == .hci(type: .event, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]))
    }

    @Test("the file cut at every length returns the records before the cut, then the error")
    func truncatedEverywhere() throws {
        let bytes = try octets(Self.h4WithDirection)
        #expect(bytes.count == 75)
        for n in 0...bytes.count {
            let expected: (records: Int, error: CaptureError?)
            switch n {
            case 0: expected = (0, .unrecognizedFormat(magic: []))
            case 1..<24: expected = (0, .truncated(field: "pcap file header", offset: 0, needed: 24, available: n))
            case 24: expected = (0, nil)
            case 25..<40: expected = (0, .truncated(field: "pcap record header", offset: 24, needed: 16, available: n - 24))
            case 40..<48: expected = (0, .truncated(field: "Packet Data", offset: 40, needed: 8, available: n - 40))
            case 48: expected = (1, nil)
            case 49..<64: expected = (1, .truncated(field: "pcap record header", offset: 48, needed: 16, available: n - 48))
            case 64..<75: expected = (1, .truncated(field: "Packet Data", offset: 64, needed: 11, available: n - 64))
            default: expected = (2, nil)
            }
            let result: CaptureReadResult
            do {
                result = try CaptureFile(bytes: Array(bytes.prefix(n))).readAll()
            } catch {
                #expect(expected.records == 0 && error == expected.error, "cut at \(n)")
                continue
            }
            #expect(result.records.count == expected.records, "cut at \(n)")
            #expect(result.error == expected.error, "cut at \(n)")
        }
    }

    @Test("big-endian nanosecond pcap, LINKTYPE 187 with FCS information in the upper bits")
    func bigEndianNanoseconds() throws {
        let bytes = try octets("""
            a1 b2 3c 4d               # magic 0xa1b23c4d big-endian: nanoseconds
            00 02 00 04 00 00 00 00 00 00 00 00
            00 04 00 00               # SnapLen 262144
            10 00 00 bb               # LinkType 187, FCS bits 0x1000 above it (ignored)
            51 1d 2c d6               # 1360866518 s
            14 8a 78 73               # 344619123 ns
            00 00 00 04 00 00 00 09   # Captured 4 of Original 9
            02 40 00 05               # H4 ACL, cut after its header
            """)
        let file = try CaptureFile(bytes: bytes)
        #expect(file.linkType == .bluetoothHCIH4)
        let record = try #require(file.readAll().records.first)
        #expect(record.timestamp == 1_360_866_518_344_619)
        #expect(record.subMicrosecondNanoseconds == 123)
        #expect(record.timestampNanoseconds == 1_360_866_518_344_619_123)
        #expect(record.direction == .unknown)
        #expect(record.packet == .hci(type: .acl, payload: [0x40, 0x00, 0x05]))
        #expect(record.isTruncated)
        #expect(record.description == "#0 1360866518.344619123 HCI ACL, 3 octets")
    }

    /// A little-endian pcap header for `linkType` followed by one record of `payload`.
    static func oneRecord(linkType: UInt8, _ payload: String) throws -> [UInt8] {
        let data = try octets(payload)
        let length = UInt8(data.count)
        return [0xD4, 0xC3, 0xB2, 0xA1, 0x02, 0x00, 0x04, 0x00] + Array(repeating: 0, count: 8)
            + [0xFF, 0xFF, 0x00, 0x00, linkType, 0x00, 0x00, 0x00]
            + [0, 0, 0, 0, 0, 0, 0, 0, length, 0, 0, 0, length, 0, 0, 0] + data
    }

    @Test("LINKTYPE 254 (Linux monitor): adapter index and opcode, big-endian")
    func linuxMonitor() throws {
        // 00 01 = hci1; 00 05 = ACL RX Packet; 40 20 00 00 = ACL handle 0x040, empty
        let rx = try #require(try CaptureFile(bytes: try Self.oneRecord(linkType: 254, "00 01 00 05 40 20 00 00")).readAll().records.first)
        #expect(rx.packet == .hci(type: .acl, payload: [0x40, 0x20, 0x00, 0x00]))
        #expect(rx.direction == .controllerToHost)
        #expect(rx.controllerIndex == 1)
        // ff ff = no controller; 00 0d = User Logging; 06 03 61 62 00 = priority 6, ident "ab"
        let log = try #require(try CaptureFile(bytes: try Self.oneRecord(linkType: 254, "ff ff 00 0d 06 03 61 62 00")).readAll().records.first)
        #expect(log.packet == .monitor(opcode: .userLogging, payload: [0x06, 0x03, 0x61, 0x62, 0x00]))
        #expect(log.controllerIndex == 0xFFFF)
        // 3 octets: the opcode is cut.
        let short = try #require(try CaptureFile(bytes: try Self.oneRecord(linkType: 254, "00 00 00")).readAll().records.first)
        #expect(short.packet == .malformed(linkType: .bluetoothLinuxMonitor, payload: [0, 0, 0],
                                           error: .truncated(field: "Opcode", offset: 2, needed: 2, available: 1)))
    }

    @Test("LINKTYPE 251, PPI around 147, malformed LL, malformed 201, other link types kept raw")
    func otherLinkTypes() throws {
        // LINKTYPE 251: the SCAN_REQ of LinkLayerAdvertisingTests.
        let scan = try #require(try CaptureFile(bytes: try Self.oneRecord(linkType: 251, "d6 be 89 8e c3 0c 0c b2 f0 de f5 14 16 23 42 82 43 7d 0a d5 5a")).readAll().records.first)
        guard case let .linkLayer(ll) = scan.packet, case let .advertising(pdu) = ll.pdu else { Issue.record("not LL"); return }
        #expect(pdu.pduType == .scanReq)

        // LINKTYPE 192: the ADV_IND in PPI of LinkLayerAdvertisingTests.
        let ppi = try #require(try CaptureFile(bytes: try Self.oneRecord(linkType: 192, LinkLayerAdvertisingTests.advIndPPI)).readAll().records.first)
        guard case let .linkLayer(wrapped) = ppi.packet else { Issue.record("not LL"); return }
        #expect(wrapped.ppi?.dlt == .user0)

        // LINKTYPE 251 whose Length (0x20) runs past the record: AdvData needs 26 octets, none left.
        let bad = try #require(try CaptureFile(bytes: try Self.oneRecord(linkType: 251, "d6 be 89 8e 00 20 01 02 03 04 05 06")).readAll().records.first)
        #expect(bad.packet == .malformed(linkType: .bluetoothLELL, payload: try octets("d6 be 89 8e 00 20 01 02 03 04 05 06"),
                                         error: .truncated(field: "AdvData", offset: 12, needed: 26, available: 0)))

        // LINKTYPE 201 with only 2 octets.
        let cut = try #require(try CaptureFile(bytes: try Self.oneRecord(linkType: 201, "00 00")).readAll().records.first)
        #expect(cut.packet == .malformed(linkType: .bluetoothHCIH4WithPHDR, payload: [0, 0],
                                         error: .truncated(field: "Direction", offset: 0, needed: 4, available: 2)))

        // LINKTYPE 1 (Ethernet) is not ours: kept raw.
        let ethernet = try #require(try CaptureFile(bytes: try Self.oneRecord(linkType: 1, "ff ff ff")).readAll().records.first)
        #expect(ethernet.packet == .unsupported(linkType: LinkType(rawValue: 1), payload: [0xFF, 0xFF, 0xFF]))
    }

    @Test("version 3 is refused; an absurd Captured Packet Length stops at its offset")
    func badFiles() throws {
        var bytes = try octets(Self.h4WithDirection)
        bytes[4] = 3
        #expect(throws: CaptureError.unsupportedVersion(format: .pcap, offset: 4, version: "3.4")) { _ = try CaptureFile(bytes: bytes) }

        bytes = try octets(Self.h4WithDirection)
        bytes.replaceSubrange(56..<60, with: [0x00, 0x00, 0x10, 0x00])   // record 1: 1 MiB
        let result = try CaptureFile(bytes: bytes).readAll()
        #expect(result.records.count == 1)
        #expect(result.error == .invalidLength(field: "Captured Packet Length", offset: 56, length: 0x10_0000,
                                               reason: "more than the 262144-octet maximum record"))
    }
}
