import Testing
import BLECore
@testable import Capture

/// The project's nRF Sniffer and PacketLogger fixtures as tshark reads them and as we do:
/// frame count, each frame's direction and CRC and MIC verdicts, and ATT opcode counts.
/// tshark counts ATT in packets whose CRC or MIC failed; this decoder does not decode those,
/// so tshark's count leaves them out (`nordic_ble.crcok == 0`, `nordic_ble.micok == 0`).
@Suite("sniffer fixtures against tshark",
       .enabled(if: tsharkPath != nil, "tshark is not installed; skipping the cross-check with it"))
struct SnifferTsharkCrossCheckTests {
    /// tshark's fields for every frame, one array of `fields.count` strings a frame.
    static func tsharkFields(_ path: String, _ fields: [String], filter: String? = nil) throws -> [[String]] {
        var arguments = ["-r", path, "-T", "fields", "-E", "occurrence=f"]
        if let filter { arguments += ["-Y", filter] }
        for field in fields { arguments += ["-e", field] }
        return try runTshark(arguments).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// ATT opcode counts from tshark's `btatt.opcode` lines.
    static func counts(_ rows: [[String]]) throws -> [UInt8: Int] {
        var counts: [UInt8: Int] = [:]
        for row in rows {
            let opcode = try #require(UInt8(row[0].dropFirst(2), radix: 16), "tshark printed \(row)")
            counts[opcode, default: 0] += 1
        }
        return counts
    }

    static func ours(_ path: String) throws -> (records: [CaptureRecord], packets: [DissectedPacket], counts: [UInt8: Int]) {
        let result = try CaptureFile(contentsOf: path).readAll()
        #expect(result.error == nil)
        var dissector = Dissector()
        let packets = result.records.map { dissector.dissect($0) }
        let counts = Dictionary(uniqueKeysWithValues: dissector.report.attCounts.map { ($0.opcode.rawValue, $0.count) })
        return (result.records, packets, counts)
    }

    @Test("each nRF Sniffer header version: frames, directions, CRC and MIC verdicts and ATT counts equal tshark's",
          arguments: SnifferFixtures.nordicVersions)
    func nordic(_ version: UInt8) throws {
        let path = SnifferFixtures.path(SnifferFixtures.nordicName(version: version))
        let (_, packets, counts) = try Self.ours(path)
        let frames = try Self.tsharkFields(path, ["nordic_ble.protover", "nordic_ble.crcok", "nordic_ble.direction", "nordic_ble.micok"])
        #expect(frames.count == packets.count)
        #expect(packets.count == 172)
        var badCRC = 0, badMIC = 0
        for (frame, packet) in zip(frames, packets) {
            let number = packet.index + 1
            guard case let .linkLayer(_, stage) = packet.content else {
                Issue.record("frame \(number) is not a link-layer packet: \(packet.line)")
                continue
            }
            // tshark reads the same header version (0 for the legacy Marker).
            #expect(frame[0] == String(version), "frame \(number)")
            // Ours says bad CRC exactly where the header does; bad MIC where the header does.
            #expect((frame[1] == "0") == (stage.name == "bad_crc"), "frame \(number): tshark crcok \(frame[1]), ours \(stage.name)")
            #expect((frame[3] == "0" && frame[1] == "1") == (stage.name == "bad_mic"), "frame \(number): tshark micok \(frame[3])")
            if frame[1] == "0" { badCRC += 1 }
            if frame[3] == "0" { badMIC += 1 }
            // Directions: tshark's for data PDUs (1 central to peripheral), none for advertising.
            let expected: CaptureDirection = frame[2] == "1" ? .centralToPeripheral : frame[2] == "0" ? .peripheralToCentral : .unknown
            #expect(packet.direction == expected, "frame \(number)")
            #expect(!packet.isDirectionInferred, "frame \(number)")
        }
        #expect(badCRC == 2)
        #expect(badMIC == 1)
        let theirs = try Self.counts(try Self.tsharkFields(path, ["btatt.opcode"],
                                                             filter: "btatt && nordic_ble.crcok == 1 && !(nordic_ble.micok == 0)"))
        #expect(counts == theirs)
        #expect(counts.values.reduce(0, +) == 104)
    }

    @Test("both PacketLogger formats: frames, Packet Types and directions, notes and ATT counts equal tshark's",
          arguments: [true, false])
    func packetLogger(_ bigEndian: Bool) throws {
        let path = SnifferFixtures.path(SnifferFixtures.packetLoggerName(bigEndian: bigEndian))
        let (records, packets, counts) = try Self.ours(path)
        let frames = try Self.tsharkFields(path, ["packetlogger.type", "packetlogger.info"])
        #expect(frames.count == records.count)
        #expect(records.count == 223)
        for (frame, (record, packet)) in zip(frames, zip(records, packets)) {
            let number = record.index + 1
            let type = try #require(UInt8(frame[0].dropFirst(2), radix: 16), "frame \(number): \(frame)")
            switch type {
            case 0x00, 0x02: #expect(record.direction == .hostToController, "frame \(number)")
            case 0x01, 0x03: #expect(record.direction == .controllerToHost, "frame \(number)")
            case 0xFC:
                #expect(record.packet == .packetLogger(type: .note, payload: Array(frame[1].utf8) + [0]), "frame \(number)")
                #expect(packet.line.hasSuffix("PacketLogger Note: " + frame[1]), "frame \(number)")
            default:
                Issue.record("frame \(number): unexpected Packet Type 0x\(frame[0])")
            }
        }
        #expect(counts == (try Self.counts(try Self.tsharkFields(path, ["btatt.opcode"], filter: "btatt"))))
        #expect(counts.values.reduce(0, +) == 105)
    }

    @Test("the PacketLogger fixtures decode to the same packets as the btsnoop capture they were made from")
    func packetLoggerMatchesItsSource() throws {
        let source = try SnifferFixtures.heartRateRecords()
        for bigEndian in [true, false] {
            let records = try CaptureFile(contentsOf: SnifferFixtures.path(SnifferFixtures.packetLoggerName(bigEndian: bigEndian)))
                .readAll().records.filter { if case .packetLogger = $0.packet { false } else { true } }
            #expect(records.map(\.packet) == source.map(\.packet))
            #expect(records.map(\.direction) == source.map(\.direction))
            #expect(records.map(\.timestamp) == source.map(\.timestamp))
        }
    }
}
