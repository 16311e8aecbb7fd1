import Testing
import BLECore
import ATT
@testable import GATT

/// Replacing the database: Service Changed, Robust Caching's change-aware state and Database Out
/// Of Sync (Core v5.4, Vol 3, Part G, 2.5.2, 2.5.2.1, 7.1; Part F, 3.4.6.3).
@Suite("GATT server: Service Changed and Robust Caching", .timeLimit(.minutes(1)))
struct ServerServiceChangedTests {
    /// ``ServerTest/database(log:)`` with AAA1 also writable: the same handles, another
    /// declaration value, so the change is the AAA0 service (0x0001-0x0019).
    static func changedFirstService() throws -> GATTDatabase {
        try database { services in services[0].characteristics[0].properties = [.read, .write] }
    }

    /// ``ServerTest/database(log:)`` with the vendor characteristic also writable: the change is
    /// the vendor service (0x001a-0x001c).
    static func changedVendorService() throws -> GATTDatabase {
        try database { services in services[1].characteristics[0].properties = [.read, .write] }
    }

    /// ``ServerTest/database(log:)`` with one more characteristic in the first service: every
    /// handle after 0x0019 moves by 2, over the first handles of the GAP service the server added.
    static func grown() throws -> GATTDatabase {
        try database { services in
            services[0].characteristics.append(GATTCharacteristicDefinition(uuid: BluetoothUUID(0xAAAC), properties: [.read]))
        }
    }

    static func database(_ change: (inout [GATTServiceDefinition]) -> Void) throws -> GATTDatabase {
        let original = try ServerTest.database()
        // Rebuild the definitions from the tree: the test database has only fixed values but one.
        var services = original.services.map { service in
            GATTServiceDefinition(uuid: service.uuid, characteristics: service.characteristics.map { c in
                GATTCharacteristicDefinition(uuid: c.uuid, properties: c.properties, permissions: c.permissions, value: c.value)
            })
        }
        change(&services)
        return try GATTDatabase(services: services)
    }

    @Test("Service Changed is indicated with the changed range widened to the GATT service; confirming makes the client aware")
    func indicated() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 2500 0200", "13")   // Service Changed CCCD: Indication
        await h.expect("12 1200 0100", "13")   // AAA8 CCCD (inside the range: dropped)
        let server = h.server
        let replacing = Task { try await server.replaceDatabase(try Self.changedFirstService()) }
        // Handle Value Indication 0x0024: Start 0x0001, End 0x002b (the GATT service's end)
        #expect(await h.next() == "1d2400" + "0100" + "2b00")
        #expect(await h.connection.isChangeAware == false)
        try h.command("1e")
        let report = try await replacing.value
        #expect(report.delivered == [h.connection.peer])
        #expect(await h.connection.isChangeAware)
        await h.expect("0a 2500", "0b 0200")   // Service Changed's own configuration is kept
        await h.expect("0a 1200", "0b 0000")
        await h.expect("0a 0200", "0b 0a 0300 a1aa")   // the new declaration: read, write
        let hash = await server.database.databaseHash
        await h.expect("08 0100 ffff 2a2b", "09 12 2900" + Hex.encode(hash))
        await h.close()
    }

    @Test("replaceDatabase's whenServed runs once the new database is served and the CCCDs followed it, before Service Changed is indicated")
    func whenServedBeforeIndication() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 2500 0200", "13")   // Service Changed CCCD: Indication
        await h.expect("12 1200 0100", "13")   // inside the changed range: dropped
        let server = h.server
        let connection = h.connection
        let seen = Task {
            let (stream, input) = AsyncStream.makeStream(of: (GATTClientCharacteristicConfiguration, GATTClientCharacteristicConfiguration).self)
            let replacing = Task {
                try await server.replaceDatabase(try Self.changedFirstService()) {
                    input.yield((await connection.configuration(for: 0x0012), await connection.configuration(for: 0x0025)))
                    input.finish()
                }
            }
            var iterator = stream.makeAsyncIterator()
            return (await iterator.next(), replacing)
        }
        let (configurations, replacing) = await seen.value
        #expect(configurations?.0 == [] && configurations?.1 == .indication, "the dropped CCCD is gone, Service Changed's kept")
        #expect(await h.next() == "1d2400" + "0100" + "2b00")   // indicated after
        try h.command("1e")
        #expect(try await replacing.value.delivered == [h.connection.peer])
        await h.close()
    }

    @Test("a database with the same structure changes no handle: nothing is indicated")
    func sameStructure() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 2500 0200", "13")
        await h.expect("12 0500 01", "13")
        let report = try await h.server.replaceDatabase(try ServerTest.database())
        #expect(report == GATTDeliveryReport())
        #expect(await h.connection.isChangeAware)
        // the new database's values apply
        await h.expect("0a 0500", "0b" + Hex.encode(Array(ServerTest.longValue.prefix(22))))
        await h.close()
    }

    @Test("Robust Caching: Database Out Of Sync (0x12) once, then the next request is served")
    func outOfSync() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 2700 01", "13")   // Robust Caching
        let report = try await h.server.replaceDatabase(try Self.changedVendorService())
        #expect(report.delivered.isEmpty)
        #expect(await h.connection.isChangeAware == false)
        // Discovery is exempt (Part F, 3.4.3.1, 3.4.3.3, 3.4.4.9; Part G, 2.5.2.1).
        await h.expect("04 0100 0200", "05 01 0100 0028 0200 0328")
        await h.expect("06 0100 ffff 0028 a0aa", "07 0100 1900")
        await h.expect("10 0100 ffff 0028", "11 06 0100 1900 a0aa")
        await h.expect("08 0100 ffff 0328", "09 07 0200 02 0300 a1aa 0400 0a 0500 a2aa 0600 08 0700 a3aa")
        // A request at a handle: Error Response, Read Request, 0x0003, Database Out Of Sync.
        await h.expect("0a 0300", "01 0a 0300 12")
        #expect(await h.connection.isChangeAware == false)
        // The next request makes the client change-aware and is served.
        await h.expect("0a 0300", "0b 68656c6c6f")
        #expect(await h.connection.isChangeAware)
        await h.close()
    }

    @Test("Robust Caching: which requests get Database Out Of Sync, naming which handle")
    func gatedRequests() async throws {
        let gated = [("0a 0500", "01 0a 0500 12"), ("0c 0500 0000", "01 0c 0500 12"), ("0e 0300 1100", "01 0e 0300 12"),
                     ("20 1100 0300", "01 20 1100 12"), ("12 0500 01", "01 12 0500 12"), ("16 0500 0000 01", "01 16 0500 12"),
                     ("08 0100 0500 a2aa", "01 08 0100 12")]   // Read By Type of a value over a partial range
        for (request, answer) in gated {
            var h = try await ServerHarness.make(try ServerTest.database())
            await h.expect("12 2700 01", "13")
            try await h.server.replaceDatabase(try Self.changedVendorService())
            await h.expect(request, answer)
            await h.close()
        }
    }

    @Test("reading the Database Hash, then another request, makes the client change-aware")
    func hashRead() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 2700 01", "13")
        try await h.server.replaceDatabase(try Self.changedVendorService())
        let hash = await h.server.database.databaseHash
        await h.expect("08 0100 ffff 2a2b", "09 12 2900" + Hex.encode(hash))   // exempt: 0x0001-0xffff
        #expect(await h.connection.isChangeAware == false)
        await h.expect("0a 0300", "0b 68656c6c6f")
        #expect(await h.connection.isChangeAware)
        await h.close()
    }

    @Test("a change-unaware Robust Caching client: commands ignored, notifications withheld until aware")
    func withheld() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 2700 01", "13")
        await h.expect("12 1200 0100", "13")   // AAA8: outside the vendor service, kept
        try await h.server.replaceDatabase(try Self.changedVendorService())
        #expect(try await h.server.notify([0x05], for: 0x0011).withheld == [h.connection.peer])
        try h.command("52 0500 77")            // ignored
        await h.expect("0a 0500", "01 0a 0500 12")
        await h.expect("0a 0500", "0b" + Hex.encode(Array(ServerTest.longValue.prefix(22))))   // the command was not applied
        #expect(try await h.server.notify([0x06], for: 0x0011).delivered == [h.connection.peer])
        #expect(await h.next() == "1b1100" + "06")
        try h.command("52 0500 77")
        await h.expect("0a 0500", "0b 77")
        await h.close()
    }

    @Test("a client without Robust Caching never gets Database Out Of Sync")
    func withoutRobustCaching() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        try await h.server.replaceDatabase(try Self.changedVendorService())
        #expect(await h.connection.isChangeAware == false)
        await h.expect("0a 0300", "0b 68656c6c6f")
        try h.command("52 0500 77")
        await h.expect("0a 0500", "0b 77")
        await h.close()
    }

    @Test("Execute Write of parts queued before the change: Database Out Of Sync naming the first part")
    func staleQueue() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("16 0500 0000 01", "17 0500 0000 01")
        try await h.server.replaceDatabase(try Self.changedVendorService())
        await h.expect("16 0500 0100 02", "17 0500 0100 02")
        await h.expect("18 01", "01 18 0500 12")
        #expect(await h.connection.preparedWrites.entries == 0)
        await h.expect("0a 0500", "0b" + Hex.encode(Array(ServerTest.longValue.prefix(22))))
        await h.close()
    }

    @Test("when the database grows into the GAP service only, GAP moves and the GATT service, Service Changed with it, stays")
    func gapMoved() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 2500 0200", "13")
        let server = h.server
        // GAP was at 0x001D-0x0021, GATT at 0x0022-0x002B; two more handles take 0x001D-0x001E.
        let replacing = Task { try await server.replaceDatabase(try Self.grown()) }
        let indication = await h.next()
        #expect(indication?.hasPrefix("1d2400") == true, "Service Changed still at 0x0024: \(indication ?? "nothing")")
        try h.command("1e")
        #expect(try await replacing.value.delivered == [h.connection.peer])
        #expect(await server.serviceChangedHandle == 0x0024)
        #expect(await server.database.services(GATTProfileUUID.genericAccess).map(\.handle) == [0x002C])
        await h.expect("0a 2500", "0b 0200")
        await h.close()
    }

    @Test("when the database grows into the GATT service, it moves; Service Changed follows with 0x0001-0xffff")
    func moved() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 2500 0200", "13")
        let server = h.server
        // Twelve more handles: the database ends at 0x0028, over both services' old handles.
        let grown = try Self.database { services in
            for uuid in UInt16(0xAAB0)...0xAAB5 {
                services[0].characteristics.append(GATTCharacteristicDefinition(uuid: BluetoothUUID(uuid), properties: [.read]))
            }
        }
        let replacing = Task { try await server.replaceDatabase(grown) }
        // GAP now at 0x0029-0x002D, GATT at 0x002E-0x0037: Service Changed's value is 0x0030, its CCCD 0x0031.
        #expect(await h.next() == "1d3000" + "0100" + "ffff")
        try h.command("1e")
        #expect(try await replacing.value.delivered == [h.connection.peer])
        #expect(await server.serviceChangedHandle == 0x0030)
        await h.expect("0a 3100", "0b 0200")
        await h.close()
    }

    @Test("a fixed place for the server's services keeps Service Changed still")
    func fixedPlace() async throws {
        let configuration = GATTServerConfiguration(serverServicesHandle: 0xFFF1)
        var h = try await ServerHarness.make(try ServerTest.database(), configuration: configuration)
        // GAP 0xfff1-0xfff5; GATT 0xfff6-0xffff: Service Changed's value 0xfff8, its CCCD 0xfff9
        #expect(await h.server.serviceChangedHandle == 0xFFF8)
        await h.expect("10 fff0 ffff 0028", "11 06 f1ff f5ff 0018 f6ff ffff 0118")
        await h.expect("12 f9ff 0200", "13")
        let server = h.server
        let replacing = Task { try await server.replaceDatabase(try Self.grown()) }
        // Start 0x0001 (the first service), End 0xffff (the GATT service's end)
        #expect(await h.next() == "1df8ff" + "0100" + "ffff")
        try h.command("1e")
        _ = try await replacing.value
        #expect(await server.serviceChangedHandle == 0xFFF8)
        #expect(throws: GATTServerError.serverServicesHandleInUse(handle: 0x0010, needed: 15)) {
            _ = try GATTServer(database: try ServerTest.database(), configuration: GATTServerConfiguration(serverServicesHandle: 0x0010))
        }
        await h.close()
    }

    @Test("a second change before the client confirms the first: only the last confirmation makes it aware")
    func changeAgain() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 2500 0200", "13")
        let server = h.server
        let first = Task { try await server.replaceDatabase(try Self.changedVendorService()) }
        #expect(await h.next() == "1d2400" + "1a00" + "2b00")
        let second = Task { try await server.replaceDatabase(try Self.changedFirstService()) }
        while await server.generation < 2 { await Task.yield() }
        try h.command("1e")    // confirms the first
        _ = try await first.value
        #expect(await h.connection.isChangeAware == false)
        #expect(await h.next() == "1d2400" + "0100" + "2b00")
        try h.command("1e")
        _ = try await second.value
        #expect(await h.connection.isChangeAware)
        await h.close()
    }

    @Test("a GATT service of the database's own is used, never duplicated, its hash computed")
    func ownGATTService() async throws {
        let database = try ServerTest.load("heart-rate-demo.json")
        let server = try GATTServer(database: database)
        let served = await server.database
        #expect(served.attributes.count == database.attributes.count)
        #expect(await server.serviceChangedHandle == 0x0008)
        // The hash the capture shows at 0x000d, least significant octet first, is the one served.
        #expect(served.attribute(at: 0x000D)?.value.fixedValue == ServerTest.hex("9faf15ee46ce63f8aa45d3d35059a01f"))
        var h = await ServerHarness.make(server)
        await h.expect("0a 0d00", "0b 9faf15ee46ce63f8aa45d3d35059a01f")
        await h.expect("12 0b00 01", "13")     // its Client Supported Features: per connection
        await h.expect("12 0b00 00", "01 12 0b00 13")
        await h.close()
    }
}
