import Testing
import BLECore
import ATT
@testable import GATT

/// Signed Write Command: the signature (Core v5.4, Vol 3, Part H, 2.4.5; Part F, 3.4.5.4) and the
/// server's acceptance rules (Part C, 10.4.2).
@Suite("GATT server: signed writes", .timeLimit(.minutes(1)))
struct ServerSignedWriteTests {
    /// The key of the example in Part F, 3.4.5.4: 0x611B64EBFBCD1FD372EC9196DF425E50.
    static let key = GATTSigningKey(mostSignificantFirst: "611B64EBFBCD1FD372EC9196DF425E50")!

    /// ATT_SIGNED_WRITE_CMD for `handle` and `value` signed with `key` and `counter`, in hex.
    static func signedWrite(_ handle: UInt16, _ value: [UInt8], counter: UInt32, key: GATTSigningKey = key) -> String {
        let message = [0xD2, UInt8(truncatingIfNeeded: handle), UInt8(truncatingIfNeeded: handle >> 8)] + value
        guard let signature = try? key.signature(of: message, signCounter: counter) else { return "" }
        return Hex.encode(message + signature.octets)
    }

    @Test("the example of Part F, 3.4.5.4: m = D212001337, SignCounter 1 -> 01000000 F1871E933C900FF2")
    func specificationExample() throws {
        // m: Signed Write Command, handle 0x0012, value 13 37; the CSRK 0x611B64EB...DF425E50
        let signature = try Self.key.signature(of: ServerTest.hex("D2 1200 1337"), signCounter: 1)
        #expect(signature.signCounter == 1)
        // The CMAC is 0xF20F903C931E87F159B64F012574B4D0; the MAC is its 64 most significant bits.
        #expect(signature.mac == 0xF20F_903C_931E_87F1)
        #expect(Hex.encode(signature.octets) == "01000000f1871e933c900ff2")
        // The whole signed message, as the specification prints it, decodes and verifies.
        let command = try ATTSignedWriteCommand(decoding: ServerTest.hex("D21200133701000000F1871E933C900FF2"))
        #expect(Self.key.verifies(command))
        #expect(GATTSigningKey(octets: [UInt8](repeating: 0, count: 16))?.verifies(command) == false)
        #expect(GATTSigningKey(octets: [0x01]) == nil)   // not a 16-octet key
    }

    @Test("accepted with the peer's CSRK and an increasing SignCounter; otherwise ignored")
    func acceptance() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        // No CSRK configured: ignored (Part C, 10.4.2).
        try h.command(Self.signedWrite(0x0017, [0x01], counter: 1))
        await h.expect("0a 1700", "0b")
        await h.connection.setSigningKey(Self.key)
        try h.command(Self.signedWrite(0x0017, [0x02], counter: 1))
        await h.expect("0a 1700", "0b 02")
        // A SignCounter used before: ignored (replay).
        try h.command(Self.signedWrite(0x0017, [0x03], counter: 1))
        await h.expect("0a 1700", "0b 02")
        // A wrong MAC: ignored.
        var forged = ServerTest.hex(Self.signedWrite(0x0017, [0x04], counter: 2))
        forged[forged.count - 1] ^= 0x01
        try h.command(Hex.encode(forged))
        await h.expect("0a 1700", "0b 02")
        // Another key: ignored.
        let other = GATTSigningKey(octets: [UInt8](repeating: 0x11, count: 16))!
        try h.command(Self.signedWrite(0x0017, [0x05], counter: 3, key: other))
        await h.expect("0a 1700", "0b 02")
        // A greater SignCounter: written, and remembered.
        try h.command(Self.signedWrite(0x0017, [0x06], counter: 10))
        await h.expect("0a 1700", "0b 06")
        #expect(await h.connection.record?.lastSignCounter == 10)
        // A characteristic without Authenticated Signed Writes (AAA2 at 0x0005): ignored.
        try h.command(Self.signedWrite(0x0005, [0x07], counter: 11))
        await h.expect("0a 0500", "0b" + Hex.encode(Array(ServerTest.longValue.prefix(22))))
        await h.close()
    }

    @Test("an authenticated CSRK satisfies an authentication requirement on an unencrypted link")
    func authentication() async throws {
        let database = try GATTDatabase(services: [.primary(BluetoothUUID(0xAAA0), characteristics: [
            GATTCharacteristicDefinition(uuid: BluetoothUUID(0xAAA1), properties: [.read, .authenticatedSignedWrites],
                                         permissions: GATTPermissions(read: .open, write: GATTAccess(authentication: true)),
                                         value: .fixed([0x00])),   // value 0x0003
        ])])
        var h = try await ServerHarness.make(database, options: GATTConnectionOptions(signingKey: Self.key))
        try h.command(Self.signedWrite(0x0003, [0x01], counter: 1))      // an unauthenticated CSRK: ignored
        await h.expect("0a 0300", "0b 00")
        await h.connection.setSigningKey(GATTSigningKey(octets: Self.key.octets, isAuthenticated: true))
        try h.command(Self.signedWrite(0x0003, [0x02], counter: 2))
        await h.expect("0a 0300", "0b 02")
        await h.close()
    }
}
