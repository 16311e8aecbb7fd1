import Testing
import ATT
import BLECore
import HCI
@testable import Capture

/// Bad packets inside a capture: each prints one clear line with the reason and the offset,
/// and the packets after it still decode.
@Suite("dissector on malformed packets")
struct MalformedInputTests {
    @Test("an Exchange MTU Request without its MTU names the missing field; the next PDU decodes")
    func truncatedATT() {
        var dissector = Dissector()
        // ACL handle 0x0040 | L2CAP length 1, CID 0x0004 | ATT 02 (Exchange MTU Request, no Client Rx MTU)
        let bad = dissector.dissect(aclRecord(0, [0x02], direction: .hostToController))
        #expect(bad.summary == "ACL 0x0040 ATT malformed (1 octets): Exchange MTU Request (0x02): Client Rx MTU at offset 1 needs 2 octets, 0 available")
        #expect(bad.jsonText.contains(#""att":{"opcode":2,"name":"Exchange MTU Request","malformed":true}"#))
        #expect(bad.jsonText.contains(#""offset":1"#))
        // 03 0001: Exchange MTU Response, Server Rx MTU 256, decodes as usual afterwards.
        let good = dissector.dissect(aclRecord(1, [0x03, 0x00, 0x01]))
        #expect(good.summary == "ACL 0x0040 ATT Exchange MTU Response Server Rx MTU 256")
        let report = dissector.report
        #expect(report.malformedCount == 1)
        // The malformed PDU still counts under its opcode, as tshark counts it.
        #expect(report.attCounts.map(\.count) == [1, 1])
    }

    @Test("an HCI event whose parameters run short says which field and where")
    func truncatedEvent() {
        var dissector = Dissector()
        // 05 04 00 40 00: Disconnection Complete, Parameter_Total_Length 4 but only 3 octets follow.
        let packet = dissector.dissect(hciRecord(0, .event, [0x05, 0x04, 0x00, 0x40, 0x00]))
        guard case let .malformed(layer, reason, octets) = packet.content else {
            Issue.record("expected a malformed packet, got \(packet.summary)")
            return
        }
        #expect(layer == "HCI Event")
        #expect(reason.contains("offset"))
        #expect(octets == [0x05, 0x04, 0x00, 0x40, 0x00])
        #expect(packet.line.contains("malformed HCI Event"))
        #expect(dissector.report.malformedCount == 1)
    }

    @Test("an advertising report event with a bad second report: the line is malformed, the first report's advertiser counts")
    func salvagedAdvertisingReports() throws {
        var dissector = Dissector()
        // LE Meta, 26 octets: LE Advertising Report, Num_Reports 2; ADV_IND from public
        // 00:11:22:33:44:55 with Complete Local Name "HRM" (-60 dBm); then a report whose
        // Data_Length 0x1f runs past the event's end.
        let payload = try #require(Hex.decode("3e 1c 02 02 00 00 554433221100 05 0409 48524d c4 00 00 665544332211 1f 0201"))
        let packet = dissector.dissect(hciRecord(0, .event, payload))
        guard case let .malformed(_, reason, _) = packet.content else {
            Issue.record("expected a malformed packet, got \(packet.summary)")
            return
        }
        #expect(reason.hasSuffix("(the 1 report before it counted)"), "\(reason)")
        let devices = dissector.report.devices
        #expect(devices.map(\.address) == [BluetoothAddress(0x00_11_22_33_44_55)])
        #expect(devices.first?.name == "HRM")
        #expect(dissector.report.malformedCount == 1)
    }

    @Test("an empty record and an unknown H4 packet type are lines, not crashes")
    func emptyAndUnknown() {
        var dissector = Dissector()
        let unknownType = dissector.dissect(hciRecord(0, HCIPacketType(rawValue: 0x7F), [1, 2, 3]))
        #expect(unknownType.summary.hasPrefix("malformed HCI"))
        let emptyCommand = dissector.dissect(hciRecord(1, .command, []))
        #expect(emptyCommand.summary.hasPrefix("malformed HCI Command"))
        #expect(dissector.report.recordCount == 2)
    }

    @Test("ACL fragments: a continuation with no start is reported and dropped; a split PDU reassembles")
    func fragments() {
        var dissector = Dissector()
        let orphan = HCIACLDataPacket(handle: 0x0040, packetBoundary: .continuing, data: [0xAA, 0xBB])
        let dropped = dissector.dissect(hciRecord(0, .acl, orphan.encoded))
        #expect(dropped.summary == "ACL 0x0040 L2CAP fragment dropped, 2 octets, continuing")
        #expect(dropped.notes.count == 1)
        // L2CAP length 5, CID 4 | 12 15 00 01 02: Write Request handle 0x0015 value 01 02, in two fragments.
        let first = HCIACLDataPacket(handle: 0x0040, packetBoundary: .firstNonFlushable, data: [0x05, 0x00, 0x04, 0x00, 0x12, 0x15])
        let rest = HCIACLDataPacket(handle: 0x0040, packetBoundary: .continuing, data: [0x00, 0x01, 0x02])
        #expect(dissector.dissect(hciRecord(1, .acl, first.encoded, direction: .hostToController)).summary
                == "ACL 0x0040 L2CAP fragment, 6 octets, first (non-flushable)")
        #expect(dissector.dissect(hciRecord(2, .acl, rest.encoded, direction: .hostToController)).summary
                == "ACL 0x0040 ATT Write Request handle 0x0015 value 0102")
    }

    @Test("ACL data on a handle with no connection event still decodes, and the report says so")
    func noConnectionEvent() {
        var dissector = Dissector()
        _ = dissector.dissect(aclRecord(0, handle: 0x0EDC, [0x0A, 0x03, 0x00], direction: .hostToController))
        let connection = dissector.report.connections.first
        #expect(connection?.connectionEventSeen == false)
        #expect(connection?.summary.contains("no connection event in the capture") == true)
    }

    @Test("a failed LE Connection Complete shows its status, not the leftover parameters, and opens no connection")
    func failedConnection() {
        var dissector = Dissector()
        // 3e 13 | 01 LE Connection Complete | 02 Unknown Connection Identifier | 40 00 handle | 00 central |
        // 01 random | 6 octets peer | 18 00 interval | 00 00 latency | 48 00 timeout | 00 accuracy
        let event: [UInt8] = [0x3E, 0x13, 0x01, 0x02, 0x40, 0x00, 0x00, 0x01, 0x52, 0x48, 0xED, 0xFE, 0x0D, 0xD0,
                              0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]
        let packet = dissector.dissect(hciRecord(0, .event, event))
        #expect(packet.summary == "HCI Event LE Connection Complete status=Unknown Connection Identifier (0x02) (the other parameters carry no meaning on failure)")
        #expect(dissector.report.connections.isEmpty)
    }

    @Test("extreme timestamps (a damaged or synthetic file) print without overflow")
    func extremeTimestamps() {
        var dissector = Dissector()
        for (i, timestamp) in [Int64.max, Int64.min, 0].enumerated() {
            let record = CaptureRecord(index: i, timestamp: timestamp, direction: .hostToController,
                                       packet: .hci(type: .command, payload: [0x03, 0x0C, 0x00]), originalLength: 4, capturedLength: 4)
            #expect(dissector.dissect(record).line.hasSuffix("HCI Command Reset"))
        }
        let time = dissector.report.renderedLines.first { $0.hasPrefix("  time: ") }
        #expect(time == "  time: 9223372036854775807 us since 1970 to 1970-01-01 00:00:00.000000 UTC (-9223372036854.775807 s)")
    }

    @Test("seeded random records never trap and every record yields exactly one packet")
    func randomRecords() {
        var rng = SplitMix64(seed: 0x5EED)
        var dissector = Dissector()
        let types: [HCIPacketType] = [.command, .acl, .event, .sco, .iso, HCIPacketType(rawValue: 0x09)]
        for i in 0..<20_000 {
            let length = Int(rng.next() % 40)
            var payload = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let type = types[Int(rng.next() % UInt64(types.count))]
            if type == .acl, payload.count >= 4 {
                // Mostly consistent lengths, so reassembly and ATT are reached often.
                let dataLength = payload.count - 4
                payload[2] = UInt8(dataLength & 0xFF); payload[3] = 0
                payload[0] = 0x40; payload[1] = (payload[1] & 0x30)
                if dataLength >= 4 { payload[4] = UInt8(dataLength - 4); payload[5] = 0; payload[6] = 0x04; payload[7] = 0 }
            }
            let packet = dissector.dissect(hciRecord(i, type, payload, direction: rng.next() % 2 == 0 ? .hostToController : .controllerToHost))
            #expect(packet.index == i)
            _ = packet.line
            _ = packet.jsonText
        }
        #expect(dissector.report.recordCount == 20_000)
        #expect(!dissector.report.renderedLines.isEmpty)
    }
}

