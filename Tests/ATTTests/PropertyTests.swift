import Testing
import BLECore
@testable import ATT

@Suite("Property: decode never traps; when it succeeds, encode(decode(x)) == x")
struct PropertyTests {
    /// What one input taught us: whether it decoded, and any broken property.
    private func check(_ bytes: [UInt8], _ failures: inout [String]) -> Bool {
        do {
            let pdu = try ATTPDU.decode(bytes)
            if pdu.encoded != bytes { failures.append("re-encode differs: \(Hex.encode(bytes)) -> \(Hex.encode(pdu.encoded))") }
            if pdu.opcode.rawValue != bytes.first { failures.append("opcode differs: \(Hex.encode(bytes))") }
            // The text and structured views must not trap either.
            if pdu.description.isEmpty { failures.append("empty description: \(Hex.encode(bytes))") }
            _ = pdu.fields
            return true
        } catch {
            if error.opcode?.rawValue != bytes.first { failures.append("error opcode wrong: \(Hex.encode(bytes))") }
            if error.offset < 0 || error.offset > bytes.count { failures.append("error offset \(error.offset) outside: \(Hex.encode(bytes))") }
            if error.description.isEmpty { failures.append("empty error description") }
            return false
        }
    }

    @Test("every input of up to two octets")
    func exhaustiveShort() {
        var failures: [String] = []
        var decoded = 0
        if check([], &failures) { decoded += 1 }
        for a in 0...255 {
            if check([UInt8(a)], &failures) { decoded += 1 }
            for b in 0...255 where check([UInt8(a), UInt8(b)], &failures) { decoded += 1 }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        // Unknown opcodes and parameterless PDUs decode; the rest of these are too short.
        #expect(decoded > 200 * 257)
    }

    @Test("seeded random octet strings, biased towards defined opcodes")
    func randomBytes() {
        var rng = SplitMix64(seed: 0x4C69_6E75_7842_4C45)
        var failures: [String] = []
        var decoded = 0
        let defined = ATTOpcode.allDefined.map(\.rawValue)
        for _ in 0..<30_000 {
            let count = Int.random(in: 0...48, using: &rng)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if !bytes.isEmpty, Int.random(in: 0..<10, using: &rng) < 8 {
                bytes[0] = defined.randomElement(using: &rng) ?? 0x01
            }
            // Plausible list lengths now and then, so the list decoders are reached.
            if bytes.count > 1, [0x05, 0x09, 0x11].contains(bytes[0]), Bool.random(using: &rng) {
                bytes[1] = [0x01, 0x02, 0x04, 0x06, 0x07, 0x14].randomElement(using: &rng) ?? 0x01
            }
            if check(bytes, &failures) { decoded += 1 }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(decoded > 5_000, "enough inputs decode to exercise the round trip")
    }

    @Test("seeded well-formed PDUs of every type, then mutated")
    func structuredAndMutated() throws {
        var rng = SplitMix64(seed: 2024)
        var failures: [String] = []
        var decodedMutants = 0
        for i in 0..<6_000 {
            let pdu = try Self.randomPDU(index: i, using: &rng)
            let bytes = pdu.encoded
            if !check(bytes, &failures) { failures.append("well-formed PDU failed: \(pdu) \(Hex.encode(bytes))") }
            if (try? ATTPDU.decode(bytes)) != pdu { failures.append("value differs after round trip: \(pdu)") }
            // Mutations: cut, extend, flip one octet.
            let cut = Array(bytes.prefix(Int.random(in: 0..<max(1, bytes.count), using: &rng)))
            var extended = bytes
            extended.append(contentsOf: (0..<Int.random(in: 1...3, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
            var flipped = bytes
            if flipped.count > 1 { flipped[Int.random(in: 1..<flipped.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng) }
            for mutant in [cut, extended, flipped] where check(mutant, &failures) { decodedMutants += 1 }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(decodedMutants > 1_000)
    }

    // MARK: Generators

    static func octets(_ range: ClosedRange<Int>, using rng: inout SplitMix64) -> [UInt8] {
        (0..<Int.random(in: range, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    static func uuid(using rng: inout SplitMix64) -> BluetoothUUID {
        Bool.random(using: &rng)
            ? BluetoothUUID(UInt16.random(in: 0...0xFFFF, using: &rng))
            : BluetoothUUID(high: UInt64.random(in: 0...UInt64.max, using: &rng), low: UInt64.random(in: 0...UInt64.max, using: &rng))
    }

    /// A well-formed PDU of the type `index` selects, with random contents.
    static func randomPDU(index: Int, using rng: inout SplitMix64) throws -> ATTPDU {
        func h() -> UInt16 { UInt16.random(in: 0...0xFFFF, using: &rng) }
        func b(_ r: ClosedRange<Int>) -> [UInt8] { octets(r, using: &rng) }
        switch index % 32 {
        case 0: return .errorResponse(.init(requestOpcodeInError: ATTOpcode(rawValue: UInt8.random(in: 0...255, using: &rng)),
                                            attributeHandleInError: h(), errorCode: ATTErrorCode(rawValue: UInt8.random(in: 0...255, using: &rng))))
        case 1: return .exchangeMTURequest(.init(clientRxMTU: h()))
        case 2: return .exchangeMTUResponse(.init(serverRxMTU: h()))
        case 3: return .findInformationRequest(.init(startingHandle: h(), endingHandle: h()))
        case 4:
            let format: ATTFindInformationResponse.Format = Bool.random(using: &rng) ? .uuid16 : .uuid128
            let info = (0..<Int.random(in: 1...5, using: &rng)).map { _ in
                ATTFindInformationResponse.Information(handle: h(), type: format == .uuid16 ? BluetoothUUID(h()) : uuid(using: &rng))
            }
            return .findInformationResponse(try .init(format: format, information: info))
        case 5: return .findByTypeValueRequest(.init(startingHandle: h(), endingHandle: h(), attributeType: h(), attributeValue: b(0...20)))
        case 6: return .findByTypeValueResponse(try .init(handlesInformation: (0..<Int.random(in: 1...6, using: &rng)).map { _ in
            .init(foundAttributeHandle: h(), groupEndHandle: h()) }))
        case 7: return .readByTypeRequest(.init(startingHandle: h(), endingHandle: h(), attributeType: uuid(using: &rng)))
        case 8:
            let n = Int.random(in: 0...30, using: &rng)
            return .readByTypeResponse(try .init(attributeData: (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                .init(handle: h(), value: b(n...n)) }))
        case 9: return .readRequest(.init(handle: h()))
        case 10: return .readResponse(.init(value: b(0...40)))
        case 11: return .readBlobRequest(.init(handle: h(), valueOffset: h()))
        case 12: return .readBlobResponse(.init(partAttributeValue: b(0...40)))
        case 13: return .readMultipleRequest(try .init(setOfHandles: (0..<Int.random(in: 2...8, using: &rng)).map { _ in h() }))
        case 14: return .readMultipleResponse(.init(setOfValues: b(0...40)))
        case 15: return .readByGroupTypeRequest(.init(startingHandle: h(), endingHandle: h(), attributeGroupType: uuid(using: &rng)))
        case 16:
            let n = Int.random(in: 0...20, using: &rng)
            return .readByGroupTypeResponse(try .init(attributeData: (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                .init(handle: h(), endGroupHandle: h(), value: b(n...n)) }))
        case 17: return .readMultipleVariableRequest(try .init(setOfHandles: (0..<Int.random(in: 2...8, using: &rng)).map { _ in h() }))
        case 18:
            var tuples = (0..<Int.random(in: 2...4, using: &rng)).map { _ in
                ATTReadMultipleVariableResponse.LengthValueTuple(attributeValue: b(0...10)) }
            if Bool.random(using: &rng) {
                let part = b(0...10)
                tuples.append(.init(valueLength: UInt16(part.count + Int.random(in: 1...100, using: &rng)), includedValue: part))
            }
            return .readMultipleVariableResponse(try .init(tuples: tuples))
        case 19: return .writeRequest(.init(handle: h(), value: b(0...30)))
        case 20: return .writeResponse(.init())
        case 21: return .writeCommand(.init(handle: h(), value: b(0...30)))
        case 22: return .signedWriteCommand(.init(handle: h(), value: b(0...20), signature: .init(
            signCounter: UInt32.random(in: 0...UInt32.max, using: &rng), mac: UInt64.random(in: 0...UInt64.max, using: &rng))))
        case 23: return .prepareWriteRequest(.init(handle: h(), valueOffset: h(), partAttributeValue: b(0...20)))
        case 24: return .prepareWriteResponse(.init(handle: h(), valueOffset: h(), partAttributeValue: b(0...20)))
        case 25: return .executeWriteRequest(.init(flags: .init(rawValue: UInt8.random(in: 0...2, using: &rng))))
        case 26: return .executeWriteResponse(.init())
        case 27: return .handleValueNotification(.init(handle: h(), value: b(0...30)))
        case 28: return .handleValueIndication(.init(handle: h(), value: b(0...30)))
        case 29: return .handleValueConfirmation(.init())
        case 30: return .multipleHandleValueNotification(try .init(tuples: (0..<Int.random(in: 2...4, using: &rng)).map { _ in
            .init(handle: h(), value: b(0...10)) }))
        default:
            // An undefined opcode with random parameters.
            var raw: UInt8
            repeat { raw = UInt8.random(in: 0...255, using: &rng) } while ATTOpcode(rawValue: raw).isDefined
            return .unknown(opcode: ATTOpcode(rawValue: raw), parameters: b(0...20))
        }
    }
}
