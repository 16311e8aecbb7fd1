import Testing
import BLECore
@testable import GATT

/// Seeded random input: the value decoders and the JSON loader never trap; whatever decodes
/// encodes back to the same octets.
@Suite("GATT database robustness")
struct DatabaseRobustnessTests {
    /// The decoders that accepted `bytes` but encoded the value to other octets (none, when all
    /// is well), and how many accepted it. A decoder that throws has thrown a typed
    /// BLEDecodingError, which is the right answer to bad input.
    static func mismatches(_ bytes: [UInt8]) -> (names: [String], accepted: Int) {
        var names: [String] = []
        var accepted = 0
        func note(_ name: String, _ encoded: [UInt8]?) {
            guard let encoded else { return }
            accepted += 1
            if encoded != bytes { names.append(name) }
        }
        note("service", try? GATTServiceDeclaration(decoding: bytes).encoded)
        note("include", try? GATTIncludeDeclaration(decoding: bytes).encoded)
        note("characteristic", try? GATTCharacteristicDeclaration(decoding: bytes).encoded)
        note("presentation format", try? GATTPresentationFormat(decoding: bytes).encoded)
        note("aggregate format", try? GATTAggregateFormat(decoding: bytes).encoded)
        note("CCCD", try? GATTClientCharacteristicConfiguration(decoding: bytes).encoded)
        note("SCCD", try? GATTServerCharacteristicConfiguration(decoding: bytes).encoded)
        note("extended properties", try? GATTCharacteristicExtendedProperties(decoding: bytes).encoded)
        return (names, accepted)
    }

    @Test("20,000 random values through every decoder (seed 0x6A77)")
    func randomValues() {
        var rng = SplitMix64(seed: 0x6A77)
        var accepted = 0
        for _ in 0..<20_000 {
            let length = Int(rng.next() % 24)
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let result = Self.mismatches(bytes)
            #expect(result.names.isEmpty, "\(Hex.encode(bytes)) does not round-trip through \(result.names)")
            accepted += result.accepted
        }
        // Every length 0...23 is accepted by some decoder (the aggregate format takes any even one).
        #expect(accepted > 10_000)
    }

    @Test("1,000 mutated copies of small.json load or fail with a typed error (seed 0xDB)")
    func mutatedJSON() throws {
        let original = Array(try String(contentsOfFile: DBTest.fixtures + "/small.json", encoding: .utf8).utf8)
        let alphabet = Array(#"{}[]":,0123456789abcdefx-"#.utf8)
        var rng = SplitMix64(seed: 0xDB)
        var loaded = 0, failed = 0
        for _ in 0..<1_000 {
            var text = original
            for _ in 0..<(1 + rng.next() % 4) {
                let position = Int(rng.next() % UInt64(text.count))
                switch rng.next() % 3 {
                case 0: text[position] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: text.remove(at: position)
                default: text.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: position)
                }
            }
            do {
                let db = try GATTDatabase(json: text)
                // Whatever loads is a valid database: handles ascend, and it writes and loads back.
                #expect(zip(db.attributes, db.attributes.dropFirst()).allSatisfy { $0.handle < $1.handle })
                #expect(DBTest.rows(try GATTDatabase(jsonText: db.jsonText())) == DBTest.rows(db))
                loaded += 1
            } catch {
                #expect(!error.description.isEmpty)
                failed += 1
            }
        }
        #expect(loaded + failed == 1_000)
        #expect(loaded > 0)
        #expect(failed > 0)
    }
}
