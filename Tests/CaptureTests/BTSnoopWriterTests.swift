import Foundation
import Testing
import BLECore
import HCI
@testable import Capture

@Suite("btsnoop writer")
struct BTSnoopWriterTests {
    @Test("the H4 fixture's records write back to the fixture's octets")
    func h4RoundTrip() throws {
        let bytes = try octets(BTSnoopReaderTests.h4File)
        let records = try CaptureFile(bytes: bytes).readAll().records
        let written = try BTSnoopWriter.encode(records, datalink: .btsnoopH4)
        #expect(written == bytes)
        // write -> read -> same records
        #expect(try CaptureFile(bytes: written).readAll().records == records)
    }

    @Test("the monitor fixture's records write back to the fixture's octets")
    func monitorRoundTrip() throws {
        let bytes = try octets(BTSnoopReaderTests.monitorFile)
        let records = try CaptureFile(bytes: bytes).readAll().records
        let written = try BTSnoopWriter.encode(records, datalink: .btsnoopMonitor)
        #expect(written == bytes)
        #expect(try CaptureFile(bytes: written).readAll().records == records)
    }

    @Test("H4 records written as monitor records keep packet, direction and time, on controller 0")
    func h4ToMonitor() throws {
        let records = try CaptureFile(bytes: try octets(BTSnoopReaderTests.h4File)).readAll().records
        let written = try BTSnoopWriter.encode(records, datalink: .btsnoopMonitor)
        let back = try CaptureFile(bytes: written).readAll()
        #expect(back.error == nil)
        #expect(back.records.map(\.packet) == records.map(\.packet))
        #expect(back.records.map(\.direction) == records.map(\.direction))
        #expect(back.records.map(\.timestamp) == records.map(\.timestamp))
        #expect(back.records.allSatisfy { $0.controllerIndex == 0 })
        // The truncated ACL record keeps the 4 octets it lost: Original Length 11 + 4.
        #expect(back.records[2].originalLength == 15 && back.records[2].capturedLength == 11)
    }

    @Test("a single record, octet by octet")
    func singleRecord() throws {
        var writer = try BTSnoopWriter(datalink: .btsnoopMonitor)
        try writer.append(CaptureRecord(index: 0, timestamp: 0, direction: .controllerToHost, controllerIndex: 2,
                                        packet: .hci(type: .sco, payload: [0x01, 0x00, 0x00]),
                                        originalLength: 3, capturedLength: 3))
        #expect(writer.recordCount == 1)
        #expect(writer.bytes == (try octets("""
            62 74 73 6e 6f 6f 70 00 00 00 00 01 00 00 07 d1   # btsnoop, version 1, datalink 2001
            00 00 00 03 00 00 00 03                           # Original and Included Length 3
            00 02 00 07                                       # controller 2, SCO RX Packet
            00 00 00 00                                       # no drops
            00 dc dd b3 0f 2f 80 00                           # the Unix epoch in btsnoop time
            01 00 00                                          # the SCO packet
            """)))
    }

    @Test("records a datalink cannot express are refused with the record's index")
    func notRepresentable() throws {
        var h4 = try BTSnoopWriter(datalink: .btsnoopH4)
        let note = CaptureRecord(index: 7, timestamp: 0, packet: .monitor(opcode: .systemNote, payload: []), originalLength: 0, capturedLength: 0)
        #expect(throws: CaptureWriteError.notRepresentable(recordIndex: 7, reason: "monitor System Note, 0 octets has no btsnoop H4 (1002) form")) {
            try h4.append(note)
        }
        let acl = CaptureRecord(index: 8, timestamp: 0, packet: .hci(type: .acl, payload: [0, 0, 0, 0]), originalLength: 5, capturedLength: 5)
        #expect(throws: CaptureWriteError.notRepresentable(recordIndex: 8, reason: "an HCI ACL packet with an unknown direction")) {
            try h4.append(acl)
        }
        var monitor = try BTSnoopWriter(datalink: .btsnoopMonitor)
        #expect(throws: CaptureWriteError.notRepresentable(recordIndex: 8, reason: "no monitor opcode for an HCI ACL packet, unknown direction")) {
            try monitor.append(acl)
        }
        let late = CaptureRecord(index: 9, timestamp: .max, direction: .hostToController,
                                 packet: .hci(type: .command, payload: [0x03, 0x0C, 0x00]), originalLength: 4, capturedLength: 4)
        #expect(throws: CaptureWriteError.timestampOutOfRange(recordIndex: 9, timestamp: .max)) { try h4.append(late) }
        let huge = CaptureRecord(index: 10, timestamp: 0, direction: .hostToController,
                                 packet: .hci(type: .acl, payload: Array(repeating: 0, count: CaptureFile.maximumRecordLength)),
                                 originalLength: 0, capturedLength: 0)
        #expect(throws: CaptureWriteError.recordTooLong(recordIndex: 10, length: CaptureFile.maximumRecordLength + 1)) { try h4.append(huge) }
        #expect(h4.recordCount == 0)
        #expect(h4.bytes.count == 16)
        #expect(throws: CaptureWriteError.unsupportedDatalink(.btsnoopHCI)) { _ = try BTSnoopWriter(datalink: .btsnoopHCI) }
        // Commands and events with an unknown direction take their natural one.
        try h4.append(CaptureRecord(index: 0, timestamp: 0, packet: .hci(type: .event, payload: [0x0E, 0x00]), originalLength: 3, capturedLength: 3))
        #expect(try CaptureFile(bytes: h4.bytes).readAll().records.first?.direction == .controllerToHost)
    }

    @Test("tshark reads what we write: one frame per record, with our lengths",
          .enabled(if: tsharkPath != nil, "tshark is not installed; skipping the interoperability check"))
    func tsharkReadsOurFiles() throws {
        let h4Records = try CaptureFile(bytes: try octets(BTSnoopReaderTests.h4File)).readAll().records
        let monitorRecords = try CaptureFile(bytes: try octets(BTSnoopReaderTests.monitorFile)).readAll().records
        for (records, datalink) in [(h4Records, LinkType.btsnoopH4), (monitorRecords, .btsnoopMonitor)] {
            let bytes = try BTSnoopWriter.encode(records, datalink: datalink)
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("linuxble-capture-\(datalink.rawValue)-\(UUID().uuidString).btsnoop")
            try Data(bytes).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let lines = try runTshark(["-r", url.path, "-T", "fields", "-e", "frame.len", "-e", "frame.cap_len"])
                .split(separator: "\n").map { $0.split(separator: "\t").map { Int($0) } }
            // Our Included Length is 1 (H4 indicator) + payload for H4, the payload for the monitor.
            let ours = try CaptureFile(bytes: bytes).readAll().records
            #expect(lines.count == records.count, "\(datalink)")
            #expect(lines.map { $0.last ?? nil } == ours.map { Optional($0.capturedLength) }, "\(datalink)")
            #expect(lines.map { $0.first ?? nil } == ours.map { Optional($0.originalLength) }, "\(datalink)")
        }
    }
}
