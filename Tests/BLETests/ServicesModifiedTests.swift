@testable import BLE
import BLECore
import Foundation
import GATT
import Testing
import VirtualRadio
import BLETestSupport

/// ``Peripheral/servicesModified``: a peripheral manager removes a service while a central is
/// connected; the server's Service Changed indication (Core v5.4, Vol 3, Part G, 7.1) reaches
/// the central, whose tree loses the service.
@Suite("Peripheral: servicesModified", .timeLimit(.minutes(1)))
struct ServicesModifiedTests {
    static let battery = BluetoothUUID(0x180F)
    static let level = BluetoothUUID(0x2A19)

    /// The peripheral-manager pair with a Battery service (a notifying Battery Level) added
    /// after the Heart Rate one, connected.
    static func connectedWithBattery(seed: UInt64) async throws -> (pair: PeripheralManagerTests.Pair, peripheral: Peripheral, battery: MutableService) {
        let pair = try await PeripheralManagerTests.Pair.make(seed: seed)
        let level = MutableCharacteristic(type: Self.level, properties: [.read, .notify], value: nil, permissions: [.readable])
        let battery = MutableService(type: Self.battery, primary: true)
        battery.characteristics = [level]
        try await pair.manager.add(battery)
        let (peripheral, _) = try await pair.connect()
        return (pair, peripheral, battery)
    }

    @Test("after discoverDatabase, removing a service invalidates it: servicesModified yields it, services loses it, its notification stream ends")
    func wholeDatabaseDiscoveryHearsServiceChanged() async throws {
        let (pair, peripheral, battery) = try await Self.connectedWithBattery(seed: 141)
        _ = try await peripheral.discoverDatabase()
        let batteryService = try #require(peripheral.services?.first { $0.uuid == Self.battery })
        let level = try #require(batteryService.characteristics?.first { $0.uuid == Self.level })
        let values = peripheral.notifications(for: level)
        try await peripheral.setNotifyValue(true, for: level)
        var modifications = peripheral.servicesModified.makeAsyncIterator()

        await pair.manager.remove(battery)
        let invalidated = try #require(await modifications.next())
        #expect(invalidated.contains { $0 === batteryService })
        #expect(!invalidated.contains { $0.uuid == PeripheralManagerTests.heartRate }, "Heart Rate is before the change's range")
        #expect(peripheral.services?.contains { $0 === batteryService } == false)
        #expect(!level.isNotifying)
        var iterator = values.makeAsyncIterator()
        await #expect(throws: BLEError.characteristicNotFound(Self.level)) { _ = try await iterator.next() }
        #expect(peripheral.state == .connected, "a changed database does not end the link")

        // The rest is still usable, and rediscovery finds the database as it is now.
        let services = try await peripheral.discoverServices()
        #expect(!services.contains { $0.uuid == Self.battery })
        await pair.shutDown()
    }

    @Test("service by service, the application enables Service Changed itself and hears the change the same way")
    func stepwiseDiscoveryWithServiceChangedEnabled() async throws {
        let (pair, peripheral, battery) = try await Self.connectedWithBattery(seed: 142)
        let all = try await peripheral.discoverServices()
        let gatt = try #require(all.first { $0.uuid == BluetoothUUID(0x1801) })
        let serviceChanged = try #require(try await peripheral.discoverCharacteristics([BluetoothUUID(0x2A05)], for: gatt).first)
        _ = try await peripheral.discoverDescriptors(for: serviceChanged)
        try await peripheral.setNotifyValue(true, for: serviceChanged)
        let batteryService = try #require(all.first { $0.uuid == Self.battery })
        _ = try await peripheral.discoverCharacteristics(for: batteryService)
        var modifications = peripheral.servicesModified.makeAsyncIterator()

        await pair.manager.remove(battery)
        let invalidated = try #require(await modifications.next())
        #expect(invalidated.contains { $0 === batteryService })
        #expect(peripheral.services?.contains { $0 === batteryService } == false)
        #expect(peripheral.state == .connected)
        await pair.shutDown()
    }

    @Test("removing a service on the manager's side unsubscribes the centrals of its characteristics; a characteristic before the change keeps its own")
    func removedServiceUnsubscribesOnTheManagersSide() async throws {
        let (pair, peripheral, battery) = try await Self.connectedWithBattery(seed: 143)
        _ = try await peripheral.discoverDatabase()
        let level = try #require(peripheral.services?.first { $0.uuid == Self.battery }?.characteristics?.first { $0.uuid == Self.level })
        let measurement = try #require(peripheral.services?.first { $0.uuid == PeripheralManagerTests.heartRate }?
            .characteristics?.first { $0.uuid == PeripheralManagerTests.measurement })
        var events = pair.manager.subscriptions.makeAsyncIterator()
        try await peripheral.setNotifyValue(true, for: measurement)
        try await peripheral.setNotifyValue(true, for: level)
        for _ in 0..<2 {
            guard case .subscribed = await events.next() else { Issue.record("not subscribed"); return }
        }
        let mutableLevel = try #require(battery.characteristics.first)
        #expect(mutableLevel.subscribedCentrals.count == 1)

        await pair.manager.remove(battery)
        guard case .unsubscribed(_, let gone) = await events.next() else { Issue.record("no unsubscribed event"); return }
        #expect(gone === mutableLevel)
        #expect(mutableLevel.subscribedCentrals.isEmpty, "the removed characteristic keeps no subscriber")
        #expect(pair.measurement.subscribedCentrals.count == 1, "the Heart Rate measurement, before the change, is still subscribed")
        let values = peripheral.notifications(for: measurement)
        #expect(pair.manager.updateValue(Data([0x00, 73]), for: pair.measurement, onSubscribedCentrals: nil))
        var iterator = values.makeAsyncIterator()
        #expect(try await iterator.next() == Data([0x00, 73]))
        await pair.shutDown()
    }

    @Test("a service added while a central is connected follows the GAP and GATT services, which keep their handles: the central hears Service Changed and finds the service")
    func addedWhileConnectedKeepsServiceChanged() async throws {
        let pair = try await PeripheralManagerTests.Pair.make(seed: 148)
        let (peripheral, _) = try await pair.connect()
        let before = try await peripheral.discoverDatabase()
        let gattService = try #require(before.first { $0.uuid == BluetoothUUID(0x1801) })
        #expect(gattService.handleRange.upperBound == 0xFFFF, "GAP and GATT at the top of the handle space")
        let heartRate = try #require(before.first { $0.uuid == PeripheralManagerTests.heartRate })
        var modifications = peripheral.servicesModified.makeAsyncIterator()
        let battery = MutableService(type: Self.battery, primary: true)
        battery.characteristics = [MutableCharacteristic(type: Self.level, properties: [.read], value: Data([50]), permissions: [.readable])]
        try await pair.manager.add(battery)

        let invalidated = try #require(await modifications.next(), "Service Changed from the handle the central knows")
        #expect(!invalidated.contains { $0 === heartRate }, "the service before the change stays")
        let after = try await peripheral.discoverServices()
        #expect(after.first { $0.uuid == BluetoothUUID(0x1801) }?.handleRange == gattService.handleRange)
        let added = try #require(after.first { $0.uuid == Self.battery })
        let level = try #require(try await peripheral.discoverCharacteristics([Self.level], for: added).first)
        #expect(try await peripheral.readValue(for: level) == Data([50]))
        await pair.shutDown()
    }

    @Test("a value a central wrote to a characteristic the stack keeps survives adding a service")
    func writtenValueSurvivesAdd() async throws {
        let pair = try await PeripheralManagerTests.Pair.make(seed: 150)
        let name = MutableCharacteristic(type: BluetoothUUID(0x2A90), properties: [.read, .write], value: Data("old".utf8),
                                         permissions: [.readable, .writeable])
        let settings = MutableService(type: BluetoothUUID(0x1826), primary: true)
        settings.characteristics = [name]
        try await pair.manager.add(settings)
        let (peripheral, _) = try await pair.connect()
        _ = try await peripheral.discoverDatabase()
        let remote = try peripheral.characteristic(BluetoothUUID(0x2A90))
        try await peripheral.writeValue(Data("new".utf8), for: remote, type: .withResponse)
        #expect(await eventually { name.value == Data("new".utf8) })
        var modifications = peripheral.servicesModified.makeAsyncIterator()
        let battery = MutableService(type: Self.battery, primary: true)
        battery.characteristics = [MutableCharacteristic(type: Self.level, properties: [.read], value: Data([50]), permissions: [.readable])]
        try await pair.manager.add(battery)
        _ = try #require(await modifications.next())

        let service = try #require(try await peripheral.discoverServices([BluetoothUUID(0x1826)]).first)
        let again = try #require(try await peripheral.discoverCharacteristics([BluetoothUUID(0x2A90)], for: service).first)
        #expect(try await peripheral.readValue(for: again) == Data("new".utf8))
        await pair.shutDown()
    }

    @Test("the GAP and GATT services cannot be added: the stack serves them")
    func serverServicesRefused() async throws {
        let pair = try await PeripheralManagerTests.Pair.make(seed: 149)
        for uuid in [BluetoothUUID(0x1800), BluetoothUUID(0x1801)] {
            await #expect(throws: BLEError.self) { try await pair.manager.add(MutableService(type: uuid, primary: true)) }
        }
        await pair.shutDown()
    }

    @Test("servicesModified finishes when the link drops, and at once when not connected")
    func finishesWithTheLink() async throws {
        let (pair, peripheral, _) = try await Self.connectedWithBattery(seed: 143)
        let modifications = peripheral.servicesModified
        await pair.central.cancelPeripheralConnection(peripheral)
        var iterator = modifications.makeAsyncIterator()
        #expect(await iterator.next() == nil)
        var after = peripheral.servicesModified.makeAsyncIterator()
        #expect(await after.next() == nil)
        await pair.shutDown()
    }

    @Test("a Service Changed the tree takes while a service's characteristics are discovered: the service is gone, and the discovery throws serviceNotFound")
    func characteristicDiscoverySpanningAChange() async throws {
        let testbed = try await BLETestbed.make(seed: 143)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let link = try peripheral.connectedLink()
        let battery = try #require(peripheral.services?.first { $0.uuid == TestDatabase.battery })
        let held = testbed.sensor.hold { $0.first == 0x08 }                     // ATT_READ_BY_TYPE_REQ
        let discovery = Task { try await peripheral.discoverCharacteristics(for: battery) }
        _ = await held.reached()
        peripheral.servicesChanged(battery.handleRange, on: link)
        testbed.sensor.release()
        held.passOn()
        await #expect(throws: BLEError.serviceNotFound(TestDatabase.battery)) { try await discovery.value }
        #expect(peripheral.services?.contains { $0 === battery } == false)
        await #expect(throws: BLEError.serviceNotFound(TestDatabase.battery)) { try await peripheral.discoverCharacteristics(for: battery) }
        // Discovered again, it is there, with its characteristics.
        let again = try #require(try await peripheral.discoverServices([TestDatabase.battery]).first)
        #expect(again !== battery)
        #expect(try await peripheral.discoverCharacteristics(for: again).contains { $0.uuid == TestDatabase.batteryLevel })
        await testbed.shutDown()
    }

    @Test("a Service Changed the tree takes while services are discovered: the discovery runs again, and the services it returns are in the tree")
    func serviceDiscoverySpanningAChange() async throws {
        let testbed = try await BLETestbed.make(seed: 144)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let link = try peripheral.connectedLink()
        let before = try #require(peripheral.services?.first { $0.uuid == TestDatabase.battery })
        func readByGroupTypeRequests() -> Int { testbed.sensor.received(onLink: 0).filter { $0.first == 0x10 }.count }
        let perRun = readByGroupTypeRequests()                                  // connectAndDiscover's one run
        let held = testbed.sensor.hold { $0.first == 0x10 }                     // ATT_READ_BY_GROUP_TYPE_REQ
        let discovery = Task { try await peripheral.discoverServices() }
        _ = await held.reached()
        peripheral.servicesChanged(before.handleRange, on: link)
        testbed.sensor.release()
        held.passOn()
        let services = try await discovery.value
        #expect(readByGroupTypeRequests() == 3 * perRun, "run again once")
        let battery = try #require(services.first { $0.uuid == TestDatabase.battery })
        #expect(battery !== before, "a new object: the old one left the tree")
        #expect(peripheral.services?.contains { $0 === battery } == true)
        await testbed.shutDown()
    }

    @Test("a Service Changed the tree takes while the whole database is discovered: the discovery runs again, and what it returns is in the tree")
    func databaseDiscoverySpanningAChange() async throws {
        // What one run asks: the Database Hash reads (ATT_READ_BY_TYPE_REQ for 2B2A) of a
        // discovery that no change interrupts.
        func hashReads(_ testbed: BLETestbed) -> Int {
            testbed.sensor.received(onLink: 0).filter { $0.first == 0x08 && $0.suffix(2) == [0x2A, 0x2B] }.count
        }
        let control = try await BLETestbed.make(seed: 153)
        _ = try await control.connect().peripheral.discoverDatabase()
        let perRun = hashReads(control)
        await control.shutDown()

        let testbed = try await BLETestbed.make(seed: 153)
        let (peripheral, _) = try await testbed.connect()
        let link = try peripheral.connectedLink()
        let held = testbed.sensor.hold { $0.first == 0x10 }                     // ATT_READ_BY_GROUP_TYPE_REQ
        let discovery = Task { try await peripheral.discoverDatabase() }
        _ = await held.reached()
        peripheral.servicesChanged(0x0001...0xFFFF, on: link)
        testbed.sensor.release()
        held.passOn()
        let services = try await discovery.value
        #expect(hashReads(testbed) > perRun, "ran again")
        #expect(!services.isEmpty)
        #expect(services.filter(\.isPrimary).allSatisfy { service in peripheral.services?.contains { $0 === service } == true })
        await testbed.shutDown()
    }

    @Test("a Service Changed over a service takes the secondary service only it includes out of the tree too, and says so")
    func includedOnlyServiceLeavesWithItsIncluder() async throws {
        let testbed = try await BLETestbed.make(seed: 145)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let link = try peripheral.connectedLink()
        let custom = try peripheral.service(TestDatabase.custom)
        let secondary = try #require(try await peripheral.discoverIncludedServices(for: custom).first)
        var modifications = peripheral.servicesModified.makeAsyncIterator()
        peripheral.servicesChanged(custom.remote.handle...custom.remote.handle, on: link)     // its declaration only
        let invalidated = try #require(await modifications.next())
        #expect(invalidated.contains { $0 === custom })
        #expect(invalidated.contains { $0 === secondary }, "out of reach once its includer left")
        await #expect(throws: BLEError.serviceNotFound(TestDatabase.secondary)) { try await peripheral.discoverCharacteristics(for: secondary) }
        await testbed.shutDown()
    }

    @Test("reads, writes, subscriptions and discoveries of a characteristic a Service Changed invalidated throw characteristicNotFound and send nothing")
    func invalidatedCharacteristicSendsNothing() async throws {
        let testbed = try await BLETestbed.make(seed: 146)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let link = try peripheral.connectedLink()
        let battery = try peripheral.service(TestDatabase.battery)
        let level = try #require(battery.characteristics?.first { $0.uuid == TestDatabase.batteryLevel })
        let configuration = try #require(level.descriptors?.first { $0.uuid == TestDatabase.clientConfiguration })
        let sent = testbed.sensor.received(onLink: 0).count
        peripheral.servicesChanged(battery.handleRange, on: link)

        let gone = BLEError.characteristicNotFound(TestDatabase.batteryLevel)
        await #expect(throws: gone) { try await peripheral.readValue(for: level) }
        await #expect(throws: gone) { try await peripheral.writeValue(Data([1]), for: level, type: .withResponse) }
        await #expect(throws: gone) { try await peripheral.setNotifyValue(true, for: level) }
        try await peripheral.setNotifyValue(false, for: level)     // clean-up code: nothing to do
        await #expect(throws: gone) { try await peripheral.discoverDescriptors(for: level) }
        await #expect(throws: BLEError.characteristicNotFound(TestDatabase.clientConfiguration)) {
            try await peripheral.readValue(for: configuration)
        }
        var values = peripheral.notifications(for: level).makeAsyncIterator()
        await #expect(throws: gone) { try await values.next() }
        var updates = peripheral.valueUpdates(for: level).makeAsyncIterator()
        await #expect(throws: gone) { try await updates.next() }
        #expect(testbed.sensor.received(onLink: 0).count == sent, "no PDU to the invalidated handles")

        // What the change did not touch is still usable.
        #expect(try await peripheral.readValue(for: peripheral.characteristic(TestDatabase.bodySensorLocation)) == Data([0x01]))
        await testbed.shutDown()
    }

    @Test("a Service Changed indication invalidates the tree before the GATT client has rediscovered the range: servicesModified yields, and reads of the range are refused, while the rediscovery waits")
    func invalidatedBeforeTheClientRediscovers() async throws {
        let testbed = try await BLETestbed.make(seed: 152)
        let (peripheral, _) = try await testbed.connect()
        _ = try await peripheral.discoverDatabase()          // the client holds the tree, Service Changed on
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)
        try await peripheral.setNotifyValue(true, for: level)
        let configuration = try #require(level.descriptors?.first { $0.uuid == TestDatabase.clientConfiguration }).handle
        var modifications = peripheral.servicesModified.makeAsyncIterator()
        let before = testbed.sensor.received(onLink: 0).count
        let held = testbed.sensor.hold { [0x04, 0x08, 0x10].contains($0.first) }   // the client's rediscovery
        let smaller = try GATTDatabase(services: [
            .primary(TestDatabase.heartRate, characteristics: [
                GATTCharacteristicDefinition(uuid: TestDatabase.measurement, properties: [.notify], value: .fixed([0x00, 60])),
            ]),
        ])
        let replacing = Task { try await testbed.sensor.server.replaceDatabase(smaller) }
        _ = await held.reached()
        let start = testbed.radio.clock.now
        let invalidated = try #require(await modifications.next())
        #expect(start.duration(to: testbed.radio.clock.now) < .seconds(20), "well before the held request's 30 s ATT timeout")
        #expect(invalidated.contains { $0.uuid == TestDatabase.battery })
        await #expect(throws: BLEError.characteristicNotFound(TestDatabase.batteryLevel)) { try await peripheral.readValue(for: level) }
        testbed.sensor.release()
        held.passOn()
        _ = try await replacing.value
        // The subscription ended without a write to its old CCCD handle, which may name another
        // attribute now (here: nothing, or the rediscovered database's).
        _ = try await peripheral.discoverServices()
        let writes = testbed.sensor.received(onLink: 0).dropFirst(before).filter { $0.first == 0x12 || $0.first == 0x52 }
        #expect(!writes.contains { $0.count >= 3 && UInt16($0[1]) | UInt16($0[2]) << 8 == configuration }, "\(writes)")
        await testbed.shutDown()
    }

    @Test("discovering and subscribing again as servicesModified tells, while the GATT client still rediscovers the range, gives a live subscription")
    func subscribingWhileTheClientRediscovers() async throws {
        let testbed = try await BLETestbed.make(seed: 160)
        let (peripheral, _) = try await testbed.connect()
        _ = try await peripheral.discoverDatabase()          // the client holds the tree, Service Changed on
        var modifications = peripheral.servicesModified.makeAsyncIterator()
        let held = testbed.sensor.hold { $0.first == 0x10 }  // the client's rediscovery of the range
        let batteryOnly = try GATTDatabase(services: [
            .primary(TestDatabase.battery, characteristics: [
                GATTCharacteristicDefinition(uuid: TestDatabase.batteryLevel, properties: [.read, .notify], value: .fixed([0x50])),
            ]),
        ])
        let replacing = Task { try await testbed.sensor.server.replaceDatabase(batteryOnly) }
        _ = await held.reached()
        _ = try #require(await modifications.next())
        // What a Core Bluetooth app does on didModifyServices: discover again and subscribe.
        let app = Task { () throws -> (Characteristic, AsyncThrowingStream<Data, any Error>) in
            let battery = try #require(try await peripheral.discoverServices([TestDatabase.battery]).first)
            let level = try #require(try await peripheral.discoverCharacteristics([TestDatabase.batteryLevel], for: battery).first)
            let values = peripheral.notifications(for: level)
            try await peripheral.setNotifyValue(true, for: level)
            return (level, values)
        }
        testbed.sensor.release()
        held.passOn()
        let (level, values) = try await app.value
        _ = try await replacing.value
        #expect(!level.isInvalidated)
        #expect(level.isNotifying)
        let handle = batteryOnly.characteristics(TestDatabase.batteryLevel)[0].valueHandle
        let report = try await testbed.sensor.server.notify([42], for: handle)
        #expect(report.delivered.count == 1, "the server holds the CCCD written")
        var iterator = values.makeAsyncIterator()
        #expect(try await iterator.next() == Data([42]))
        await testbed.shutDown()
    }

    @Test("turning notifications on that waited behind turning them off, while a Service Changed invalidated the characteristic, throws characteristicNotFound and writes nothing")
    func subscribeThatWaitedItsTurnChecksInvalidation() async throws {
        let testbed = try await BLETestbed.make(seed: 161)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let link = try peripheral.connectedLink()
        let battery = try peripheral.service(TestDatabase.battery)
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)
        try await peripheral.setNotifyValue(true, for: level)
        let configuration = try #require(level.descriptors?.first { $0.uuid == TestDatabase.clientConfiguration }).handle
        let held = testbed.sensor.hold { $0.first == 0x12 }          // the "off" write waits
        let off = Task { try await peripheral.setNotifyValue(false, for: level) }
        _ = await held.reached()
        let on = Task { try await peripheral.setNotifyValue(true, for: level) }
        #expect(await eventually { link.subscriptionTurns.waiting(for: level.remote.valueHandle) == 1 }, "the \"on\" waits its turn")
        peripheral.servicesChanged(battery.handleRange, on: link)
        testbed.sensor.release()
        held.passOn()
        _ = try? await off.value
        await #expect(throws: BLEError.characteristicNotFound(TestDatabase.batteryLevel)) { try await on.value }
        let writes = testbed.sensor.received(onLink: 0).filter { $0.first == 0x12 && $0.count >= 5 }
        let enabling = writes.filter { UInt16($0[1]) | UInt16($0[2]) << 8 == configuration && $0[3] == 0x01 }
        #expect(enabling.count == 1, "only the first subscription's write: \(writes)")
        await testbed.shutDown()
    }

    @Test("a stream asked for a characteristic a Service Changed invalidated leaves its handle to the characteristic rediscovered there")
    func invalidatedStreamLeavesTheHandle() async throws {
        let testbed = try await BLETestbed.make(seed: 147)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let link = try peripheral.connectedLink()
        let battery = try peripheral.service(TestDatabase.battery)
        let level = try #require(battery.characteristics?.first { $0.uuid == TestDatabase.batteryLevel })
        peripheral.servicesChanged(battery.handleRange, on: link)
        let stale = peripheral.notifications(for: level)                        // kept, not read

        let again = try #require(try await peripheral.discoverServices([TestDatabase.battery]).first)
        let fresh = try #require(try await peripheral.discoverCharacteristics([TestDatabase.batteryLevel], for: again).first)
        #expect(fresh !== level)
        #expect(fresh.valueHandle == level.valueHandle, "the server's database did not move")
        var values = peripheral.notifications(for: fresh).makeAsyncIterator()
        try await peripheral.setNotifyValue(true, for: fresh)
        _ = try await testbed.sensor.server.notify([42], for: testbed.gatt.valueHandle(TestDatabase.batteryLevel))
        #expect(try await values.next() == Data([42]))
        #expect(fresh.value == Data([42]))
        #expect(level.value == nil, "the invalidated object takes no value")
        var staleValues = stale.makeAsyncIterator()
        await #expect(throws: BLEError.characteristicNotFound(TestDatabase.batteryLevel)) { try await staleValues.next() }
        await testbed.shutDown()
    }
}
