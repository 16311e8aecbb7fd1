import Testing
import ATT
import BLECore
import HCI
@testable import Capture

/// Inputs crafted to break a decoder (found by a hostile test run): each is now a test that the
/// dissector stays correct, fast and bounded.
@Suite("dissector on hostile input")
struct HostileInputTests {
    static let accessAddress: UInt32 = 0x5065_4A27

    /// An over-the-air data PDU record with no pseudo-header (direction unknown).
    static func air(_ index: Int, llid: DataChannelPDU.LLID, sn: UInt8, nesn: UInt8, _ payload: [UInt8]) -> CaptureRecord {
        let pdu = DataChannelPDU(llid: llid, nesn: nesn, sn: sn, payload: payload)
        let ll = LinkLayerRecord(accessAddress: accessAddress, pdu: .data(pdu), crcInit: 0x2ED45D)
        return CaptureRecord(index: index, timestamp: Int64(index) * 1250, packet: .linkLayer(ll),
                             originalLength: 0, capturedLength: 0)
    }

    @Test("identical writes whose SN toggles, each acknowledged, are all counted; a resend with the same SN is not")
    func repeatedWritesAreNotRetransmissions() {
        var dissector = Dissector()
        var index = 0
        for n in 0..<10 {
            let sn = UInt8(n % 2)
            _ = dissector.dissect(Self.air(index, llid: .start, sn: sn, nesn: 0, [0x05, 0x00, 0x04, 0x00, 0x52, 0x12, 0x00, 0x01, 0x02]))
            index += 1
            // L2CAP length 5, CID 4 | Write Command (0x52) handle 0x0012 value 01 02, then the peer acknowledges with an empty PDU whose NESN moves on.
            _ = dissector.dissect(Self.air(index, llid: .continuation, sn: 0, nesn: 1 - sn, []))
            index += 1
        }
        #expect(dissector.report.attCounts.map(\.count) == [10])
        // Not acknowledged (the peer's PDU was lost): the same SN and payload again, once more.
        let resend = dissector.dissect(Self.air(index, llid: .start, sn: 1, nesn: 0, [0x05, 0x00, 0x04, 0x00, 0x52, 0x12, 0x00, 0x01, 0x02]))
        #expect(dissector.report.attCounts.map(\.count) == [10])
        guard case .linkLayer(_, .retransmission) = resend.content else {
            Issue.record("expected a retransmission, got \(resend.summary)")
            return
        }
    }

    @Test("PDUs left incomplete on many handles do not block reassembly on a new one")
    func stalePendingPDUs() {
        var dissector = Dissector()
        // 100 handles each start a 10-octet PDU and never finish it (no Disconnection Complete).
        for h in 0..<100 {
            let start = HCIACLDataPacket(handle: UInt16(h), packetBoundary: .firstFlushable, data: [0x0A, 0x00, 0x04, 0x00, 0x1B])
            _ = dissector.dissect(hciRecord(h, .acl, start.encoded))
        }
        // Then handle 0x0100 sends a notification in two fragments: it reassembles.
        let first = HCIACLDataPacket(handle: 0x0100, packetBoundary: .firstFlushable, data: [0x05, 0x00, 0x04, 0x00, 0x1B, 0x10])
        let rest = HCIACLDataPacket(handle: 0x0100, packetBoundary: .continuing, data: [0x00, 0x48, 0x55])
        _ = dissector.dissect(hciRecord(100, .acl, first.encoded))
        let done = dissector.dissect(hciRecord(101, .acl, rest.encoded))
        #expect(done.summary == "ACL 0x0100 ATT Handle Value Notification handle 0x0010 value 4855")
    }

    @Test("a start fragment that abandons an incomplete PDU is itself kept, and says so")
    func abandonedPDU() {
        var dissector = Dissector()
        let a = HCIACLDataPacket(handle: 0x40, packetBoundary: .firstFlushable, data: [0x0A, 0x00, 0x04, 0x00, 0x12])
        let b = HCIACLDataPacket(handle: 0x40, packetBoundary: .firstFlushable, data: [0x05, 0x00, 0x04, 0x00, 0x0A])
        _ = dissector.dissect(hciRecord(0, .acl, a.encoded))
        let packet = dissector.dissect(hciRecord(1, .acl, b.encoded))
        #expect(packet.summary == "ACL 0x0040 L2CAP fragment, 5 octets, first")
        #expect(packet.notes.count == 1)
    }

    @Test("a name from the air cannot forge lines in the summary")
    func nameInjection() {
        var dissector = Dissector()
        let name = Array("x\n!! capture file damaged\u{1B}[2J".utf8)
        let data: [UInt8] = [UInt8(name.count + 1), 0x09] + name
        var w = ByteWriter()
        w.writeUInt8(0x3E); w.writeUInt8(UInt8(3 + data.count + 11 - 1)); w.writeUInt8(0x02); w.writeUInt8(1)
        LEAdvertisingReport(eventType: .advInd, addressType: .random, address: BluetoothAddress(0xC0FFEE), data: data, rssi: -50).write(to: &w)
        var event = w.bytes
        event[1] = UInt8(event.count - 2)
        let packet = dissector.dissect(hciRecord(0, .event, event))
        #expect(!packet.line.contains("\n"))
        let lines = dissector.report.renderedLines
        #expect(!lines.contains { $0.hasPrefix("!!") })
        #expect(lines.contains { $0.contains(#""x\n!! capture file damaged\u{1B}[2J""#) })
    }

    @Test("a service whose End Group Handle is below its handle, with an include, renders without trapping")
    func reversedServiceRange() throws {
        var table = ReconstructedGATTTable()
        table.learn(request: .readByGroupTypeRequest(.init(startingHandle: 1, endingHandle: 0xFFFF, attributeGroupType: BluetoothUUID(0x2800))),
                    response: .readByGroupTypeResponse(try .init(attributeData: [.init(handle: 0x10, endGroupHandle: 0x05, value: [0x0D, 0x18])])))
        table.learn(request: .readByTypeRequest(.init(startingHandle: 1, endingHandle: 0xFFFF, attributeType: BluetoothUUID(0x2802))),
                    response: .readByTypeResponse(try .init(attributeData: [.init(handle: 0x11, value: [0x20, 0x00, 0x25, 0x00, 0x0F, 0x18])])))
        #expect(table.renderedLines() == [
            "0x0010..0x0005 Primary Service 180D (Heart Rate)",
            "(outside any discovered service)",
            "  0x0011 Include 0x0020..0x0025 180F (Battery)",
        ])
    }

    @Test("tens of thousands of characteristics: rendering and annotation stay fast (n log n)")
    func hugeTable() throws {
        var table = ReconstructedGATTTable()
        let request = ATTPDU.readByTypeRequest(.init(startingHandle: 1, endingHandle: 0xFFFF, attributeType: BluetoothUUID(0x2803)))
        for base in stride(from: 1, to: 60_000, by: 3 * 10) {
            var data: [ATTReadByTypeResponse.AttributeData] = []
            for k in 0..<10 {
                let h = UInt16(base + 3 * k)
                data.append(.init(handle: h, value: [0x02, UInt8((h + 1) & 0xFF), UInt8((h + 1) >> 8), 0x37, 0x2A]))
            }
            table.learn(request: request, response: .readByTypeResponse(try .init(attributeData: data)))
        }
        for h in stride(from: UInt16(3), to: 60_000, by: 3) {
            table.learn(request: .findInformationRequest(.init(startingHandle: h, endingHandle: h)),
                        response: .findInformationResponse(try .init(format: .uuid16, information: [.init(handle: h, type: BluetoothUUID(0x2902))])))
        }
        let clock = ContinuousClock()
        let start = clock.now
        let lines = table.renderedLines()
        var names = 0
        for h in stride(from: UInt16(3), to: 60_000, by: 3) where table.annotation(forHandle: h) != nil { names += 1 }
        // 20,000 characteristics, 19,999 descriptors (0x0003, 0x0006, ... 0xEA5D) and the
        // "(outside any discovered service)" line; every descriptor named through its owner.
        #expect(lines.count == 40_000)
        #expect(names == 19_999)
        // A generous bound: the quadratic version took minutes here; this takes well under one second.
        #expect(clock.now - start < .seconds(20))
    }

    @Test("memory stays bounded: past the limits, old links and devices are dropped and counted")
    func boundedState() {
        var limits = Dissector.Limits()
        limits.links = 64
        limits.listedEndedLinks = 16
        limits.devices = 32
        var dissector = Dissector(limits: limits)
        for i in 0..<1000 {
            // A Read Request on a new handle each time (handles wrap at 0x0EFF), from a new controller every 100.
            var record = aclRecord(i, handle: UInt16(i % 0x0EFF), [0x0A, 0x01, 0x00], direction: .hostToController)
            record.controllerIndex = UInt16(i / 100)
            _ = dissector.dissect(record)
        }
        let report = dissector.report
        #expect(report.connections.count <= 64 + 16)
        #expect(report.unlistedConnections > 0)
        #expect(report.attCounts.map(\.count) == [1000])
        #expect(report.renderedLines.contains { $0.contains("more ended and not listed") })
        #expect(report.evictions.links > 0)
        #expect(report.renderedLines.contains { $0.hasPrefix("  state dropped to keep memory bounded") })
    }
}

@Suite("GATT table reconstruction edges")
struct GATTTableEdgeTests {
    static func services(_ table: inout ReconstructedGATTTable, _ data: [ATTReadByGroupTypeResponse.AttributeData]) throws {
        table.learn(request: .readByGroupTypeRequest(.init(startingHandle: 1, endingHandle: 0xFFFF, attributeGroupType: BluetoothUUID(0x2800))),
                    response: .readByGroupTypeResponse(try .init(attributeData: data)))
    }

    static func characteristics(_ table: inout ReconstructedGATTTable, _ data: [ATTReadByTypeResponse.AttributeData]) throws {
        table.learn(request: .readByTypeRequest(.init(startingHandle: 1, endingHandle: 0xFFFF, attributeType: BluetoothUUID(0x2803))),
                    response: .readByTypeResponse(try .init(attributeData: data)))
    }

    @Test("a descriptor belongs to a characteristic of its own service only; items past a service are marked outside")
    func serviceBoundaries() throws {
        var table = ReconstructedGATTTable()
        // GAP 0x0001..0x0003 with Device Name (declaration 0x0002, value 0x0003); Battery 0x0010..0x0012.
        try Self.services(&table, [.init(handle: 0x0001, endGroupHandle: 0x0003, value: [0x00, 0x18]),
                                   .init(handle: 0x0010, endGroupHandle: 0x0012, value: [0x0F, 0x18])])
        try Self.characteristics(&table, [.init(handle: 0x0002, value: [0x02, 0x03, 0x00, 0x00, 0x2A]),
                                          .init(handle: 0x0011, value: [0x12, 0x12, 0x00, 0x19, 0x2A]),
                                          .init(handle: 0x0021, value: [0x02, 0x22, 0x00, 0x24, 0x2A])])
        // A User Description at 0x0007: in no service; at 0x0013: right after Battery's range.
        table.learn(request: .findInformationRequest(.init(startingHandle: 0x0004, endingHandle: 0x0013)),
                    response: .findInformationResponse(try .init(format: .uuid16, information: [
                        .init(handle: 0x0007, type: BluetoothUUID(0x2901))])))
        // It is not Device Name's: that one is in GAP, which ends at 0x0003.
        #expect(table.annotation(forHandle: 0x0007) == "Characteristic User Description")
        // Inside Battery, before its first characteristic, a descriptor does not reach back into GAP.
        table.learn(request: .findInformationRequest(.init(startingHandle: 0x0010, endingHandle: 0x0010)),
                    response: .findInformationResponse(try .init(format: .uuid16, information: [
                        .init(handle: 0x0010, type: BluetoothUUID(0x2901))])))
        #expect(table.annotation(forHandle: 0x0010) == "Characteristic User Description")
        let lines = table.renderedLines()
        #expect(lines == [
            "0x0001..0x0003 Primary Service 1800 (GAP)",
            "  0x0003 Characteristic 2A00 (Device Name) [read]",
            "(outside any discovered service)",
            "  0x0007 Attribute 2901 (Characteristic User Description)",
            "0x0010..0x0012 Primary Service 180F (Battery)",
            "  0x0010 Attribute 2901 (Characteristic User Description)",
            "  0x0012 Characteristic 2A19 (Battery Level) [read, notify]",
            "(outside any discovered service)",
            "  0x0022 Characteristic 2A24 (Model Number String) [read]",
        ])
    }
}
