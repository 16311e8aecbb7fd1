import Foundation
import Testing
import BLECore
import HCI
@testable import Capture

/// The real captures (in $LINUXBLE_CAPTURES, else ../shared/captures), cross-checked against tshark 4.x and capinfos.
/// Every expected number below was printed by the command in the comment beside it; the
/// PPI capture needs `-o 'uat:user_dlts:"User 0 (DLT=147)","btle","0","","0",""'` (written
/// $U below) for tshark to decode DLT 147 as btle.
@Suite("real captures", .enabled(if: RealCaptures.available, Comment(rawValue: RealCaptures.skipNote)))
struct RealCaptureTests {
    static func read(_ name: String) throws -> CaptureReadResult {
        let result = try CaptureFile(contentsOf: RealCaptures.path(name)).readAll()
        #expect(result.error == nil, "\(name): \(String(describing: result.error))")
        return result
    }

    @Test("record counts equal capinfos -c")
    func counts() throws {
        #expect(try Self.read(RealCaptures.legacyPPI).records.count == 713)
        #expect(try Self.read(RealCaptures.lescPcapng).records.count == 303)
        #expect(try Self.read(RealCaptures.nexxtenderBTSnoop).records.count == 1235)
        #expect(try Self.read(RealCaptures.nexxtenderCFA).records.count == 10931)
    }

    @Test("formats and link types equal capinfos' encapsulation")
    func formats() throws {
        let cases: [(String, CaptureFormat, LinkType)] = [
            (RealCaptures.legacyPPI, .pcap, .ppi),                          // "ppi"
            (RealCaptures.lescPcapng, .pcapng, .bluetoothLELLWithPHDR),     // "bluetooth-le-ll-rf"
            (RealCaptures.nexxtenderBTSnoop, .btsnoop, .btsnoopH4),         // "bluetooth-h4-linux"
            (RealCaptures.nexxtenderCFA, .btsnoop, .btsnoopH4),
        ]
        for (name, format, linkType) in cases {
            let file = try CaptureFile(contentsOf: RealCaptures.path(name))
            #expect(file.format == format, "\(name)")
            #expect(file.linkType == linkType, "\(name)")
        }
    }

    @Test("first and last timestamps equal capinfos -a -e")
    func timestamps() throws {
        // capinfos -a -e -T FILE: start and end time, seconds since the epoch.
        let cases: [(String, Int64, Int64)] = [
            (RealCaptures.legacyPPI, 1_360_866_518_344_619_000, 1_360_866_620_088_884_000),
            (RealCaptures.lescPcapng, 905_224_953_861_563, 905_233_870_052_463),
            (RealCaptures.nexxtenderBTSnoop, 1_735_570_834_608_918_000, 1_735_571_257_944_231_000),
            (RealCaptures.nexxtenderCFA, 1_737_823_981_731_662_000, 1_737_824_290_155_942_000),
        ]
        for (name, first, last) in cases {
            let records = try Self.read(name).records
            #expect(records.first?.timestampNanoseconds == first, "\(name)")
            #expect(records.last?.timestampNanoseconds == last, "\(name)")
        }
    }

    /// Counts of (H4 packet type, direction) as tshark prints `hci_h4.type` and `hci_h4.direction`.
    static func typeDirectionCounts(_ records: [CaptureRecord]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for record in records {
            guard case let .hci(type, _) = record.packet else { counts["other", default: 0] += 1; continue }
            let direction = record.direction == .hostToController ? 0 : record.direction == .controllerToHost ? 1 : -1
            counts["0x0\(type.rawValue) \(direction)", default: 0] += 1
        }
        return counts
    }

    @Test("btsnoop directions and packet types equal tshark's hci_h4.direction and hci_h4.type")
    func directions() throws {
        // tshark -r FILE -Y "hci_h4.direction==0" | wc -l  ->  394 and 919
        // tshark -r FILE -Y "hci_h4.direction==1" | wc -l  ->  841 and 10012
        // tshark -r FILE -T fields -e hci_h4.type -e hci_h4.direction | sort | uniq -c
        let btsnoop = try Self.read(RealCaptures.nexxtenderBTSnoop).records
        #expect(btsnoop.filter { $0.direction == .hostToController }.count == 394)
        #expect(btsnoop.filter { $0.direction == .controllerToHost }.count == 841)
        #expect(Self.typeDirectionCounts(btsnoop) == ["0x01 0": 278, "0x02 0": 116, "0x02 1": 160, "0x04 1": 681])

        let cfa = try Self.read(RealCaptures.nexxtenderCFA).records
        #expect(cfa.filter { $0.direction == .hostToController }.count == 919)
        #expect(cfa.filter { $0.direction == .controllerToHost }.count == 10012)
        #expect(Self.typeDirectionCounts(cfa) == ["0x01 0": 628, "0x02 0": 291, "0x02 1": 822, "0x04 1": 9190])
    }

    /// Counts keyed like tshark's `btle.advertising_header.pdu_type`, `btle.data_header.llid`,
    /// plus the list of `btle.control_opcode` values in order.
    static func linkLayerCounts(_ records: [CaptureRecord]) -> (pduTypes: [UInt8: Int], llids: [UInt8: Int], opcodes: [UInt8], other: Int) {
        var pduTypes: [UInt8: Int] = [:], llids: [UInt8: Int] = [:], opcodes: [UInt8] = [], other = 0
        for record in records {
            guard case let .linkLayer(ll) = record.packet else { other += 1; continue }
            switch ll.pdu {
            case let .advertising(pdu): pduTypes[pdu.pduType.rawValue, default: 0] += 1
            case let .data(pdu):
                llids[pdu.llid.rawValue, default: 0] += 1
                if let opcode = pdu.controlOpcode { opcodes.append(opcode.rawValue) }
            case .isochronous: other += 1
            }
        }
        return (pduTypes, llids, opcodes, other)
    }

    @Test("LE link-layer PDU types, LLIDs and control opcodes equal tshark's btle fields")
    func linkLayer() throws {
        // tshark -r lesc.pcapng -T fields -e btle.advertising_header.pdu_type -e btle.data_header.llid | sort | uniq -c
        // tshark -r lesc.pcapng -T fields -e btle.control_opcode | grep .
        let lesc = Self.linkLayerCounts(try Self.read(RealCaptures.lescPcapng).records)
        #expect(lesc.pduTypes == [0x00: 40, 0x03: 1, 0x04: 2, 0x05: 1])       // 40 ADV_IND, SCAN_REQ, 2 SCAN_RSP, CONNECT_IND
        #expect(lesc.llids == [0x01: 134, 0x02: 114, 0x03: 11])
        #expect(lesc.opcodes == [0x0C, 0x08, 0x08, 0x0C, 0x09, 0xFF, 0x03, 0x04, 0x05, 0x71, 0x1D])
        #expect(lesc.other == 0)

        // The same with -r legacy.pcap -o "$U".
        let legacy = Self.linkLayerCounts(try Self.read(RealCaptures.legacyPPI).records)
        #expect(legacy.pduTypes == [0x00: 515, 0x05: 1])
        #expect(legacy.llids == [0x01: 185, 0x02: 7, 0x03: 5])
        #expect(legacy.opcodes == [0x03, 0x04, 0x05, 0x71, 0x36])
        #expect(legacy.other == 0)
    }

    @Test("CRCs check: advertising PDUs with 0x555555, data PDUs with their CONNECT_IND's CRCInit")
    func crcs() throws {
        // tshark -Y btle.crc.incorrect finds no advertising PDU with a bad CRC in either file;
        // tshark leaves data CRCs unchecked ("not all data available"), so those are checked
        // against the CONNECT_IND's CRCInit here. Two data PDUs of the LESC capture arrived
        // damaged: frame 212 (index 211) is an empty PDU with header 05 00 whose CRC reads
        // 0x554f20, where frame 50 carries the same header with 0x554f71; frame 132 (index
        // 131) is an SMP fragment whose CRC does not match either.
        let expectedBad = [RealCaptures.lescPcapng: [131, 211], RealCaptures.legacyPPI: []]
        for name in [RealCaptures.lescPcapng, RealCaptures.legacyPPI] {
            var crcInit: [UInt32: UInt32] = [:]
            var checked = 0, bad: [Int] = []
            for record in try Self.read(name).records {
                guard case let .linkLayer(ll) = record.packet else { continue }
                switch ll.pdu {
                case let .advertising(pdu):
                    if !ll.isCRCValid(crcInit: LinkLayerCRC.advertisingCRCInit) { bad.append(record.index) }
                    if case let .connectIndication(_, _, llData) = pdu.payload { crcInit[llData.accessAddress] = llData.crcInit }
                    checked += 1
                default:
                    guard let initial = crcInit[ll.accessAddress] else { continue }
                    if !ll.isCRCValid(crcInit: initial) { bad.append(record.index) }
                    checked += 1
                }
            }
            #expect(checked == (name == RealCaptures.lescPcapng ? 303 : 713), "\(name)")
            #expect(bad == expectedBad[name], "\(name)")
        }
    }

    @Test("btsnoop files write back octet for octet; the PPI and pcapng records re-encode to their octets")
    func roundTrips() throws {
        for name in [RealCaptures.nexxtenderBTSnoop, RealCaptures.nexxtenderCFA] {
            let original = try CaptureFile(contentsOf: RealCaptures.path(name))
            let records = original.readAll().records
            let written = try BTSnoopWriter.encode(records, datalink: .btsnoopH4)
            #expect(written == original.bytes, "\(name)")
            #expect(try CaptureFile(bytes: written).readAll().records == records, "\(name)")
        }
        for name in [RealCaptures.legacyPPI, RealCaptures.lescPcapng] {
            let file = try CaptureFile(contentsOf: RealCaptures.path(name))
            var mismatches = 0
            var reader = file.makeReader()
            while let record = try reader.next() {
                guard case let .linkLayer(ll) = record.packet else { mismatches += 1; continue }
                // Re-encode and decode again: the same value, and the same length as captured.
                let encoded = ll.encoded
                if encoded.count != record.capturedLength { mismatches += 1 }
                if try LinkLayerRecord(decoding: encoded, linkType: ll.ppi == nil ? .bluetoothLELLWithPHDR : .ppi) != ll { mismatches += 1 }
            }
            #expect(mismatches == 0, "\(name)")
        }
    }

    @Test("the monitor writer keeps every packet of the .cfa, and tshark reads it back with the same count",
          .enabled(if: tsharkPath != nil, "tshark is not installed; skipping the interoperability check"))
    func monitorConversion() throws {
        let records = try Self.read(RealCaptures.nexxtenderCFA).records
        let written = try BTSnoopWriter.encode(records, datalink: .btsnoopMonitor)
        let back = try CaptureFile(bytes: written).readAll()
        #expect(back.error == nil)
        #expect(back.records.map(\.packet) == records.map(\.packet))
        #expect(back.records.map(\.direction) == records.map(\.direction))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("linuxble-cfa-monitor-\(UUID().uuidString).btsnoop")
        try Data(written).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let lengths = try runTshark(["-r", url.path, "-T", "fields", "-e", "frame.cap_len"]).split(separator: "\n").map { Int($0) }
        #expect(lengths == back.records.map { Optional($0.capturedLength) })
    }
}
