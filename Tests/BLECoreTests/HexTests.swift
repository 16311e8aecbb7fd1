import Testing
import BLECore

@Suite("Hex")
struct HexTests {
    @Test("hex16: 0x and four lower-case digits, most significant first")
    func hex16() {
        #expect(Hex.hex16(0x0003) == "0x0003")
        #expect(Hex.hex16(0x2A19) == "0x2a19")
        #expect(Hex.hex16(0xFFFF) == "0xffff")
        #expect(Hex.hex16(0) == "0x0000")
    }

    @Test("encode and decode round trip; decode refuses what is not hexadecimal")
    func roundTrip() {
        #expect(Hex.encode([0x0a, 0xff, 0x00], separator: " ") == "0a ff 00")
        #expect(Hex.decode("0a ff 00") == [0x0a, 0xff, 0x00])
        #expect(Hex.decode("0g") == nil)
        #expect(Hex.decode("abc") == nil)
    }

    @Test("arrays, slices and other collections encode alike, with any separator, as two digits per octet")
    func encodeShapes() {
        var rng = SplitMix64(seed: 0x4E4)
        for count in 0..<40 {
            let octets = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let reference = octets.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
            for separator in ["", " ", ":", ", "] {
                let expected = reference.joined(separator: separator)
                #expect(Hex.encode(octets, separator: separator) == expected)
                #expect(Hex.encode(([0xEE] + octets + [0xEE])[1..<(count + 1)], separator: separator) == expected)
                #expect(Hex.encode(octets.lazy.map { $0 }, separator: separator) == expected)
                #expect(Hex.decode(expected) == octets || separator == ", ")
            }
        }
    }

    @Test("write16 writes after the writer's text the characters hex16 returns")
    func write16() {
        for value: UInt16 in [0, 0x0003, 0x2A19, 0xFFFF] {
            var out = TextOutput()
            out.write("ACL ")
            Hex.write16(value, to: &out)
            #expect(out.string == "ACL " + Hex.hex16(value))
        }
    }

    @Test("octets(_:) says why text is not hexadecimal, and where")
    func errors() throws {
        #expect(throws: HexDecodingError.self) { try Hex.octets("zz") }
        #expect(Self.reason("zz") == "'z' at column 1 is not a hexadecimal digit")
        #expect(Self.reason("0a é") == "'é' at column 4 is not a hexadecimal digit")
        #expect(Self.reason("0a 030") == "5 hexadecimal digits, an odd number: the last octet lacks its second digit")
        #expect(Self.reason("0x0a 0") == "3 hexadecimal digits, an odd number: the last octet lacks its second digit")
        #expect(Self.reason("0 a") == "a space at column 2 splits an octet between its two digits")
        #expect(Self.reason("0a:0\tb") == "a tab at column 5 splits an octet between its two digits")
        #expect(Self.reason("0a # zz") == nil)
        #expect(try Hex.octets("0x0a:ff-00 # comment") == [0x0a, 0xff, 0x00])
        #expect(Hex.decode("0a 030") == nil)
    }

    static func reason(_ text: String) -> String? {
        do {
            _ = try Hex.octets(text)
            return nil
        } catch {
            return error.description
        }
    }
}
