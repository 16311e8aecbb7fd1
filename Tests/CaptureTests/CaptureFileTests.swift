import Testing
import BLECore
@testable import Capture

@Suite("capture file recognition")
struct CaptureFileTests {
    @Test("the magic number picks the format; a cut magic is a truncation, an unknown one is refused")
    func recognition() throws {
        #expect(throws: CaptureError.unrecognizedFormat(magic: [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00])) {
            _ = try CaptureFile(bytes: [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00])   // an ELF file
        }
        #expect(throws: CaptureError.truncated(field: "btsnoop file header", offset: 0, needed: 16, available: 3)) {
            _ = try CaptureFile(bytes: Array("bts".utf8))
        }
        #expect(throws: CaptureError.truncated(field: "pcap file header", offset: 0, needed: 24, available: 2)) {
            _ = try CaptureFile(bytes: [0xA1, 0xB2])
        }
        #expect(throws: CaptureError.truncated(field: "pcapng block header", offset: 0, needed: 8, available: 2)) {
            _ = try CaptureFile(bytes: [0x0A, 0x0D])
        }
        #expect(throws: CaptureError.unrecognizedFormat(magic: [0xA1, 0xFF])) { _ = try CaptureFile(bytes: [0xA1, 0xFF]) }
    }

    @Test("a missing file is an unreadable-file error naming the path")
    func missingFile() {
        do {
            _ = try CaptureFile(contentsOf: "/nonexistent/linuxble/capture.btsnoop")
            Issue.record("read a file that does not exist")
        } catch {
            guard case let .unreadableFile(path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == "/nonexistent/linuxble/capture.btsnoop")
            #expect(error.offset == 0)
        }
    }

    @Test("PPI around LINKTYPE 251 decodes like PPI around 147")
    func ppi251() throws {
        // 00 00 08 00 fb 00 00 00 = PPI version 0, flags 0, pph_len 8 (no fields), pph_dlt 251;
        // then the SCAN_REQ of LinkLayerAdvertisingTests.
        let record = try #require(try CaptureFile(bytes: try PcapReaderTests.oneRecord(linkType: 192, """
            00 00 08 00 fb 00 00 00
            d6 be 89 8e c3 0c 0c b2 f0 de f5 14 16 23 42 82 43 7d 0a d5 5a
            """)).readAll().records.first)
        guard case let .linkLayer(ll) = record.packet else { Issue.record("not LL: \(record.packet)"); return }
        #expect(ll.ppi == PPIHeader(dlt: .bluetoothLELL))
        #expect(ll.ppi?.fields == [])
        #expect(ll.crc == 0x50_AB5A)
    }

    @Test("PPI around another link type is kept raw")
    func ppiOther() throws {
        // PPI version 0, flags 0, pph_len 8, pph_dlt 1 (Ethernet), then 2 octets.
        let record = try #require(try CaptureFile(bytes: try PcapReaderTests.oneRecord(linkType: 192, "00 00 08 00 01 00 00 00 ff ff")).readAll().records.first)
        #expect(record.packet == .unsupported(linkType: .ppi, payload: [0, 0, 8, 0, 1, 0, 0, 0, 0xFF, 0xFF]))
    }

    @Test("link types, formats, opcodes and errors describe themselves")
    func descriptions() {
        #expect(LinkType.bluetoothLELLWithPHDR.description == "BLUETOOTH_LE_LL_WITH_PHDR (256)")
        #expect(LinkType(rawValue: 9).description == "link type 9")
        #expect(CaptureFormat.pcapng.description == "pcapng")
        #expect(MonitorOpcode.isoTXPacket.description == "ISO TX Packet")
        #expect(MonitorOpcode.forHCIPacket(.sco, direction: .hostToController) == .scoTXPacket)
        #expect(CaptureError.truncated(field: "Packet Data", offset: 40, needed: 4, available: 1).description
                == "Packet Data at offset 40 needs 4 octets, 1 left in the file")
        #expect(CaptureWriteError.recordTooLong(recordIndex: 3, length: 300_000).description
                == "record 3: 300000 octets is more than the 262144-octet maximum")
    }
}
