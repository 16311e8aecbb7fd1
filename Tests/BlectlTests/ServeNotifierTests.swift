import BLE
import BLECore
import Foundation
import GATT
import Testing
@testable import blectl

/// What `blectl serve` sends on its own: a first value to a new subscriber, and every written value
/// to the subscribers, through the BLE API: a peripheral manager and two central managers on the
/// virtual radio (the kernel lane runs it against BlueZ's tools).
@Suite("blectl serve: notifications from writes", .timeLimit(.minutes(1)))
struct ServeNotifierTests {
    /// A central manager on `radio`, connected to the peripheral manager at `own`, its database discovered.
    static func client(on radio: VirtualRadio, to own: (address: BluetoothAddress, type: Peripheral.AddressType)) async throws
        -> (CentralManager, Peripheral, [Characteristic]) {
        let central = CentralManager(transport: .virtual(radio))
        let peripheral = try #require(central.retrievePeripherals(withIdentifiers: [Peripheral.identifier(for: own.address, type: own.type)]).first)
        try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
        let characteristics = try await peripheral.discoverDatabase().flatMap { $0.characteristics ?? [] }
        return (central, peripheral, characteristics)
    }

    @Test("subscribing sends the current value; a write by another client reaches the subscriber, as a notification or an indication")
    func notifications() async throws {
        let radio = VirtualRadio(seed: 61, timing: .paced(speed: 10))
        defer { radio.shutDown() }
        let database = try GATTDatabase(services: [
            .primary(BluetoothUUID(0xAAA0), characteristics: [
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0xAAA1), properties: [.read, .write, .notify], value: .fixed([0x01])),
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0xAAA2), properties: [.read, .write, .indicate], value: .fixed([0x02])),
            ]),
        ])
        let manager = PeripheralManager(transport: .virtual(radio))
        let notifier = ServeNotifier(manager: manager, events: ServeEvents(fileDescriptor: -1))
        let following = Task { await ManagedServe.follow(manager.events, notifier: notifier, lines: ServeEvents(fileDescriptor: -1), hostMode: true, hci: 0) }
        await notifier.serve(try await manager.publish(database))
        try await manager.startAdvertising(AdvertisementData(localName: "Notifier"))
        let own = try #require(await manager.localAddress)

        let (subscribing, subscriber, seen) = try await Self.client(on: radio, to: own)
        let notifying = try #require(seen.first { $0.uuid == BluetoothUUID(0xAAA1) })
        let indicating = try #require(seen.first { $0.uuid == BluetoothUUID(0xAAA2) })
        var notified = subscriber.valueUpdates(for: notifying).makeAsyncIterator()
        try await subscriber.setNotifyValue(true, for: notifying)
        #expect(try await notified.next() == ValueUpdate(value: Data([0x01]), kind: .notification))     // the current value at once
        var indicated = subscriber.valueUpdates(for: indicating).makeAsyncIterator()
        try await subscriber.setNotifyValue(true, for: indicating)
        #expect(try await indicated.next() == ValueUpdate(value: Data([0x02]), kind: .indication))

        let (writing, writer, written) = try await Self.client(on: radio, to: own)
        try await writer.writeValue(Data([0x11, 0x22]), for: try #require(written.first { $0.uuid == BluetoothUUID(0xAAA1) }), type: .withResponse)
        #expect(try await notified.next() == ValueUpdate(value: Data([0x11, 0x22]), kind: .notification))
        try await writer.writeValue(Data([0x33]), for: try #require(written.first { $0.uuid == BluetoothUUID(0xAAA2) }), type: .withResponse)
        #expect(try await indicated.next() == ValueUpdate(value: Data([0x33]), kind: .indication))
        await writing.close()
        await subscribing.close()
        await manager.close()
        await following.value
    }
}
