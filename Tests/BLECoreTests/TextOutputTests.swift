import Testing
import BLECore

/// The byte-oriented text writer: each write appends the UTF-8 the standard library's own text
/// for the same value has (`String(value)`, `String(value, radix: 16)`, `debugDescription`).
@Suite("TextOutput")
struct TextOutputTests {
    /// The text `body` writes after "x=", so that every check also shows nothing before it moved.
    static func written(_ body: (inout TextOutput) -> Void) -> String {
        var out = TextOutput(capacity: 4)
        out.write("x=")
        body(&out)
        return out.string
    }

    @Test("decimal integers read as String(value): signs, zero, the extremes, every digit count")
    func decimal() {
        var values: [Int] = [0, 1, -1, 9, 10, -10, 99, 100, 127, -127, -128, Int.max, Int.min]
        var power = 1
        for _ in 0..<18 { power *= 10; values += [power - 1, power, -power, power + 1] }
        for v in values {
            #expect(Self.written { $0.writeDecimal(v) } == "x=" + String(v), "\(v)")
        }
        for v: UInt64 in [0, 7, 10, 1_000_000, UInt64.max] {
            #expect(Self.written { $0.writeDecimal(v) } == "x=" + String(v), "\(v)")
        }
        #expect(TextOutput.decimalDigitCount(0) == 1)
        #expect(TextOutput.decimalDigitCount(UInt64.max) == 20)
    }

    @Test("minimumDigits pads with zeros in front and never cuts a longer number")
    func decimalPadding() {
        #expect(Self.written { $0.writeDecimal(5, minimumDigits: 6) } == "x=000005")
        #expect(Self.written { $0.writeDecimal(578_608, minimumDigits: 6) } == "x=578608")
        #expect(Self.written { $0.writeDecimal(1_234_567, minimumDigits: 6) } == "x=1234567")
        #expect(Self.written { $0.writeDecimal(0, minimumDigits: 0) } == "x=0")
    }

    @Test("hexadecimal numbers: the low digits, zeros in front, either case")
    func hexNumbers() {
        #expect(Self.written { $0.writeHex(0x4C, digits: 4, uppercase: true) } == "x=004C")
        #expect(Self.written { $0.writeHex(0xABCD, digits: 2, uppercase: true) } == "x=CD")
        #expect(Self.written { $0.writeHex(0x2A19, digits: 4) } == "x=2a19")
        #expect(Self.written { $0.writeHex(UInt64.max, digits: 16) } == "x=ffffffffffffffff")
        for v: UInt64 in [0, 1, 0x0F, 0x10, 0xDEAD_BEEF, 0x0123_4567_89AB_CDEF] {
            let lower = String(v, radix: 16)
            let padded = String(repeating: "0", count: 16 - lower.count) + lower
            #expect(Self.written { $0.writeHex(v, digits: 16) } == "x=" + padded)
            #expect(Self.written { $0.writeHex(v, digits: 16, uppercase: true) } == "x=" + padded.uppercased())
        }
    }

    @Test("hexadecimal octets: two lower-case digits each, any separator, across the 64-digit buffer")
    func hexOctets() {
        var rng = SplitMix64(seed: 0x7E47)
        for count in 0..<140 {
            let octets = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let reference = octets.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
            for separator in ["", " ", ":", ", "] {
                let expected = "x=" + reference.joined(separator: separator)
                #expect(Self.written { $0.writeHex(octets, separator: separator) } == expected)
                #expect(Self.written { $0.writeHex(([0xEE] + octets + [0xEE])[1..<(count + 1)], separator: separator) } == expected)
                #expect(Hex.encode(octets, separator: separator) == reference.joined(separator: separator))
            }
        }
    }

    @Test("a quoted name escapes every ASCII octet as debugDescription does, alone and beside any other")
    func quotedASCII() {
        for a in UInt8(0)..<0x80 {
            let one: [UInt8] = [a]
            #expect(Self.written { $0.writeQuoted(one) } == "x=" + String(decoding: one, as: UTF8.self).debugDescription, "\(a)")
            for b in UInt8(0)..<0x80 {
                let two: [UInt8] = [a, 0x41, b]
                let text = Self.written { $0.writeQuoted(two) }
                #expect(text == "x=" + String(decoding: two, as: UTF8.self).debugDescription, "\(a) \(b)")
            }
        }
        #expect(Self.written { $0.writeQuoted(Array("a\"b'c\\d\te\u{1B}".utf8)) } == #"x="a\"b\'c\\d\te\u{1B}""#)
    }

    @Test("a quoted name that is not ASCII reads as debugDescription of its decoded text, invalid UTF-8 included")
    func quotedUTF8() {
        let names: [[UInt8]] = [
            Array("café".utf8), Array("e\u{301}".utf8), Array("\"\u{301}".utf8), Array("é\n".utf8),
            Array("\u{2028}x".utf8), Array("😀".utf8), [0xFF, 0xFE], [0x41, 0x42, 0xC3], [0xE2, 0x82], [0x80, 0x61],
            [0x41, 0x00, 0xC3, 0xA9],
        ]
        var rng = SplitMix64(seed: 0x9A73)
        var random: [[UInt8]] = []
        for count in 1..<40 { random.append((0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }) }
        for name in names + random {
            #expect(Self.written { $0.writeQuoted(name) } == "x=" + String(decoding: name, as: UTF8.self).debugDescription, "\(name)")
        }
    }

    @Test("UTF-8 text, literals, substrings and single octets are written as they are")
    func utf8() {
        let text = "Heart Rate · 心拍 😀"
        #expect(Self.written { $0.write(string: text) } == "x=" + text)
        #expect(Self.written { $0.write(substring: text.dropFirst(6)) } == "x=Rate · 心拍 😀")
        #expect(Self.written { $0.write("dBm é") } == "x=dBm é")
        #expect(Self.written { $0.write(octet: 0x41); $0.write(octet: 0x20, count: 3); $0.write(octet: 0x20, count: -1) } == "x=A   ")
        let lines = Self.written { $0.write(string: "a"); $0.removeAll(); $0.write(string: "b") }
        #expect(lines == "b")
        var out = TextOutput()
        out.write(string: text)
        #expect(out.octets == Array(text.utf8))
        #expect(out.count == text.utf8.count && !out.isEmpty)
    }

    @Test("printable ASCII keeps 0x20...0x7E and drops every other octet")
    func printableASCII() {
        let octets: [UInt8] = Array(0...255)
        let text = Self.written { out in octets.withUnsafeBufferPointer { out.writePrintableASCII($0) } }
        #expect(text == "x=" + String(decoding: (0x20...0x7E).map { UInt8($0) }, as: UTF8.self))
    }
}
