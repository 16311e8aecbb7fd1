import Testing
import BLECore
import HCI
@testable import Capture

@Suite("btsnoop reader")
struct BTSnoopReaderTests {
    /// A btsnoop H4 file: two records from the nexxtender capture and a truncated ACL record.
    static let h4File = """
        62 74 73 6e 6f 6f 70 00   # identification "btsnoop\\0"
        00 00 00 01               # version 1
        00 00 03 ea               # datalink 1002 (H4)
        # record 0 at offset 16
        00 00 00 04               # Original Length 4
        00 00 00 04               # Included Length 4
        00 00 00 02               # Packet Flags: sent (bit 0 = 0), command/event (bit 1)
        00 00 00 00               # Cumulative Drops 0
        00 e3 08 31 22 43 d3 16   # Timestamp: Unix 1735570834.608918
        01 03 0c 00               # H4 Command: HCI_Reset (0x0c03), no parameters
        # record 1 at offset 44
        00 00 00 07 00 00 00 07   # Original Length 7, Included Length 7
        00 00 00 03               # Packet Flags: received, command/event
        00 00 00 00               # Cumulative Drops 0
        00 e3 08 31 22 43 e7 fb   # Timestamp: Unix 1735570834.614267
        04 0e 04 01 03 0c 00      # H4 Event: Command Complete, 1 packet, HCI_Reset, Success
        # record 2 at offset 75
        00 00 00 10 00 00 00 0c   # Original Length 16, Included Length 12 (truncated by the capture)
        00 00 00 01               # Packet Flags: received, data
        00 00 00 05               # Cumulative Drops 5
        00 e3 08 31 22 44 00 00   # Timestamp: Unix 1735570834.620416
        02 40 20 07 00 03 00 04 00 02 f7 01   # H4 ACL: handle 0x040, start; L2CAP 3 octets on CID 4: Exchange MTU Request 503
        # end of file at offset 111
        """

    @Test("an H4 file, record by record and field by field")
    func h4Fixture() throws {
        let file = try CaptureFile(bytes: try octets(Self.h4File))
        #expect(file.format == .btsnoop)
        #expect(file.linkType == .btsnoopH4)
        let result = file.readAll()
        #expect(result.error == nil)
        try #require(result.records.count == 3)
        let (reset, complete, acl) = (result.records[0], result.records[1], result.records[2])

        #expect(reset.index == 0)
        #expect(reset.timestamp == 1_735_570_834_608_918)
        #expect(reset.subMicrosecondNanoseconds == 0)
        #expect(reset.direction == .hostToController)
        #expect(reset.controllerIndex == nil)
        #expect(reset.interfaceID == nil)
        #expect(reset.cumulativeDrops == 0)
        #expect(reset.packet == .hci(type: .command, payload: [0x03, 0x0C, 0x00]))
        #expect(reset.originalLength == 4)
        #expect(reset.capturedLength == 4)
        #expect(!reset.isTruncated)
        #expect(reset.description == "#0 1735570834.608918 host->controller HCI Command, 3 octets")

        #expect(complete.index == 1)
        #expect(complete.timestamp == 1_735_570_834_614_267)
        #expect(complete.direction == .controllerToHost)
        #expect(complete.packet == .hci(type: .event, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]))
        #expect(complete.originalLength == 7 && complete.capturedLength == 7)

        #expect(acl.index == 2)
        #expect(acl.timestamp == 1_735_570_834_620_416)
        #expect(acl.direction == .controllerToHost)
        #expect(acl.cumulativeDrops == 5)
        #expect(acl.packet == .hci(type: .acl, payload: [0x40, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x02, 0xF7, 0x01]))
        #expect(acl.originalLength == 16)
        #expect(acl.capturedLength == 12)
        #expect(acl.isTruncated)
    }

    @Test("the file cut at every length returns the records before the cut, then the error")
    func truncatedEverywhere() throws {
        let bytes = try octets(Self.h4File)
        #expect(bytes.count == 111)
        for n in 0...bytes.count {
            let prefix = Array(bytes.prefix(n))
            // The expected outcome for each cut, from the annotated layout above.
            let expected: (records: Int, error: CaptureError?)
            switch n {
            case 0: expected = (0, .unrecognizedFormat(magic: []))
            case 1..<16: expected = (0, .truncated(field: "btsnoop file header", offset: 0, needed: 16, available: n))
            case 16: expected = (0, nil)
            case 17..<40: expected = (0, .truncated(field: "btsnoop record header", offset: 16, needed: 24, available: n - 16))
            case 40..<44: expected = (0, .truncated(field: "Packet Data", offset: 40, needed: 4, available: n - 40))
            case 44: expected = (1, nil)
            case 45..<68: expected = (1, .truncated(field: "btsnoop record header", offset: 44, needed: 24, available: n - 44))
            case 68..<75: expected = (1, .truncated(field: "Packet Data", offset: 68, needed: 7, available: n - 68))
            case 75: expected = (2, nil)
            case 76..<99: expected = (2, .truncated(field: "btsnoop record header", offset: 75, needed: 24, available: n - 75))
            case 99..<111: expected = (2, .truncated(field: "Packet Data", offset: 99, needed: 12, available: n - 99))
            default: expected = (3, nil)
            }
            let file: CaptureFile
            do {
                file = try CaptureFile(bytes: prefix)
            } catch {
                #expect(expected.records == 0 && error == expected.error, "cut at \(n)")
                continue
            }
            let result = file.readAll()
            #expect(result.records.count == expected.records, "cut at \(n)")
            #expect(result.error == expected.error, "cut at \(n)")
        }
    }

    @Test("an absurd Included Length stops the reading at its offset, after the good records")
    func absurdLength() throws {
        var bytes = try octets(Self.h4File)
        // Record 1's Included Length (offset 48) becomes 0x01000000.
        bytes.replaceSubrange(48..<52, with: [0x01, 0x00, 0x00, 0x00])
        let result = try CaptureFile(bytes: bytes).readAll()
        #expect(result.records.count == 1)
        #expect(result.error == .invalidLength(field: "Included Length", offset: 48, length: 0x0100_0000,
                                               reason: "more than the 262144-octet maximum record"))
        // The reader reports nil after the error, never the same error twice.
        var reader = try CaptureFile(bytes: bytes).makeReader()
        _ = try reader.next()
        #expect(throws: CaptureError.self) { _ = try reader.next() }
        #expect(try reader.next() == nil)
        #expect(reader.recordCount == 1)
    }

    @Test("a timestamp before the 64-bit range spoils only itself: the record is kept and reading goes on")
    func timestampOutOfRange() throws {
        var bytes = try octets(Self.h4File)
        // Record 0's Timestamp (offset 32) becomes 0x8000000000000000: far before year 0 minus the epoch offset.
        bytes.replaceSubrange(32..<40, with: [0x80, 0, 0, 0, 0, 0, 0, 0])
        let result = try CaptureFile(bytes: bytes).readAll()
        #expect(result.error == nil)
        #expect(result.records.count == 3)
        #expect(result.records[0].timestamp == 0)
        #expect(result.records[0].timestampError == .invalidValue(
            field: "Timestamp", offset: 32, reason: "-9223372036854775808 us since year 0 is before the 64-bit range"))
        #expect(result.records[0].packet == .hci(type: .command, payload: [0x03, 0x0C, 0x00]))
        #expect(result.records[1].timestampError == nil)
    }

    @Test("bad magic, unsupported version")
    func badHeaders() throws {
        #expect(throws: CaptureError.unrecognizedFormat(magic: Array("snoop\0\0\0".utf8))) {
            _ = try CaptureFile(bytes: Array("snoop\0\0\0\0\0\0\u{2}\0\0\0\u{4}".utf8))
        }
        var bytes = try octets(Self.h4File)
        bytes[11] = 2   // version 2
        #expect(throws: CaptureError.unsupportedVersion(format: .btsnoop, offset: 8, version: "2")) {
            _ = try CaptureFile(bytes: bytes)
        }
    }

    @Test("datalink 1001: the flags give the packet type")
    func unencapsulatedHCI() throws {
        let bytes = try octets("""
            62 74 73 6e 6f 6f 70 00 00 00 00 01 00 00 03 e9   # btsnoop, version 1, datalink 1001
            00 00 00 03 00 00 00 03 00 00 00 02 00 00 00 00 00 e3 08 31 22 43 d3 16   # sent command
            03 0c 00                                                                 # HCI_Reset
            00 00 00 06 00 00 00 06 00 00 00 03 00 00 00 00 00 e3 08 31 22 43 d3 17   # received event
            0e 04 01 03 0c 00                                                        # Command Complete
            00 00 00 04 00 00 00 04 00 00 00 00 00 00 00 00 00 e3 08 31 22 43 d3 18   # sent data
            40 00 00 00                                                              # ACL, handle 0x040, empty
            00 00 00 04 00 00 00 04 00 00 00 01 00 00 00 00 00 e3 08 31 22 43 d3 19   # received data
            40 20 00 00
            """)
        let result = try CaptureFile(bytes: bytes).readAll()
        #expect(result.error == nil)
        #expect(result.records.map(\.packet) == [
            .hci(type: .command, payload: [0x03, 0x0C, 0x00]),
            .hci(type: .event, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]),
            .hci(type: .acl, payload: [0x40, 0x00, 0x00, 0x00]),
            .hci(type: .acl, payload: [0x40, 0x20, 0x00, 0x00]),
        ])
        #expect(result.records.map(\.direction) == [.hostToController, .controllerToHost, .hostToController, .controllerToHost])
        #expect(result.records.map(\.timestamp) == [1_735_570_834_608_918, 1_735_570_834_608_919, 1_735_570_834_608_920, 1_735_570_834_608_921])
    }

    /// A btsnoop Linux monitor file (datalink 2001): Packet Flags = index << 16 | opcode.
    static let monitorFile = """
        62 74 73 6e 6f 6f 70 00 00 00 00 01 00 00 07 d1   # btsnoop, version 1, datalink 2001
        # New Index on hci1: Type 0x00 (primary), Bus 0x01 (USB), BD_ADDR 00:1A:7D:DA:71:13, Name "hci1"
        00 00 00 10 00 00 00 10 00 01 00 00 00 00 00 00 00 e3 08 31 22 43 d3 16
        00 01 13 71 da 7d 1a 00 68 63 69 31 00 00 00 00
        # Command Packet on hci1: HCI_Reset
        00 00 00 03 00 00 00 03 00 01 00 02 00 00 00 00 00 e3 08 31 22 43 d3 17
        03 0c 00
        # Event Packet on hci1: Command Complete
        00 00 00 06 00 00 00 06 00 01 00 03 00 00 00 00 00 e3 08 31 22 43 d3 18
        0e 04 01 03 0c 00
        # ACL TX Packet on hci1: handle 0x040, start, 7 octets: L2CAP 3 on CID 4: Exchange MTU Request 23
        00 00 00 0b 00 00 00 0b 00 01 00 04 00 00 00 00 00 e3 08 31 22 43 d3 19
        40 00 07 00 03 00 04 00 02 17 00
        # ACL RX Packet on hci1: Exchange MTU Response 23
        00 00 00 0b 00 00 00 0b 00 01 00 05 00 00 00 00 00 e3 08 31 22 43 d3 1a
        40 20 07 00 03 00 04 00 03 17 00
        # System Note, no controller (index 0xFFFF): "hi\\0"
        00 00 00 03 00 00 00 03 ff ff 00 0c 00 00 00 00 00 e3 08 31 22 43 d3 1b
        68 69 00
        # ISO RX Packet on hci0: handle 0x060, 0 octets
        00 00 00 04 00 00 00 04 00 00 00 13 00 00 00 00 00 e3 08 31 22 43 d3 1c
        60 00 00 00
        # opcode 0x0099 (unknown) on hci0
        00 00 00 01 00 00 00 01 00 00 00 99 00 00 00 00 00 e3 08 31 22 43 d3 1d
        aa
        """

    @Test("datalink 2001: packet opcodes become HCI packets, the rest stay monitor records")
    func monitor() throws {
        let file = try CaptureFile(bytes: try octets(Self.monitorFile))
        #expect(file.linkType == .btsnoopMonitor)
        let result = file.readAll()
        #expect(result.error == nil)
        let r = result.records
        try #require(r.count == 8)
        #expect(r[0].packet == .monitor(opcode: .newIndex, payload: [0x00, 0x01, 0x13, 0x71, 0xDA, 0x7D, 0x1A, 0x00, 0x68, 0x63, 0x69, 0x31, 0, 0, 0, 0]))
        #expect(r[0].controllerIndex == 1)
        #expect(r[0].direction == .unknown)
        #expect(r[1].packet == .hci(type: .command, payload: [0x03, 0x0C, 0x00]))
        #expect(r[1].direction == .hostToController)
        #expect(r[1].controllerIndex == 1)
        #expect(r[2].packet == .hci(type: .event, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]))
        #expect(r[2].direction == .controllerToHost)
        #expect(r[3].packet == .hci(type: .acl, payload: [0x40, 0x00, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x02, 0x17, 0x00]))
        #expect(r[3].direction == .hostToController)
        #expect(r[4].packet == .hci(type: .acl, payload: [0x40, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x03, 0x17, 0x00]))
        #expect(r[4].direction == .controllerToHost)
        #expect(r[5].packet == .monitor(opcode: .systemNote, payload: [0x68, 0x69, 0x00]))
        #expect(r[5].controllerIndex == 0xFFFF)
        #expect(r[6].packet == .hci(type: .iso, payload: [0x60, 0x00, 0x00, 0x00]))
        #expect(r[6].direction == .controllerToHost)
        #expect(r[6].controllerIndex == 0)
        #expect(r[7].packet == .monitor(opcode: MonitorOpcode(rawValue: 0x0099), payload: [0xAA]))
        #expect(r[7].packet.description == "monitor monitor opcode 0x0099, 1 octet")
        #expect(r[0].description == "#0 1735570834.608918 hci1 monitor New Index, 16 octets")
    }

    @Test("an empty H4 record is kept as malformed; an undecoded datalink is kept raw")
    func keptRecords() throws {
        let h4 = try octets("""
            62 74 73 6e 6f 6f 70 00 00 00 00 01 00 00 03 ea
            00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00 00 e3 08 31 22 43 d3 16   # 0 octets, received
            """)
        let record = try #require(try CaptureFile(bytes: h4).readAll().records.first)
        #expect(record.packet == .malformed(linkType: .btsnoopH4, payload: [],
                                            error: .truncated(field: "HCI packet indicator", offset: 0, needed: 1, available: 0)))
        #expect(record.direction == .controllerToHost)

        let h5 = try octets("""
            62 74 73 6e 6f 6f 70 00 00 00 00 01 00 00 03 ec   # datalink 1004 (H5)
            00 00 00 02 00 00 00 02 00 00 00 00 00 00 00 00 00 e3 08 31 22 43 d3 16
            c0 c0
            """)
        let raw = try #require(try CaptureFile(bytes: h5).readAll().records.first)
        #expect(raw.packet == .unsupported(linkType: .btsnoopH5, payload: [0xC0, 0xC0]))
        #expect(raw.direction == .hostToController)
    }
}
