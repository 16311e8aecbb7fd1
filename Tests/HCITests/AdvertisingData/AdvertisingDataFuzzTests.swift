import Testing
import BLECore
@testable import HCI

/// Seeded random and mutated payloads: whatever the octets, decoding never traps, its elements
/// cover every octet up to a zero Length or the end, each exactly once, and a well-formed payload
/// comes back octet for octet from its typed structures. Each seed replays exactly.
@Suite("AdvertisingData random and mutated input")
struct AdvertisingDataFuzzTests {
    /// Checks the decoding invariants of `bytes` and returns the decoded payload.
    @discardableResult
    static func checkInvariants(_ bytes: [UInt8], _ note: @autoclosure () -> String) throws -> AdvertisingData {
        let ad = AdvertisingData(decoding: bytes)
        #expect(ad.bytes == bytes, "\(note())")
        // The text written into a line is the description, element by element.
        var line = TextOutput()
        line.write("Extended Advertising Report: ")
        ad.writeDescription(to: &line)
        #expect(line.string == "Extended Advertising Report: " + (ad.elements.isEmpty ? "empty" : ad.elements.map(\.description).joined(separator: ", ")),
                "\(note())")
        // The elements tile the significant part, in order, from offset 0.
        var next = 0
        for e in ad.elements {
            #expect(e.offset == next, "\(note())")
            #expect(e.length != 0 && e.length == bytes[e.offset], "\(note())")
            let declaredEnd = e.offset + 1 + Int(e.length)
            let end = min(declaredEnd, bytes.count)
            #expect(e.extent == end - e.offset, "\(note())")
            #expect(e.octets.startIndex == e.offset && Array(e.octets) == Array(bytes[e.offset..<end]), "\(note())")
            #expect(e.type == (end - e.offset >= 2 ? ADType(bytes[e.offset + 1]) : nil), "\(note())")
            if declaredEnd > bytes.count {
                #expect(e.diagnostic?.reason == .runsPastEnd(declared: Int(e.length), available: bytes.count - e.offset - 1), "\(note())")
                #expect(e.structure == nil, "\(note())")
            }
            if let d = e.diagnostic { #expect(d.offset == e.offset && d.type == e.type, "\(note())") }
            if e.diagnostic == nil, e.type != nil { #expect(e.structure != nil, "\(note())") }
            // An element written from its octets reads as its typed value does.
            if e.diagnostic == nil, let s = e.structure { #expect(e.description == s.description, "\(note())") }
            next = end
        }
        #expect(next == ad.significantLength, "\(note())")
        if let t = ad.terminatorOffset {
            #expect(t == next && bytes[t] == 0, "\(note())")
        } else {
            #expect(next == bytes.count, "\(note())")
        }
        #expect(ad.structures.count == ad.elements.filter { $0.structure != nil }.count, "\(note())")
        _ = ad.description
        // The name read from the octets is the typed name's text.
        #expect(ad.localNameString == ad.localName?.string, "\(note())")
        _ = ad.diagnostics.map(\.decodingError)
        // Well formed: the typed structures encode back to the same octets.
        if ad.isWellFormed {
            let again = try AdvertisingData(structures: ad.structures)
            #expect(again.encoded == Array(bytes[..<ad.significantLength]), "\(note())")
            #expect(again.structures == ad.structures, "\(note())")
        }
        return ad
    }

    /// AD types the generators draw from: every typed one, a few raw ones, and anything.
    static let interestingTypes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x12, 0x14,
                                            0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1C, 0x1F, 0x20, 0x21, 0x24, 0x27,
                                            0x2F, 0xFF, 0x2E, 0x3F, 0x10, 0x00]

    /// AD data lengths each type likes, so structured payloads are often well formed.
    static func plausibleLength(for type: UInt8, _ rng: inout SplitMix64) -> Int {
        if Int.random(in: 0..<5, using: &rng) == 0 { return Int.random(in: 0...24, using: &rng) }
        switch ADType(type).dataLayout {
        case .any: return Int.random(in: 0...12, using: &rng)
        case .exactly(let n): return n
        case .either(let a, let b): return Bool.random(using: &rng) ? a : b
        case .atLeast(let n): return n + Int.random(in: 0...6, using: &rng)
        case .multiple(let n): return n * Int.random(in: 0...2, using: &rng)
        }
    }

    static func randomBytes(_ count: Int, _ rng: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// A payload of well-shaped structures (Length matching the data) of plausible types and lengths.
    static func structuredPayload(_ rng: inout SplitMix64) -> [UInt8] {
        var out: [UInt8] = []
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            let type = interestingTypes.randomElement(using: &rng) ?? 0x01
            var data = randomBytes(plausibleLength(for: type, &rng), &rng)
            if type == 0x24, let first = data.first, first >= 0x80 { data[0] = first & 0x7F }  // mostly valid URIs
            out.append(UInt8(1 + data.count))
            out.append(type)
            out.append(contentsOf: data)
        }
        return out
    }

    static func mutate(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var b = bytes
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0 where !b.isEmpty:  // flip a bit
                let i = Int.random(in: 0..<b.count, using: &rng)
                b[i] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
            case 1 where !b.isEmpty:  // truncate
                b.removeLast(Int.random(in: 1...b.count, using: &rng))
            case 2 where !b.isEmpty:  // replace an octet (often a Length) with an extreme value
                b[Int.random(in: 0..<b.count, using: &rng)] = [0x00, 0x01, 0x02, 0xFE, 0xFF].randomElement(using: &rng) ?? 0
            case 3:  // insert an octet
                b.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...b.count, using: &rng))
            case 4:  // append random octets
                b.append(contentsOf: randomBytes(Int.random(in: 1...8, using: &rng), &rng))
            default:  // pad with zeros
                b.append(contentsOf: repeatElement(0, count: Int.random(in: 1...8, using: &rng)))
            }
        }
        return b
    }

    @Test("random octets", arguments: [UInt64(1), 0xAD_DA7A, 0x5EED_0F_B1E])
    func randomOctets(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for n in 0..<1500 {
            let bytes = Self.randomBytes(Int.random(in: 0...80, using: &rng), &rng)
            try Self.checkInvariants(bytes, "seed \(seed) case \(n): \(Hex.encode(bytes, separator: " "))")
        }
    }

    @Test("structured payloads and their mutations", arguments: [UInt64(2), 0xC0FFEE, 0x1650])
    func structuredAndMutated(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var wellFormed = 0
        var malformed = 0
        for n in 0..<1500 {
            let payload = Self.structuredPayload(&rng)
            let ad = try Self.checkInvariants(payload, "seed \(seed) case \(n): \(Hex.encode(payload, separator: " "))")
            if ad.isWellFormed { wellFormed += 1 }
            let mutated = Self.mutate(payload, &rng)
            let m = try Self.checkInvariants(mutated, "seed \(seed) mutation \(n): \(Hex.encode(mutated, separator: " "))")
            if !m.isWellFormed { malformed += 1 }
        }
        // Both sides of the decoder were exercised.
        #expect(wellFormed > 300)
        #expect(malformed > 300)
    }

    /// A random, valid typed structure of any case.
    static func randomStructure(_ rng: inout SplitMix64) -> ADStructure {
        func bytes(_ range: ClosedRange<Int>) -> [UInt8] { randomBytes(Int.random(in: range, using: &rng), &rng) }
        func uuid(_ width: BluetoothUUID.Width) -> BluetoothUUID {
            switch width {
            case .bits16: return BluetoothUUID(UInt16.random(in: 0...0xFFFF, using: &rng))
            case .bits32: return BluetoothUUID(uuid32: UInt32.random(in: 0...UInt32.max, using: &rng))
            case .bits128: return BluetoothUUID(high: rng.next(), low: rng.next())
            }
        }
        let width = BluetoothUUID.Width.allCases.randomElement(using: &rng) ?? .bits16
        func list() -> ADUUIDList {
            let uuids = (0..<Int.random(in: 0...3, using: &rng)).map { _ in uuid(width) }
            return ADUUIDList(width: width, uuids: uuids) ?? ADUUIDList(uuids16: [])
        }
        func addresses() -> [BluetoothAddress] { (0..<Int.random(in: 0...3, using: &rng)).map { _ in BluetoothAddress(rng.next()) } }
        switch Int.random(in: 0..<16, using: &rng) {
        case 0: return .flags(ADFlags(rawValue: UInt8.random(in: 0...255, using: &rng)))
        case 1: return .serviceUUIDs(list(), isComplete: Bool.random(using: &rng))
        case 2: return .localName(ADLocalName(bytes: bytes(0...20), isComplete: Bool.random(using: &rng)))
        case 3: return .txPowerLevel(Int8.random(in: -128...127, using: &rng))
        case 4: return .peripheralConnectionIntervalRange(ADPeripheralConnectionIntervalRange(minimum: UInt16.random(in: 0...0xFFFF, using: &rng), maximum: UInt16.random(in: 0...0xFFFF, using: &rng)))
        case 5: return .serviceSolicitation(list())
        case 6: return .serviceData(ADServiceData(uuid: uuid(width), data: bytes(0...10)))
        case 7: return .publicTargetAddresses(addresses())
        case 8: return .randomTargetAddresses(addresses())
        case 9: return .appearance(ADAppearance(rawValue: UInt16.random(in: 0...0xFFFF, using: &rng)))
        case 10:
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return .advertisingInterval(ADAdvertisingInterval(units: UInt16.random(in: 0...0xFFFF, using: &rng)))
            case 1: return .advertisingInterval(ADAdvertisingInterval(longUnits: UInt32.random(in: 0...UInt32.max, using: &rng)))
            default: return .advertisingInterval(ADAdvertisingInterval(units: UInt32.random(in: 0...0xFF_FFFF, using: &rng), octetCount: 4) ?? ADAdvertisingInterval(units: 0))
            }
        case 11: return .leRole(ADLERole(rawValue: UInt8.random(in: 0...255, using: &rng)))
        case 12:
            let scalar = Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &rng)) ?? "\u{17}"
            return .uri(ADURI(scheme: scalar, restBytes: bytes(0...12)))
        case 13: return .leSupportedFeatures(ADLESupportedFeatures(bytes: bytes(0...8)))
        case 14: return .manufacturerSpecificData(ADManufacturerSpecificData(companyIdentifier: UInt16.random(in: 0...0xFFFF, using: &rng), data: bytes(0...12)))
        default:
            // A type without a typed decoder (0x00 would end the payload).
            let raw: [UInt8] = [0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x13, 0x1B, 0x1D, 0x1E, 0x22, 0x23, 0x25, 0x26, 0x28, 0x2E, 0x30, 0x3F, 0x80]
            return .other(type: ADType(raw.randomElement(using: &rng) ?? 0x3F), data: bytes(0...10))
        }
    }

    @Test("typed structures -> octets -> typed structures -> the same octets", arguments: [UInt64(3), 0xBEEF, 0x31])
    func typedRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for n in 0..<1000 {
            let structures = (0..<Int.random(in: 0...5, using: &rng)).map { _ in Self.randomStructure(&rng) }
            let encoded = try AdvertisingData(structures: structures)
            #expect(encoded.encodedLength == structures.reduce(0) { $0 + $1.encodedLength }, "seed \(seed) case \(n)")
            let decoded = try Self.checkInvariants(encoded.encoded, "seed \(seed) case \(n): \(structures)")
            #expect(decoded.isWellFormed, "seed \(seed) case \(n): \(decoded.diagnostics)")
            #expect(decoded.structures == structures, "seed \(seed) case \(n)")
            #expect(try AdvertisingData(structures: decoded.structures).encoded == encoded.encoded, "seed \(seed) case \(n)")
        }
    }
}
