import Testing
import BLECore
@testable import Capture

/// The nRF Sniffer and PacketLogger readers on cut and damaged copies of the project's fixtures:
/// never a crash or a hang, every good record kept, typed errors with offsets inside the file.
@Suite("sniffer robustness: cut and damaged nRF Sniffer and PacketLogger files keep their good records")
struct SnifferRobustnessTests {
    /// A file's first `count` records (pcap: with the 24-octet file header), and where each
    /// record starts and where its payload starts.
    struct Slice {
        var bytes: [UInt8]
        var recordStarts: [Int]
        var payloadStarts: [Int]
    }

    static func pcapSlice(_ bytes: [UInt8], records count: Int) -> Slice {
        var offset = 24, starts: [Int] = [], payloads: [Int] = []
        while starts.count < count, offset + 16 <= bytes.count {
            let length = Int(bytes[offset + 8]) | Int(bytes[offset + 9]) << 8
            starts.append(offset)
            payloads.append(offset + 16)
            offset += 16 + length
        }
        return Slice(bytes: Array(bytes.prefix(offset)), recordStarts: starts, payloadStarts: payloads)
    }

    static func packetLoggerSlice(_ bytes: [UInt8], records count: Int, bigEndian: Bool) -> Slice {
        var offset = 0, starts: [Int] = [], payloads: [Int] = []
        while starts.count < count, offset + 13 <= bytes.count {
            let b = bytes[offset..<offset + 4].map(Int.init)
            let length = bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
            starts.append(offset)
            payloads.append(offset + 13)
            offset += 4 + length
        }
        return Slice(bytes: Array(bytes.prefix(offset)), recordStarts: starts, payloadStarts: payloads)
    }

    /// The slices checked octet by octet: the first 12 records of each fixture (advertising, the
    /// bad-CRC ADV_IND, SCAN_REQ, SCAN_RSP, CONNECT_IND, data PDUs; HCI packets and a note).
    static func slices() throws -> [(String, Slice)] {
        var out: [(String, Slice)] = []
        for version in SnifferFixtures.nordicVersions {
            out.append(("nRF Sniffer v\(version)", pcapSlice(try SnifferFixtures.nordicPcap(version: version), records: 12)))
        }
        for bigEndian in [true, false] {
            out.append(("PacketLogger \(bigEndian ? "BE" : "LE")",
                        packetLoggerSlice(try SnifferFixtures.packetLogger(bigEndian: bigEndian), records: 12, bigEndian: bigEndian)))
        }
        return out
    }

    /// Whether a dissected packet decoded ATT from a packet the sniffer flagged bad.
    static func decodedATTFromBadPacket(_ packet: DissectedPacket, _ record: CaptureRecord) -> Bool {
        guard case .linkLayer(let ll) = record.packet else { return false }
        let verdict = ll.sniffer
        return packet.attPDU != nil && (verdict.isCRCValid == false || verdict.isMICValid == false)
    }

    @Test("cut at every length: the whole records before the cut, then an error at or before the cut")
    func cutAtEveryLength() async throws {
        for (name, slice) in try Self.slices() {
            await Task.yield()   // CPU-bound for seconds: let the other tests' tasks have the pool
            let full = try CaptureFile(bytes: slice.bytes).readAll()
            #expect(full.error == nil, "\(name)")
            #expect(full.records.count == slice.recordStarts.count, "\(name)")
            let ends = Array(slice.recordStarts.dropFirst()) + [slice.bytes.count]
            for length in 0..<slice.bytes.count {
                guard let file = try? CaptureFile(bytes: Array(slice.bytes.prefix(length))) else {
                    #expect(length < 24, "\(name): a \(length)-octet prefix was not recognised")
                    continue
                }
                let result = file.readAll()
                let whole = ends.filter { $0 <= length }.count
                #expect(result.records == Array(full.records.prefix(whole)), "\(name) cut at \(length)")
                let atBoundary = length == slice.recordStarts.first || ends.contains(length)
                #expect((result.error == nil) == atBoundary, "\(name) cut at \(length): \(String(describing: result.error))")
                if let error = result.error { #expect(error.offset <= length, "\(name) cut at \(length)") }
            }
        }
    }

    @Test("every octet damaged: no record is lost but to broken framing, the others are unchanged, bad packets never give ATT")
    func damagedAtEveryOctet() async throws {
        for (name, slice) in try Self.slices() {
            let original = try CaptureFile(bytes: slice.bytes)
            let full = original.readAll().records
            for position in slice.bytes.indices {
                // CPU-bound for seconds: let the other tests' tasks have the cooperative pool
                // (one thread per core) now and then, or their real-time ATT timers run out.
                if position % 64 == 0 { await Task.yield() }
                let damaged = slice.recordStarts.lastIndex { $0 <= position }
                let inPayload = damaged.map { position >= slice.payloadStarts[$0] } ?? false
                for value in [0x00, 0xFF, slice.bytes[position] ^ 0x01] as [UInt8] {
                    var mutated = slice.bytes
                    mutated[position] = value
                    guard let file = try? CaptureFile(bytes: mutated) else { continue }
                    let result = file.readAll()
                    if let error = result.error { #expect(error.offset <= mutated.count, "\(name) octet \(position)") }
                    var dissector = Dissector()
                    for record in result.records {
                        let packet = dissector.dissect(record)
                        _ = packet.line
                        #expect(!Self.decodedATTFromBadPacket(packet, record), "\(name) octet \(position): \(packet.line)")
                    }
                    _ = dissector.report.renderedLines
                    guard let damaged, file.format == original.format else { continue }
                    #expect(Array(result.records.prefix(damaged)) == Array(full.prefix(damaged)), "\(name) octet \(position)")
                    if inPayload {
                        // The framing is whole: every record is there, and only the damaged one differs.
                        #expect(result.error == nil, "\(name) octet \(position)")
                        #expect(result.records.count == full.count, "\(name) octet \(position) lost a record")
                        for (k, record) in result.records.enumerated() where k != damaged && k < full.count {
                            #expect(record == full[k], "\(name) octet \(position) changed record \(k)")
                        }
                    }
                }
            }
        }
    }

    @Test("random damage to the whole fixture files reads to an end, errors inside the file, bad packets never give ATT")
    func randomDamageToWholeFiles() throws {
        var rng = SplitMix64(seed: 0x5A1FF)
        for (name, make) in SnifferFixtures.files {
            let original = try make()
            for _ in 0..<100 {
                let bytes = RobustnessTests.mutate(original, &rng)
                guard let file = try? CaptureFile(bytes: bytes) else { continue }
                let result = file.readAll()
                #expect(result.records.enumerated().allSatisfy { $0.offset == $0.element.index }, "\(name)")
                if let error = result.error { #expect(error.offset <= bytes.count, "\(name): \(error)") }
                var dissector = Dissector()
                for record in result.records {
                    let packet = dissector.dissect(record)
                    #expect(!Self.decodedATTFromBadPacket(packet, record), "\(name): \(packet.line)")
                }
            }
        }
    }
}
