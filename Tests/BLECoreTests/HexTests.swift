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
}
