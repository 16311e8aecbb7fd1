import Foundation
import Testing
import ATT
import BLECore
@testable import GATT

/// The stack's GATT client against its GATT server on the in-memory pair, on the reference
/// database (Fixtures/gatt-databases/reference.json: 6 services, 30 characteristics, plus the GAP
/// and GATT services the server adds): discovery, long reads, long and reliable writes,
/// notifications and indications, and robust caching on reconnection.
@Suite("GATT client against GATT server")
struct ClientServerTests {
    static let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/gatt-databases/reference.json").path

    /// A server on the reference database and a client connected to it.
    struct Link {
        let server: GATTServer
        let connection: GATTServerConnection
        let client: GATTClient
        let clientEngine: ATTEngine
        let clientEnd: InMemoryATTBearer

        /// The requests the client has sent so far (ATT PDUs of the request kind).
        var clientRequests: Int {
            clientEnd.sentCount(.request)
        }
    }

    static func connect(server existing: GATTServer? = nil, cache: (any GATTClientCache)? = nil,
                        bonded: Bool = false) async throws -> Link {
        let server = try existing ?? GATTServer(database: try GATTDatabase(jsonFile: reference))
        let (serverEnd, clientEnd) = InMemoryATTBearer.pair(mtu: 247, recordsTranscript: true)
        let connection = await server.connect(serverEnd, options: GATTConnectionOptions(isBonded: bonded))
        let engine = ATTEngine(bearer: clientEnd)
        var configuration = GATTClient.Configuration(cache: cache, peer: GATTPeerIdentity("reference-server"))
        configuration.hasTrustedRelationship = bonded
        let client = GATTClient(engine: engine, configuration: configuration)
        return Link(server: server, connection: connection, client: client, clientEngine: engine, clientEnd: clientEnd)
    }

    static func uuid(_ text: String) -> BluetoothUUID { BluetoothUUID(text)! }

    @Test("discovery finds every service, characteristic and descriptor the server serves")
    func discovery() async throws {
        let link = try await Self.connect()
        #expect(try await link.client.exchangeMTU() == 247)
        let services = try await link.client.discoverDatabase()
        // 4 primary application services (2 more are secondary, found through includes) and GAP, GATT.
        let primaries = services.filter(\.isPrimary)
        #expect(primaries.count == 6)
        #expect(primaries.contains { $0.uuid == BluetoothUUID(0x1800) })
        #expect(primaries.contains { $0.uuid == BluetoothUUID(0x1801) })
        let characteristics = services.flatMap(\.characteristics)
        #expect(characteristics.count >= 30)
        let notifyCharacteristic = try #require(characteristics.first { $0.uuid == Self.uuid("A5F20005-6C1B-4B8E-9E3A-4C696E757842") })
        #expect(notifyCharacteristic.clientCharacteristicConfiguration != nil)
        // Every characteristic the server lists is found where the server has it.
        let served = await link.server.database
        for c in characteristics {
            #expect(served.attribute(at: c.valueHandle)?.type == c.uuid, "\(c)")
        }
        // The included secondary services are found too.
        let test = try #require(primaries.first { $0.uuid == Self.uuid("A5F20001-6C1B-4B8E-9E3A-4C696E757842") })
        let includes = try await link.client.discoverIncludedServices(of: test)
        #expect(includes.contains { $0.uuid == Self.uuid("A5F30001-6C1B-4B8E-9E3A-4C696E757842") })
        await link.clientEngine.close()
    }

    @Test("long reads, long writes and reliable writes round-trip")
    func longValues() async throws {
        let link = try await Self.connect()
        _ = try await link.client.exchangeMTU()
        let characteristics = try await link.client.discoverDatabase().flatMap(\.characteristics)
        func handle(_ text: String) throws -> UInt16 {
            try #require(characteristics.first { $0.uuid == Self.uuid(text) }).valueHandle
        }
        // 300 octets: one Read, then Read Blobs.
        let long = try await link.client.readLong(try handle("A5F20002-6C1B-4B8E-9E3A-4C696E757842"))
        #expect(long.count == 300)
        #expect(String(decoding: long.prefix(5), as: UTF8.self) == "[000]")
        // The largest value, 512 octets.
        #expect(try await link.client.readLong(try handle("A5F2000C-6C1B-4B8E-9E3A-4C696E757842")).count == 512)

        let writable = try handle("A5F20003-6C1B-4B8E-9E3A-4C696E757842")
        let value = (0..<400).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try await link.client.writeLong(value, to: writable)
        #expect(try await link.client.readLong(writable) == value)

        // Reliable write of two parts, each verified against its echo, then executed at once.
        try await link.client.reliableWrite([GATTReliableWrite(handle: writable, value: [0xAA, 0xBB], offset: 0),
                                             GATTReliableWrite(handle: writable, value: [0xCC], offset: 2)])
        #expect(try await link.client.readLong(writable) == [0xAA, 0xBB, 0xCC])
        await link.clientEngine.close()
    }

    @Test("subscriptions receive notifications and indications; the server sees each client's CCCD")
    func notificationsAndIndications() async throws {
        let link = try await Self.connect()
        _ = try await link.client.exchangeMTU()
        let characteristics = try await link.client.discoverDatabase().flatMap(\.characteristics)
        let notifying = try #require(characteristics.first { $0.uuid == Self.uuid("A5F20005-6C1B-4B8E-9E3A-4C696E757842") })
        let indicating = try #require(characteristics.first { $0.uuid == Self.uuid("A5F20006-6C1B-4B8E-9E3A-4C696E757842") })

        let notifications = try await link.client.notifications(for: notifying, kind: .notification)
        let indications = try await link.client.notifications(for: indicating, kind: .indication)
        #expect(await link.connection.configuration(for: notifying.valueHandle) == .notification)
        #expect(await link.connection.configuration(for: indicating.valueHandle) == .indication)

        var notified = notifications.makeAsyncIterator()
        var indicated = indications.makeAsyncIterator()
        for n in 0..<5 {
            let report = try await link.server.notify([UInt8(n), 0x01], for: notifying.valueHandle)
            #expect(report.delivered.count == 1)
            #expect(await notified.next()?.value == [UInt8(n), 0x01])
        }
        // An indication's report comes once the client confirmed it.
        let indication = Task { try await link.server.indicate([0x42], for: indicating.valueHandle) }
        let received = await indicated.next()
        #expect(received?.value == [0x42])
        #expect(received?.isIndication == true)
        #expect(try await indication.value.delivered.count == 1)

        try await notifications.cancel()
        // The last subscriber gone, the client wrote the CCCD back to 0x0000.
        #expect(await link.connection.configuration(for: notifying.valueHandle) == GATTClientCharacteristicConfiguration(rawValue: 0))
        await link.clientEngine.close()
    }

    @Test("a bonded reconnection with the same Database Hash skips discovery: one round trip")
    func robustCaching() async throws {
        let cache = InMemoryGATTClientCache()
        let first = try await Self.connect(cache: cache, bonded: true)
        _ = try await first.client.exchangeMTU()
        let services = try await first.client.discoverDatabase()
        #expect(await first.client.usedCachedDatabase == false)
        await first.clientEngine.close()

        #expect(first.clientRequests > 20)

        let again = try await Self.connect(server: first.server, cache: cache, bonded: true)
        let cached = try await again.client.discoverDatabase()
        #expect(await again.client.usedCachedDatabase == true)
        #expect(cached == services)
        // Only the Database Hash was read (Core v5.4, Vol 3, Part G, 2.5.2.1).
        #expect(again.clientRequests == 1)
        await again.clientEngine.close()
    }
}
