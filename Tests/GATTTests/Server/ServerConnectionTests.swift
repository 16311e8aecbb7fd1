import Testing
import Foundation
import BLECore
import ATT
@testable import GATT

/// Connections: attaching an existing engine, many concurrent clients, a bonded client's record
/// across connections (Core v5.4, Vol 3, Part G, 2.5.2, 2.5.2.1, 3.3.3.3, 7.2).
@Suite("GATT server: connections and bonded clients", .timeLimit(.minutes(1)))
struct ServerConnectionTests {
    @Test("attach: an engine made elsewhere is served from then on; detach stops serving it")
    func attach() async throws {
        let server = try GATTServer(database: try ServerTest.database())
        let (client, serverEnd) = InMemoryATTBearer.pair(mtu: 23)
        let engine = ATTEngine(bearer: serverEnd)
        let connection = await server.attach(engine)
        var replies = client.received.makeAsyncIterator()
        try client.sendNow(ServerTest.hex("0a 0300"))
        #expect(await replies.next().map { Hex.encode($0) } == "0b68656c6c6f")
        await connection.detach()
        #expect(await connection.isAttached == false)
        try client.sendNow(ServerTest.hex("0a 0300"))
        #expect(await replies.next().map { Hex.encode($0) } == "010a000006")   // Request Not Supported
        await engine.close()
    }

    /// Found by the GATT server fuzz harness (docs/fuzzing.md): LeakSanitizer saw every server
    /// whose client had closed kept alive by the cycle server -> connection holder -> server.
    @Test("a server let go after its last connection closed is freed, with its connection state")
    func releasedAfterItsConnectionsClose() async throws {
        weak var released: GATTServer?
        weak var releasedEngine: ATTEngine?
        do {
            let server = try GATTServer(database: try ServerTest.database())
            released = server
            let (client, serverEnd) = InMemoryATTBearer.pair(mtu: 23)
            let connection = await server.connect(serverEnd)
            releasedEngine = connection.engine
            var replies = client.received.makeAsyncIterator()
            try client.sendNow(ServerTest.hex("0a 0300"))
            #expect(await replies.next().map { Hex.encode($0) } == "0b68656c6c6f")
            client.closeNow()
            await connection.engine.waitUntilClosed()
        }
        // The state is dropped by a task that waits for the engine's end.
        let deadline = ContinuousClock.now + .seconds(10)
        while released != nil || releasedEngine != nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(released == nil, "the server outlived its owner")
        #expect(releasedEngine == nil, "the closed connection's engine outlived the server")
    }

    @Test("Request Not Supported (0x06) for an undefined request opcode, handle 0x0000; undefined commands ignored")
    func requestNotSupported() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        try h.command("7f 0300")                  // an undefined command (Command Flag set): ignored
        await h.expect("3f 0300", "01 3f 0000 06") // an undefined request: Request Not Supported
        await h.expect("22 0300", "01 22 0000 06") // 0x22 lies between defined opcodes
        await h.expect("0a 0300", "0b 68656c6c6f")
        await h.close()
    }

    @Test("twenty clients at once, each with its own CCCDs, queue and MTU")
    func concurrentClients() async throws {
        let server = try GATTServer(database: try ServerTest.database())
        // Each client runs in its own task; the connections come back with their index.
        let connections = await withTaskGroup(of: (Int, GATTServerConnection).self) { group in
            for i in 0..<20 {
                group.addTask {
                    var h = await ServerHarness.make(server)
                    let mtu = UInt16(23 + i * 10)
                    await h.exchangeMTU(mtu)
                    if i % 2 == 0 { await h.expect("12 1200 0100", "13") }
                    for j in 0..<20 {
                        let part = Hex.encode([UInt8(i), UInt8(j)])
                        let offset = Hex.encode([UInt8(j * 2), 0])
                        await h.expect("16 0500" + offset + part, "17 0500" + offset + part)
                    }
                    #expect(await h.connection.preparedWrites == (20, 40))
                    #expect(h.connection.mtu == Int(mtu))
                    await h.expect("18 00", "19")
                    return (i, h.connection)
                }
            }
            var connections: [Int: GATTServerConnection] = [:]
            for await (i, connection) in group { connections[i] = connection }
            return connections
        }
        #expect(connections.count == 20)
        for (i, connection) in connections {
            #expect(await connection.configuration(for: 0x0011) == (i % 2 == 0 ? .notification : []))
        }
        let report = try await server.notify([0x01], for: 0x0011)
        #expect(Set(report.delivered) == Set(connections.filter { $0.key % 2 == 0 }.map { $0.value.peer }))
        for connection in connections.values { await connection.engine.close() }
        #expect(await server.connections.isEmpty)
    }

    @Test("a bonded client's record: restored on reconnection when the database is the same")
    func recordRestored() async throws {
        var first = try await ServerHarness.make(try ServerTest.database(), options: GATTConnectionOptions(isBonded: true))
        await first.expect("12 1200 0100", "13")
        await first.expect("12 2500 0200", "13")
        await first.expect("12 2700 01", "13")
        let record = try #require(await first.connection.record)
        #expect(record.clientConfigurations == [0x0012: 0x0001, 0x0025: 0x0002])
        #expect(record.clientSupportedFeatures == [0x01])
        #expect(record.isChangeAware)
        #expect(record.databaseHash == (await first.server.database.databaseHash))
        await first.close()

        var second = await ServerHarness.make(first.server, options: GATTConnectionOptions(isBonded: true, record: record))
        await second.expect("0a 1200", "0b 0100")
        await second.expect("0a 2700", "0b 01")
        await second.expect("12 2700 00", "01 12 2700 13")   // still may not clear it
        #expect(await second.connection.isChangeAware)
        await second.close()
    }

    @Test("a record can still be read after the link dropped by itself or was detached: the state as it was then")
    func recordAfterDisconnection() async throws {
        let server = try GATTServer(database: try ServerTest.database())
        var events = server.events.makeAsyncIterator()
        var dropped = await ServerHarness.make(server, options: GATTConnectionOptions(isBonded: true))
        await dropped.expect("12 1200 0100", "13")
        await dropped.expect("12 2700 01", "13")
        await dropped.close()   // the bearer closes under the server, which drops the state
        while let event = await events.next(), event != .disconnected(dropped.connection.peer) {}
        #expect(await dropped.connection.isAttached == false)
        let record = try #require(await dropped.connection.record)
        #expect(record.clientConfigurations == [0x0012: 0x0001])
        #expect(record.clientSupportedFeatures == [0x01])

        var detached = await ServerHarness.make(server, options: GATTConnectionOptions(isBonded: true, record: record))
        await detached.expect("12 2500 0200", "13")
        await server.detach(detached.connection)
        #expect(await detached.connection.record?.clientConfigurations == [0x0012: 0x0001, 0x0025: 0x0002])
        await detached.close()
    }

    @Test("a bonded client back after the database changed: change-unaware, told with Service Changed 0x0001-0xffff")
    func recordAfterChange() async throws {
        let server = try GATTServer(database: try ServerTest.database())
        var first = await ServerHarness.make(server, options: GATTConnectionOptions(isBonded: true))
        await first.expect("12 1200 0100", "13")
        await first.expect("12 2500 0200", "13")
        await first.expect("12 2700 01", "13")
        let record = try #require(await first.connection.record)
        await first.close()
        try await server.replaceDatabase(try ServerServiceChangedTests.changedVendorService())

        var second = await ServerHarness.make(server, options: GATTConnectionOptions(isBonded: true, record: record))
        #expect(await second.next() == "1d2400" + "0100" + "ffff")
        #expect(await second.connection.isChangeAware == false)
        try second.command("1e")
        // The confirmation makes the client change-aware once the server has seen it; a request
        // racing it may still get Database Out Of Sync (see GATTServer+ServiceChanged).
        var yields = 0
        while await second.connection.isChangeAware == false, yields < 100_000 { await Task.yield(); yields += 1 }
        #expect(await second.connection.isChangeAware)
        await second.expect("0a 2500", "0b 0200")     // Service Changed's configuration kept
        await second.expect("0a 1200", "0b 0000")     // the others dropped: handles may have moved
        await second.close()
    }

    @Test("a record survives JSON coding (Codable), for storage with the bond")
    func codable() throws {
        let record = GATTClientRecord(clientConfigurations: [0x0012: 1], clientSupportedFeatures: [0x05], isChangeAware: false,
                                      databaseHash: [UInt8](repeating: 0xAB, count: 16), lastSignCounter: 7)
        let data = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(GATTClientRecord.self, from: data) == record)
    }
}
