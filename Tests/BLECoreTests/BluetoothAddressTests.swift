import Testing
import BLECore

@Suite("BluetoothAddress")
struct BluetoothAddressTests {
    @Test("wire order is least significant first; text is most significant first")
    func order() throws {
        // HCI carries 00:AA:01:00:00:00 as 00 00 00 01 AA 00.
        let a = try #require(BluetoothAddress(littleEndianOctets: [0x00, 0x00, 0x00, 0x01, 0xAA, 0x00]))
        #expect(a.description == "00:AA:01:00:00:00")
        #expect(BluetoothAddress("00:aa:01:00:00:00") == a)
        #expect(a.littleEndianOctets == [0x00, 0x00, 0x00, 0x01, 0xAA, 0x00])
        var w = ByteWriter(); a.write(to: &w)
        var r = ByteReader(w.bytes)
        #expect(try BluetoothAddress(from: &r) == a)
    }

    @Test("writeDescription writes the same 17 characters as description, after the writer's text")
    func writeDescription() throws {
        for value: UInt64 in [0, 0x00AA_0100_0000, 0xD00D_FEED_4852, 0xFFFF_FFFF_FFFF] {
            let address = BluetoothAddress(value)
            var out = TextOutput()
            out.write("from ")
            address.writeDescription(to: &out)
            #expect(out.string == "from " + address.description)
        }
        #expect(BluetoothAddress(0xD00D_FEED_4852).description == "D0:0D:FE:ED:48:52")
    }

    @Test("random address sub-types come from the two most significant bits")
    func randomKinds() throws {
        #expect(BluetoothAddress("C0:00:00:00:00:01")!.randomAddressKind == .randomStatic)
        #expect(BluetoothAddress("40:00:00:00:00:01")!.randomAddressKind == .resolvablePrivate)
        #expect(BluetoothAddress("00:00:00:00:00:01")!.randomAddressKind == .nonResolvablePrivate)
        #expect(BluetoothAddress("80:00:00:00:00:01")!.randomAddressKind == nil)
        #expect(BluetoothAddressType(address: BluetoothAddress("7B:00:00:00:00:01")!, isRandom: true) == .resolvablePrivate)
        #expect(BluetoothAddressType(address: BluetoothAddress("7B:00:00:00:00:01")!, isRandom: false) == .public)
    }

    @Test("malformed text and octet counts are rejected")
    func malformed() {
        #expect(BluetoothAddress("00:11:22:33:44") == nil)
        #expect(BluetoothAddress("00:11:22:33:44:GG") == nil)
        #expect(BluetoothAddress("001:1:22:33:44:55") == nil)
        #expect(BluetoothAddress(littleEndianOctets: [1, 2, 3]) == nil)
        var r = ByteReader([1, 2, 3])
        #expect(throws: BLEDecodingError.truncated(field: "Peer_Address", offset: 0, needed: 6, available: 3)) {
            _ = try BluetoothAddress(from: &r, field: "Peer_Address")
        }
    }
}
