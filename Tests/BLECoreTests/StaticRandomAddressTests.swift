import BLECore
import Testing

/// Static random device addresses (Core v5.4, Vol 6, Part B, 1.3.2.1).
@Suite("Static random addresses")
struct StaticRandomAddressTests {
    /// A generator that returns its values in turn.
    struct Replay: RandomNumberGenerator {
        var values: [UInt64]
        mutating func next() -> UInt64 { values.removeFirst() }
    }

    @Test("the two top bits are set and the random part is kept")
    func topBitsSet() {
        var generator = Replay(values: [0x0000_1122_3344_5566])
        let address = BluetoothAddress.staticRandom(using: &generator)
        #expect(address == BluetoothAddress("D1:22:33:44:55:66"))
        #expect(address.isValidStaticRandom)
        #expect(address.randomAddressKind == .randomStatic)
    }

    @Test("a random part of all zeros or all ones is drawn again")
    func degenerateDrawnAgain() {
        var generator = Replay(values: [0, 0xFFFF_FFFF_FFFF_FFFF, 0x4000_0000_0000, 0x0000_0000_0001])
        #expect(BluetoothAddress.staticRandom(using: &generator) == BluetoothAddress("C0:00:00:00:00:01"))
        #expect(generator.values.isEmpty)
    }

    @Test("only addresses with the top bits 0b11 and a mixed random part are valid")
    func validity() {
        #expect(!BluetoothAddress("C0:00:00:00:00:00")!.isValidStaticRandom)
        #expect(!BluetoothAddress("FF:FF:FF:FF:FF:FF")!.isValidStaticRandom)
        #expect(!BluetoothAddress("40:11:22:33:44:55")!.isValidStaticRandom)
        #expect(BluetoothAddress("FF:FF:FF:FF:FF:FE")!.isValidStaticRandom)
        for _ in 0..<100 { #expect(BluetoothAddress.staticRandom().isValidStaticRandom) }
    }
}
