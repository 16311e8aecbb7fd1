import Testing
import ATT
import BLECore
@testable import Capture

/// The demo capture (a Bumble central against a heart-rate peripheral, Fixtures/captures/README.md)
/// dissected end to end: GATT meaning learned from its own discovery, and the report.
@Suite("dissector on the demo capture")
struct DemoCaptureDissectionTests {
    @Test("ATT PDUs are annotated with the GATT meaning discovered earlier in the capture")
    func annotations() throws {
        let (packets, _) = try DemoCapture.dissected()
        let summaries = packets.map(\.summary)
        // Write Request to the Heart Rate Control Point (0x2A39), value 0x01 (Reset Energy Expended).
        #expect(summaries.contains("ACL 0x0040 ATT Write Request handle 0x0015 (Heart Rate Control Point) value 01"))
        // CCCD of Heart Rate Measurement, notifications on.
        #expect(summaries.contains("ACL 0x0040 ATT Write Request handle 0x0011 (Client Characteristic Configuration of Heart Rate Measurement) value 0100"))
        // The first notification: flags 0x16, 72 bpm, RR-Interval 0x0355.
        #expect(summaries.contains("ACL 0x0040 ATT Handle Value Notification handle 0x0010 (Heart Rate Measurement) value 16485503"))
        // A response is named through the request it answers.
        #expect(summaries.contains("ACL 0x0040 ATT Read Response value 4c696e7578424c45204852 \"LinuxBLE HR\" (of 0x0003 Device Name)"))
        // A value that is not a string attribute stays hexadecimal.
        #expect(summaries.contains("ACL 0x0040 ATT Read Response value 57 (of 0x0018 Battery Level)"))
        // Before discovery nothing is known, so nothing is invented.
        #expect(summaries.contains("ACL 0x0040 ATT Exchange MTU Request Client Rx MTU 64"))
    }

    @Test("each packet's line has its frame number, the time since the first record, the direction and the summary")
    func lines() throws {
        let (packets, _) = try DemoCapture.dissected()
        // Frame numbers count from 1, as in Wireshark; the first record is time 0.
        #expect(packets[0].line == "     1     0.000000 H>C HCI Command Reset")
        // Later times depend on the recording run (make demo-capture), so only their shape is fixed.
        let second = packets[1].line
        #expect(second.hasPrefix("     2     0."))
        #expect(second.hasSuffix(" C>H HCI Event Command Complete Reset num_hci_command_packets=1 status=Success"))
        let fragment = try #require(packets.first { if case .acl(_, .fragment) = $0.content { true } else { false } })
        #expect(fragment.summary == "ACL 0x0040 L2CAP fragment, 27 octets, first")
    }

    @Test("discovery responses print UUIDs and declarations decoded, not their wire octets")
    func discovery() throws {
        let (packets, _) = try DemoCapture.dissected()
        let summaries = packets.map(\.summary)
        #expect(summaries.contains("ACL 0x0040 ATT Read By Group Type Response 0x0001..0x0005 1800 (GAP), 0x0006..0x000d 1801 (GATT), 0x000e..0x0015 180D (Heart Rate), 0x0016..0x0019 180F (Battery), 0x001a..0x001e 180A (Device Information)"))
        #expect(summaries.contains("ACL 0x0040 ATT Read By Group Type Response 0x001f..0x0029 A5F10001-6C1B-4B8E-9E3A-4C696E757842"))
        #expect(summaries.contains("ACL 0x0040 ATT Read By Type Response 0x000f [notify] value 0x0010 2A37 (Heart Rate Measurement), 0x0012 [read] value 0x0013 2A38 (Body Sensor Location), 0x0014 [write] value 0x0015 2A39 (Heart Rate Control Point)"))
    }

    @Test("the report: the device and its name, the connection, ATT counts and the GATT table")
    func report() throws {
        let (_, dissector) = try DemoCapture.dissected()
        let report = dissector.report
        #expect(report.recordCount == 221)
        #expect(report.malformedCount == 0)
        let device = try #require(report.devices.first)
        #expect(device.address == BluetoothAddress("D0:0D:FE:ED:48:52"))
        #expect(device.name == "LinuxBLE HR")
        #expect(device.advertisingReports == 6)
        let connection = try #require(report.connections.first)
        #expect(report.connections.count == 1)
        #expect(connection.attMTU == 64)
        #expect(connection.role == "central")
        #expect(connection.peerName == "LinuxBLE HR")
        // Counts as tshark 4.0.17 reports them for this file (Fixtures/captures/README.md).
        let counts = Dictionary(uniqueKeysWithValues: report.attCounts.map { ($0.opcode.rawValue, $0.count) })
        #expect(counts == [0x01: 7, 0x02: 1, 0x03: 1, 0x04: 8, 0x05: 8, 0x08: 13, 0x09: 7, 0x0A: 12, 0x0B: 12,
                           0x0C: 3, 0x0D: 3, 0x10: 3, 0x11: 2, 0x12: 3, 0x13: 3, 0x16: 3, 0x17: 3, 0x18: 1,
                           0x19: 1, 0x1B: 5, 0x1D: 3, 0x1E: 3])
        let table = connection.gatt.renderedLines()
        #expect(table.contains("0x000e..0x0015 Primary Service 180D (Heart Rate)"))
        #expect(table.contains("  0x0015 Characteristic 2A39 (Heart Rate Control Point) [write]"))
        #expect(table.contains("    0x0011 Descriptor 2902 (Client Characteristic Configuration)"))
        #expect(table.contains("  0x0027 Characteristic A5F10004-6C1B-4B8E-9E3A-4C696E757842 [indicate]"))
        let text = report.renderedLines
        #expect(text.contains("  GATT table, handle 0x0040 (D0:0D:FE:ED:48:52 \"LinuxBLE HR\"):"))
    }

    @Test("JSON: an object per packet; one that carries ATT has att.opcode as an integer and its fields")
    func json() throws {
        let (packets, _) = try DemoCapture.dissected()
        let write = try #require(packets.first { $0.summary.contains("Write Request handle 0x0015") })
        let text = write.jsonText
        #expect(text.contains(#""att":{"opcode":18,"name":"Write Request","handle":21,"value":"01","handle_names":{"0x0015":"Heart Rate Control Point"}}"#))
        #expect(text.contains(#""direction":"host_to_controller""#))
        #expect(text.contains(#""l2cap":{"cid":4,"length":4}"#))
        let reset = packets[0].jsonText
        #expect(reset.hasPrefix(#"{"index":0,"frame":1,"time":0.0,"timestamp_us":"#))
        #expect(reset.contains(#""hci":{"type":"command","opcode":3075,"name":"Reset"}"#))
        #expect(!reset.contains("\"att\""))
    }
}
