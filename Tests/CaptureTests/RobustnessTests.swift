import Testing
import BLECore
@testable import Capture

@Suite("robustness: mutated input never crashes, never hangs, and decodes consistently")
struct RobustnessTests {
    static let fixtures: [(String, String)] = [
        ("btsnoop H4", BTSnoopReaderTests.h4File), ("btsnoop monitor", BTSnoopReaderTests.monitorFile),
        ("pcap 201", PcapReaderTests.h4WithDirection), ("pcapng", PcapNGReaderTests.file),
    ]

    /// `bytes` with a few octets overwritten, or cut, or grown with random octets.
    static func mutate(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var out = bytes
        switch rng.next() % 4 {
        case 0, 1:
            for _ in 0...(rng.next() % 4) where !out.isEmpty {
                out[Int(rng.next() % UInt64(out.count))] = UInt8.random(in: 0...255, using: &rng)
            }
        case 2:
            out = Array(out.prefix(Int(rng.next() % UInt64(out.count + 1))))
        default:
            out += (0..<Int(rng.next() % 40)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        }
        return out
    }

    @Test("2,000 mutations of each fixture file read to an end, with errors inside the file")
    func mutatedFiles() throws {
        var rng = SplitMix64(seed: 0x5EED)
        for (name, text) in Self.fixtures {
            let original = try octets(text)
            var readable = 0
            for _ in 0..<2000 {
                let bytes = Self.mutate(original, &rng)
                guard let file = try? CaptureFile(bytes: bytes) else { continue }
                readable += 1
                let result = file.readAll()
                // Every record needs at least a 12-octet block or record header.
                #expect(result.records.count <= bytes.count / 12, "\(name)")
                #expect(result.records.enumerated().allSatisfy { $0.offset == $0.element.index }, "\(name)")
                if let error = result.error { #expect(error.offset <= bytes.count, "\(name): \(error)") }
            }
            #expect(readable > 500, "\(name): too few mutations kept a readable header")
        }
    }

    @Test("random link-layer octets either throw or decode to a value that encodes back to the same octets")
    func linkLayerRoundTrip() throws {
        var rng = SplitMix64(seed: 0xB1E)
        let seeds = [try octets(LinkLayerAdvertisingTests.connectInd), try octets(LinkLayerAdvertisingTests.advIndPPI),
                     try octets(LinkLayerDataTests.mtuRequest), try octets(LinkLayerDataTests.encReq)]
        let linkTypes: [LinkType] = [.bluetoothLELLWithPHDR, .ppi, .bluetoothLELLWithPHDR, .bluetoothLELL]
        var decoded = 0
        for i in 0..<20_000 {
            let k = i % seeds.count
            let bytes = Self.mutate(seeds[k], &rng)
            guard let record = try? LinkLayerRecord(decoding: bytes, linkType: linkTypes[k]) else { continue }
            decoded += 1
            #expect(record.encoded == bytes)
            _ = record.description
        }
        #expect(decoded > 2000)
    }

    @Test("random octets as an extended advertising PDU either throw or round-trip")
    func extendedRoundTrip() {
        var rng = SplitMix64(seed: 0xE47)
        var decoded = 0
        for _ in 0..<20_000 {
            let length = Int(rng.next() % 48)
            let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let bytes = [0x07, UInt8(length)] + payload
            var r = ByteReader(bytes)
            guard let pdu = try? AdvertisingChannelPDU(from: &r) else { continue }
            decoded += 1
            var w = ByteWriter()
            pdu.write(to: &w)
            #expect(w.bytes == bytes)
            _ = pdu.description
        }
        #expect(decoded > 1000)
    }
}
