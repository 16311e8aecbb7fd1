import Testing
import BLECore
@testable import GATT

/// The Database Hash (Core v5.4, Vol 3, Part G, 7.3.1) against the specification's example and
/// against the hash a Bumble server sent in the demo capture.
@Suite("Database Hash (Part G, 7.3)")
struct DatabaseHashTests {
    /// The example database of Core v5.4, Vol 3, Part G, Appendix B, built with allocated handles.
    ///
    /// | Handle | Attribute type | Value |
    /// |---|---|---|
    /// | 0x0001 | «Primary Service» | 0x1800 (Generic Access) |
    /// | 0x0002 | «Characteristic» | Read, Write; 0x0003; 0x2A00 (Device Name) |
    /// | 0x0003 | 0x2A00 | (device name) |
    /// | 0x0004 | «Characteristic» | Read; 0x0005; 0x2A01 (Appearance) |
    /// | 0x0005 | 0x2A01 | (appearance) |
    /// | 0x0006 | «Primary Service» | 0x1801 (Generic Attribute) |
    /// | 0x0007 | «Characteristic» | Indicate; 0x0008; 0x2A05 (Service Changed) |
    /// | 0x0008 | 0x2A05 | |
    /// | 0x0009 | «Client Characteristic Configuration» | |
    /// | 0x000A | «Characteristic» | Read, Write; 0x000B; 0x2B29 (Client Supported Features) |
    /// | 0x000B | 0x2B29 | |
    /// | 0x000C | «Characteristic» | Read; 0x000D; 0x2B2A (Database Hash) |
    /// | 0x000D | 0x2B2A | |
    /// | 0x000E | «Primary Service» | 0x1808 (Glucose) |
    /// | 0x000F | «Include» | 0x0014, 0x0016, 0x180F |
    /// | 0x0010 | «Characteristic» | Read, Indicate, Extended Properties; 0x0011; 0x2A18 (Glucose Measurement) |
    /// | 0x0011 | 0x2A18 | |
    /// | 0x0012 | «Client Characteristic Configuration» | |
    /// | 0x0013 | «Characteristic Extended Properties» | 0x0000 |
    /// | 0x0014 | «Secondary Service» | 0x180F (Battery) |
    /// | 0x0015 | «Characteristic» | Read; 0x0016; 0x2A19 (Battery Level) |
    /// | 0x0016 | 0x2A19 | |
    static func appendixB() throws -> GATTDatabase {
        var builder = GATTDatabaseBuilder()
        builder.addService(.primary(DBTest.uuid(0x1800), characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A00), properties: [.read, .write], value: .text("Example")),
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A01), properties: [.read], value: .fixed([0, 0])),
        ]))
        builder.addService(.primary(DBTest.uuid(0x1801), characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A05), properties: [.indicate]),
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2B29), properties: [.read, .write], value: .fixed([0])),
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2B2A), properties: [.read]),
        ]))
        builder.addService(.primary(DBTest.uuid(0x1808), includes: [GATTIncludeDefinition("battery")], characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A18), properties: [.read, .indicate, .extendedProperties]),
        ]))
        builder.addService(.secondary(DBTest.uuid(0x180F), id: "battery", characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.read], value: .fixed([100])),
        ]))
        return try builder.build()
    }

    /// Appendix B's message, the blocks M0 to M6 (most significant octet on the left, so in
    /// the order AES-CMAC takes them), and the Database Hash it gives.
    static let appendixBMessage = DBTest.hex("""
        010000280018020003280A0300002A04   # M0
        000328020500012A0600002801180700   # M1
        0328200800052A090002290A0003280A   # M2
        0B00292B0C000328020D002A2B0E0000   # M3
        2808180F000228140016000F18100003   # M4
        28A21100182A12000229130000290000   # M5
        140001280F1815000328021600192A     # M6 (15 octets)
        """)
    static let appendixBHash = DBTest.hex("F1CA2D48 ECF58BAC 8A8830BB B9FBA990")

    @Test("Appendix B: the builder lays the example out at the specification's handles")
    func appendixBLayout() throws {
        let db = try Self.appendixB()
        let types = db.attributes.map { "\(String($0.handle, radix: 16)) \($0.type)" }
        #expect(types == ["1 2800", "2 2803", "3 2A00", "4 2803", "5 2A01",
                          "6 2800", "7 2803", "8 2A05", "9 2902", "a 2803", "b 2B29", "c 2803", "d 2B2A",
                          "e 2800", "f 2802", "10 2803", "11 2A18", "12 2902", "13 2900",
                          "14 2801", "15 2803", "16 2A19"])
        // 0x000F «Include»: Included Service Attribute Handle 0x0014, End Group Handle 0x0016, 0x180F
        #expect(db.attribute(at: 0x000F)?.value.fixedValue == DBTest.hex("1400 1600 0f18"))
        // 0x0010 «Characteristic»: 0xA2 (Read, Indicate, Extended Properties), 0x0011, 0x2A18
        #expect(db.attribute(at: 0x0010)?.value.fixedValue == DBTest.hex("a2 1100 182a"))
        // 0x0013 «Characteristic Extended Properties»: 0x0000
        #expect(db.attribute(at: 0x0013)?.value.fixedValue == DBTest.hex("0000"))
    }

    @Test("Appendix B: the message is M0...M6, 111 octets")
    func appendixBMessageMatches() throws {
        let db = try Self.appendixB()
        #expect(Self.appendixBMessage.count == 111)
        #expect(db.databaseHashMessage == Self.appendixBMessage)
    }

    @Test("Appendix B: AES-CMAC of the message is F1CA2D48 ECF58BAC 8A8830BB B9FBA990")
    func appendixBHashValue() throws {
        #expect(GATTDatabaseHash.aesCMAC(Self.appendixBMessage) == Self.appendixBHash)
        let db = try Self.appendixB()
        // The characteristic value is sent least significant octet first.
        #expect(db.databaseHash == Self.appendixBHash.reversed())
        #expect(db.databaseHash == DBTest.hex("90a9fbb9bb30888aac8bf5ec482dcaf1"))
    }

    @Test("Appendix B from JSON gives the same attributes and hash")
    func appendixBJSON() throws {
        let json = try DBTest.load("core-v5.4-appendix-b.json")
        let built = try Self.appendixB()
        #expect(json.databaseHash == built.databaseHash)
        #expect(json.databaseHashMessage == Self.appendixBMessage)
        // Its Database Hash characteristic holds the hash, as a server would send it.
        #expect(json.characteristics(GATTProfileUUID.databaseHash).first?.value.fixedValue == json.databaseHash)
    }

    /// The demo capture (Fixtures/captures/bumble-heart-rate.btsnoop, frame 126) carries the
    /// Read Response of the Database Hash characteristic at 0x000D:
    /// 9faf15ee46ce63f8aa45d3d35059a01f, computed by Bumble 0.0.236 for the table in
    /// Fixtures/captures/README.md (sent least significant octet first).
    @Test("the demo peripheral's table hashes to the value in the capture")
    func bumbleDemo() throws {
        let db = try DBTest.load("heart-rate-demo.json")
        #expect(db.databaseHash == DBTest.hex("9faf15ee46ce63f8aa45d3d35059a01f"))
        #expect(db.attribute(at: 0x000D)?.value.fixedValue == db.databaseHash)
    }

    @Test("characteristic values and other descriptors do not count; structure does")
    func whatCounts() throws {
        func hash(value: [UInt8], properties: GATTCharacteristicProperties = [.read],
                  extra: [GATTDescriptorDefinition] = [], handle: UInt16? = nil) throws -> [UInt8] {
            try GATTDatabase(services: [.primary(DBTest.uuid(0x180F), handle: handle, characteristics: [
                GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: properties, value: .fixed(value), descriptors: extra),
            ])]).databaseHash
        }
        let base = try hash(value: [1])
        #expect(try hash(value: [2, 3]) == base)
        #expect(try hash(value: [1], extra: [.other(DBTest.uuid(0x2906), value: .fixed([0, 100]))]) == base)
        #expect(try hash(value: [1], properties: [.read, .write]) != base)
        #expect(try hash(value: [1], handle: 0x0010) != base)
        #expect(try hash(value: [1], extra: [.userDescription("level")]) != base)
        // A User Description counts by handle and type only: its text does not.
        #expect(try hash(value: [1], extra: [.userDescription("level")]) == hash(value: [1], extra: [.userDescription("other text")]))
        // A dynamic characteristic value does not count either.
        let dynamic = try GATTDatabase(services: [.primary(DBTest.uuid(0x180F), characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.read],
                                         value: .dynamic(GATTValueHandlers(read: { _, _ in [] }))),
        ])])
        #expect(dynamic.databaseHash == base)
    }

    /// AES-CMAC of no octets under the zero key, as `openssl mac -macopt cipher:AES-128-CBC
    /// -macopt hexkey:00000000000000000000000000000000 CMAC </dev/null` and Python's
    /// `cryptography` both compute it: 4387C14B46EF7E176DCEEFA862D72FF9.
    @Test("an empty database hashes the empty message")
    func empty() throws {
        let db = try GATTDatabase(services: [])
        #expect(db.databaseHashMessage.isEmpty)
        #expect(db.attributes.isEmpty)
        #expect(GATTDatabaseHash.aesCMAC([]) == DBTest.hex("4387c14b46ef7e176dceefa862d72ff9"))
        #expect(db.databaseHash == DBTest.hex("4387c14b46ef7e176dceefa862d72ff9").reversed())
    }
}
