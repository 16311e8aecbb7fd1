import Testing
import BLECore
import ATT
@testable import GATT

/// The ordered permission check (``GATTPermissionCheck``; Core v5.4, Vol 3, Part F, 3.4.4.3 and
/// 3.4.5.1; Part C, 10.3.1, Table 10.2) with the link's security from the bearer.
@Suite("GATT server: permissions", .timeLimit(.minutes(1)))
struct ServerPermissionTests {
    @Test("encryption required: Insufficient Authentication without a key, Insufficient Encryption with one")
    func encryption() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("0a 0900", "01 0a 0900 05")   // no LTK: Insufficient Authentication (Table 10.2)
        await h.connection.setBonded(true)
        await h.expect("0a 0900", "01 0a 0900 0f")   // an LTK, link unencrypted: Insufficient Encryption
        h.setSecurity(ATTSecurity(isEncrypted: true, encryptionKeySize: 7))
        await h.expect("0a 0900", "0b 01")
        await h.close()
    }

    @Test("a bonded peer from the start: Insufficient Encryption")
    func bondedOption() async throws {
        var h = try await ServerHarness.make(try ServerTest.database(), options: GATTConnectionOptions(isBonded: true))
        await h.expect("0a 0f00", "01 0a 0f00 0f")
        await h.close()
    }

    @Test("key size: Encryption Key Size Too Short (0x0c) below the minimum of 16")
    func keySize() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        h.setSecurity(ATTSecurity(isEncrypted: true, encryptionKeySize: 15))
        await h.expect("0a 0f00", "01 0a 0f00 0c")
        h.setSecurity(ATTSecurity(isEncrypted: true, encryptionKeySize: 16))
        await h.expect("0a 0f00", "0b 04")
        await h.close()
    }

    @Test("authentication: Insufficient Authentication on an unauthenticated encrypted link")
    func authentication() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        h.setSecurity(ATTSecurity(isEncrypted: true, encryptionKeySize: 16))
        await h.expect("0a 0b00", "01 0a 0b00 05")
        h.setSecurity(ATTSecurity(isEncrypted: true, isAuthenticated: true, encryptionKeySize: 16))
        await h.expect("0a 0b00", "0b 02")
        await h.close()
    }

    @Test("authorization: Insufficient Authorization (0x08) until the application authorises the peer")
    func authorization() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("0a 0d00", "01 0a 0d00 08")
        h.setSecurity(ATTSecurity(isAuthorized: true))
        await h.expect("0a 0d00", "0b 03")
        await h.close()
    }

    @Test("the order: permitted, encryption, key size, authentication, authorization")
    func order() async throws {
        let everything = GATTAccess(encryption: true, authentication: true, authorization: true, minimumKeySize: 16)
        let database = try GATTDatabase(services: [.primary(BluetoothUUID(0xAAA0), characteristics: [
            GATTCharacteristicDefinition(uuid: BluetoothUUID(0xAAA1), properties: [.read, .write],
                                         permissions: GATTPermissions(read: everything, write: everything),
                                         value: .fixed([0x2A])),   // value 0x0003
            GATTCharacteristicDefinition(uuid: BluetoothUUID(0xAAA2), properties: [],
                                         permissions: GATTPermissions.none, value: .fixed([0x2B])),   // value 0x0005
        ])])
        var h = try await ServerHarness.make(database)
        let steps: [(ATTSecurity, bonded: Bool, code: String)] = [
            (.none, false, "05"),                                                                      // no key
            (.none, true, "0f"),                                                                       // key, not encrypted
            (ATTSecurity(isEncrypted: true, encryptionKeySize: 7), true, "0c"),                        // key too short
            (ATTSecurity(isEncrypted: true, encryptionKeySize: 16), true, "05"),                       // not authenticated
            (ATTSecurity(isEncrypted: true, isAuthenticated: true, encryptionKeySize: 16), true, "08"), // not authorised
        ]
        for step in steps {
            h.setSecurity(step.0)
            await h.connection.setBonded(step.bonded)
            await h.expect("0a 0300", "01 0a 0300 " + step.code)
            await h.expect("12 0300 01", "01 12 0300 " + step.code)
        }
        h.setSecurity(ATTSecurity(isEncrypted: true, isAuthenticated: true, isAuthorized: true, encryptionKeySize: 16))
        await h.expect("0a 0300", "0b 2a")
        await h.expect("12 0300 01", "13")
        await h.expect("0a 0300", "0b 01")
        // Not permitted comes before any security: even on the best link.
        await h.expect("0a 0500", "01 0a 0500 02")
        await h.expect("12 0500 01", "01 12 0500 03")
        await h.close()
    }

    @Test("the check as a table: each requirement alone against each link")
    func table() {
        let links: [ATTSecurity] = [
            .none,
            ATTSecurity(isEncrypted: true, encryptionKeySize: 7),
            ATTSecurity(isEncrypted: true, isAuthenticated: true, encryptionKeySize: 16),
            ATTSecurity(isAuthorized: true),
        ]
        func codes(_ requirement: GATTAccess, hasKey: Bool) -> [UInt8?] {
            links.map { GATTPermissionCheck.error(requirement, security: $0, hasKey: hasKey)?.rawValue }
        }
        #expect(codes(.open, hasKey: false) == [nil, nil, nil, nil])
        #expect(codes(.encrypted, hasKey: false) == [0x05, nil, nil, 0x05])
        #expect(codes(.encrypted, hasKey: true) == [0x0F, nil, nil, 0x0F])
        #expect(codes(.authenticated, hasKey: true) == [0x0F, 0x05, nil, 0x0F])
        #expect(codes(GATTAccess(authorization: true), hasKey: false) == [0x08, 0x08, 0x08, nil])
        #expect(codes(GATTAccess(encryption: true, minimumKeySize: 16), hasKey: true) == [0x0F, 0x0C, nil, 0x0F])
        // A signed write with an authenticated CSRK satisfies authentication without encryption (Part C, 10.4.2).
        #expect(GATTPermissionCheck.error(GATTAccess(authentication: true), security: .none, hasKey: true,
                                          signedWithAuthenticatedKey: true) == nil)
    }
}
