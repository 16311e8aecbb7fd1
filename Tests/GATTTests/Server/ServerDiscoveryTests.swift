import Testing
import BLECore
import ATT
@testable import GATT

/// Discovery requests against ``ServerTest/database(log:)`` at the default ATT_MTU of 23
/// (Core v5.4, Vol 3, Part F, 3.4.3, 3.4.4.1, 3.4.4.9; Part G, 4.4-4.7).
@Suite("GATT server: discovery", .timeLimit(.minutes(1)))
struct ServerDiscoveryTests {
    @Test("the database the server serves: the application's, then GAP at 0x001d and GATT at 0x0022")
    func layout() async throws {
        let server = try GATTServer(database: try ServerTest.database())
        let database = await server.database
        #expect(database.services.map(\.handleRange) == [0x0001...0x0019, 0x001A...0x001C, 0x001D...0x0021, 0x0022...0x002B])
        #expect(database.services.map(\.uuid) == [BluetoothUUID(0xAAA0), BluetoothUUID("A5F20001-6C1B-4B8E-9E3A-4C696E757842"),
                                                  GATTProfileUUID.genericAccess, GATTProfileUUID.genericAttribute])
        let gatt = try #require(database.services.last)
        #expect(gatt.characteristics.map(\.uuid) == [GATTProfileUUID.serviceChanged, GATTProfileUUID.clientSupportedFeatures,
                                                     GATTProfileUUID.databaseHash, GATTProfileUUID.serverSupportedFeatures])
        #expect(gatt.characteristics.map(\.valueHandle) == [0x0024, 0x0027, 0x0029, 0x002B])
        #expect(gatt.characteristics.first?.clientCharacteristicConfigurationHandle == 0x0025)
        #expect(await server.serviceChangedHandle == 0x0024)
        // The Database Hash value served is the hash of the whole database, the server's services included.
        #expect(database.attribute(at: 0x0029)?.value.fixedValue == database.databaseHash)
        #expect(database.databaseHash == (try GATTDatabaseHash.characteristicValue(database.attributes)))
        #expect(database.databaseHash != (try ServerTest.database()).databaseHash)
    }

    @Test("Read By Group Type «Primary Service»: one value length per response, then Attribute Not Found")
    func primaryServices() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        // Read By Group Type Request 0x0001..0xffff, type 2800 (Primary Service)
        // Read By Group Type Response, Length 6: 0x0001..0x0019 AAA0; the 128-bit service ends it
        await h.expect("10 0100 ffff 0028", "11 06 0100 1900 a0aa")
        // from 0x001a: Length 20: 0x001a..0x001c A5F20001-6C1B-4B8E-9E3A-4C696E757842
        await h.expect("10 1a00 ffff 0028", "11 14 1a00 1c00 427875 6e694c 3a9e 8e4b 1b6c 0100 f2a5")
        // from 0x001d: Generic Access 0x001d..0x0021 and Generic Attribute 0x0022..0x002b
        await h.expect("10 1d00 ffff 0028", "11 06 1d00 2100 0018 2200 2b00 0118")
        // from 0x002c: Error Response, Read By Group Type, 0x002c, Attribute Not Found (0x0a)
        await h.expect("10 2c00 ffff 0028", "01 10 2c00 0a")
        await h.close()
    }

    @Test("Read By Group Type: «Secondary Service» none found; «Characteristic» is Unsupported Group Type (0x10)")
    func groupTypes() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("10 0100 ffff 0128", "01 10 0100 0a")   // no secondary service
        await h.expect("10 0100 ffff 0328", "01 10 0100 10")   // Unsupported Group Type, Starting Handle
        await h.expect("10 0100 ffff 0a2a", "01 10 0100 10")
        await h.close()
    }

    @Test("Find By Type Value: a primary service by UUID, with its End Group Handle")
    func findByTypeValue() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        // Find By Type Value Request 0x0001..0xffff type 2800 value a0aa -> 0x0001..0x0019
        await h.expect("06 0100 ffff 0028 a0aa", "07 0100 1900")
        // Generic Attribute (1801), added by the server
        await h.expect("06 0100 ffff 0028 0118", "07 2200 2b00")
        // the 128-bit service, by its 16-octet value
        await h.expect("06 0100 ffff 0028 427875 6e694c 3a9e 8e4b 1b6c 0100 f2a5", "07 1a00 1c00")
        // Heart Rate (180d): none; Error Response naming the Starting Handle
        await h.expect("06 0100 ffff 0028 0d18", "01 06 0100 0a")
        // a characteristic declaration is a group too (Part G, 2.5.3): its definition's end
        await h.expect("06 0100 ffff 0328 02 0300 a1aa", "07 0200 0300")
        // a non-grouping type: Group End Handle = Found Attribute Handle
        await h.expect("06 0100 ffff a1aa 68656c6c6f", "07 0300 0300")
        // a value the client may not read (encryption needed) is skipped, not an error
        await h.expect("06 0100 ffff a4aa 01", "01 06 0100 0a")
        await h.close()
    }

    @Test("Read By Type «Characteristic»: as many 7-octet pairs as fit ATT_MTU-2")
    func characteristics() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        // Read By Type Response, Length 7 (handle + 5-octet declaration), 3 pairs (21 octets):
        //   0x0002: properties 02 (read), value 0x0003, uuid AAA1
        //   0x0004: properties 0a (read, write), value 0x0005, uuid AAA2
        //   0x0006: properties 08 (write), value 0x0007, uuid AAA3
        await h.expect("08 0100 ffff 0328", "09 07 0200 02 0300 a1aa 0400 0a 0500 a2aa 0600 08 0700 a3aa")
        // from 0x0018: the dynamic AAAB; the 128-bit declaration at 0x001b has another length
        // from 0x001a: 0x001b declares a 128-bit characteristic: Length 21, one pair
        await h.expect("08 1800 ffff 0328", "09 07 1800 0a 1900 abaa")
        await h.expect("08 1a00 ffff 0328", "09 15 1b00 02 1c00 427875 6e694c 3a9e 8e4b 1b6c 0200 f2a5")
        await h.close()
    }

    @Test("Read By Type of the Database Hash over 0x0001-0xffff")
    func databaseHash() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        let hash = await h.server.database.databaseHash
        // Read By Type Response, Length 18: handle 0x0029 and the 16-octet hash
        await h.expect("08 0100 ffff 2a2b", "09 12 2900" + Hex.encode(hash))
        await h.close()
    }

    @Test("Read By Type stops before the first value of another length, and at an unreadable one")
    func readByTypeLengths() async throws {
        let uuid = BluetoothUUID(0xBEEF)
        let database = try GATTDatabase(services: [.primary(BluetoothUUID(0xAAA0), characteristics: [
            GATTCharacteristicDefinition(uuid: uuid, properties: [.read], value: .fixed([0x01, 0x02])),        // 0x0003
            GATTCharacteristicDefinition(uuid: uuid, properties: [.read], value: .fixed([0x03, 0x04])),        // 0x0005
            GATTCharacteristicDefinition(uuid: uuid, properties: [.read], value: .fixed([0x05])),              // 0x0007
            GATTCharacteristicDefinition(uuid: uuid, properties: [.read], permissions: GATTPermissions(read: .encrypted),
                                         value: .fixed([0x06])),                                               // 0x0009
            GATTCharacteristicDefinition(uuid: uuid, properties: [.write]),                                    // 0x000b
        ])])
        var h = try await ServerHarness.make(database)
        await h.expect("08 0100 ffff efbe", "09 04 0300 0102 0500 0304")   // 0x0007 has 1 octet: stop
        await h.expect("08 0600 ffff efbe", "09 03 0700 05")              // 0x0009 cannot be read: stop
        await h.expect("08 0800 ffff efbe", "01 08 0900 05")              // first is protected: its error
        await h.expect("08 0a00 ffff efbe", "01 08 0b00 02")              // Read Not Permitted, its handle
        await h.expect("08 0c00 ffff efbe", "01 08 0c00 0a")              // none left
        await h.close()
    }

    @Test("Read By Type cuts the values of a long attribute to ATT_MTU-4, all pairs one length")
    func readByTypeLong() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        // 0xAAA2 holds 300 octets: one pair, value cut to 19 octets (23 - 4)
        let first19 = Hex.encode(Array(ServerTest.longValue.prefix(19)))
        await h.expect("08 0100 ffff a2aa", "09 15 0500" + first19)
        await h.close()
    }

    @Test("Find Information: pairs of one UUID width, ending before the other width")
    func findInformation() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        // 0x0010..0x0012: declaration, AAA8 value, CCCD: Format 0x01
        await h.expect("04 1000 1200", "05 01 1000 0328 1100 a8aa 1200 0229")
        // 0x001b..0x001d: the declaration (16-bit) ends the response before the 128-bit value
        await h.expect("04 1b00 1d00", "05 01 1b00 0328")
        // 0x001c: Format 0x02, one handle-UUID pair of 18 octets
        await h.expect("04 1c00 1c00", "05 02 1c00 427875 6e694c 3a9e 8e4b 1b6c 0200 f2a5")
        // 5 pairs of 4 octets fill ATT_MTU-2 = 21: 0x0001..0x0005
        await h.expect("04 0100 ffff", "05 01 0100 0028 0200 0328 0300 a1aa 0400 0328 0500 a2aa")
        await h.close()
    }

    @Test("Invalid Handle (0x01) for Starting Handle 0x0000 or a reversed range, naming the Starting Handle")
    func rangeErrors() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        for opcode in ["04", "08", "10"] {
            let type = opcode == "04" ? "" : " 0028"
            await h.expect(opcode + " 0000 ffff" + type, "01 " + opcode + " 0000 01")
            await h.expect(opcode + " 0500 0400" + type, "01 " + opcode + " 0500 01")
        }
        await h.expect("06 0000 ffff 0028 a0aa", "01 06 0000 01")
        await h.expect("06 0300 0200 0028 a0aa", "01 06 0300 01")
        // a valid range past the last handle: Attribute Not Found
        await h.expect("04 2c00 ffff", "01 04 2c00 0a")
        await h.expect("08 2c00 ffff 0328", "01 08 2c00 0a")
        await h.close()
    }

    @Test("reference.json walked as a client would: every primary service, every attribute, at two MTUs")
    func walkReference() async throws {
        for mtu: UInt16 in [23, 517] {
            let server = try GATTServer(database: try ServerTest.load("reference.json"))
            let database = await server.database
            var h = await ServerHarness.make(server)
            if mtu != 23 { await h.exchangeMTU(mtu) }
            // Read By Group Type «Primary Service» from 0x0001 until Attribute Not Found.
            var services: [ClosedRange<UInt16>] = []
            var start: UInt16 = 0x0001
            walk: while true {
                let answer = try #require(await h.send("10" + Hex.encode([UInt8(start & 0xFF), UInt8(start >> 8)]) + "ffff 0028"))
                let pdu = try ATTPDU.decode(try #require(Hex.decode(answer)))
                switch pdu {
                case .readByGroupTypeResponse(let response):
                    #expect(pdu.encoded.count <= Int(mtu))
                    services += response.attributeData.map { $0.handle...$0.endGroupHandle }
                    guard let last = services.last, last.upperBound < 0xFFFF else { break walk }
                    start = last.upperBound + 1
                default:
                    #expect(answer == "0110" + Hex.encode([UInt8(start & 0xFF), UInt8(start >> 8)]) + "0a")
                    break walk
                }
            }
            #expect(services == database.services.filter(\.isPrimary).map(\.handleRange))
            #expect(services.count == 6)   // the file's 4 primary services (2 more are secondary), then GAP and GATT
            // Find Information from 0x0001 until Attribute Not Found: every handle and type.
            var found: [ATTFindInformationResponse.Information] = []
            start = 0x0001
            find: while true {
                let answer = try #require(await h.send("04" + Hex.encode([UInt8(start & 0xFF), UInt8(start >> 8)]) + "ffff"))
                guard case .findInformationResponse(let response) = try ATTPDU.decode(try #require(Hex.decode(answer))),
                      let last = response.information.last else { break find }
                found += response.information
                guard last.handle < 0xFFFF else { break find }
                start = last.handle + 1
            }
            #expect(found.map(\.handle) == database.attributes.map(\.handle))
            #expect(found.map(\.type) == database.attributes.map(\.type))
            await h.close()
        }
    }
}
