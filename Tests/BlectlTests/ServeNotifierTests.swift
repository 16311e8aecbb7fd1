import Testing
import ATT
import BLECore
import GATT
@testable import blectl

/// What `blectl serve` sends on its own: a first value to a new subscriber, and every written value
/// to the subscribers, over the in-memory bearer (the kernel lane runs it over the radio).
@Suite("blectl serve: notifications from writes", .timeLimit(.minutes(1)))
struct ServeNotifierTests {
    @Test("subscribing sends the current value; a write by another client reaches the subscriber")
    func notifications() async throws {
        let database = try GATTDatabase(services: [
            .primary(BluetoothUUID(0xAAA0), characteristics: [
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0xAAA1), properties: [.read, .write, .notify], value: .fixed([0x01])),
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0xAAA2), properties: [.read, .write, .indicate], value: .fixed([0x02])),
            ]),
        ])
        let server = try GATTServer(database: database)
        let notifier = ServeNotifier(server: server, database: await server.database, events: ServeEvents(fileDescriptor: -1))
        let following = Task { await notifier.run() }
        func client() async throws -> GATTClient {
            let (serverEnd, clientEnd) = InMemoryATTBearer.pair(mtu: 247)
            let connection = await server.connect(serverEnd)
            await notifier.add(connection, name: "client \(connection.peer.connectionID)")
            let client = GATTClient(engine: ATTEngine(bearer: clientEnd))
            _ = try await client.exchangeMTU()
            return client
        }
        let subscriber = try await client(), writer = try await client()
        let characteristics = try await subscriber.discoverDatabase().flatMap(\.characteristics)
        let notifying = try #require(characteristics.first { $0.uuid == BluetoothUUID(0xAAA1) })
        let indicating = try #require(characteristics.first { $0.uuid == BluetoothUUID(0xAAA2) })

        var notified = try await subscriber.notifications(for: notifying, kind: .notification).makeAsyncIterator()
        #expect(await notified.next()?.value == [0x01])                     // the current value at once
        var indicated = try await subscriber.notifications(for: indicating, kind: .indication).makeAsyncIterator()
        #expect(await indicated.next()?.value == [0x02])

        try await writer.write([0x11, 0x22], to: notifying.valueHandle)
        #expect(await notified.next()?.value == [0x11, 0x22])
        try await writer.write([0x33], to: indicating.valueHandle)
        let indication = await indicated.next()
        #expect(indication?.value == [0x33])
        #expect(indication?.isIndication == true)
        following.cancel()
        await subscriber.close()
        await writer.close()
    }
}
