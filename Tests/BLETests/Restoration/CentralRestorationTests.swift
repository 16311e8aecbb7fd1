@testable import BLE
import BLECore
import Foundation
import GATT
import HCI
import Host
import Testing
import VirtualRadio

/// A central killed in the middle of its work, and its successor restored from the state file
/// (docs/state-restoration.md): willRestoreState first, reconnection without a scan, the cached
/// database reused or rediscovered by its Database Hash, subscriptions written again, the scan
/// resumed.
@Suite("Central restoration", .timeLimit(.minutes(1)))
struct CentralRestorationTests {
    /// A testbed whose central restores under "gateway" from `directory`, connected to the
    /// sensor with the whole tree discovered and Battery Level and alerts subscribed, then
    /// killed (its transport closed under it) while a read is pending; the sensor ends the dead
    /// central's link, as the supervision timeout would. Returns the tree's shape as discovered.
    static func killedWhileReading(seed: UInt64, directory: StateDirectory) async throws -> (testbed: BLETestbed, shape: [String]) {
        let testbed = try await BLETestbed.make(seed: seed, options: directory.options("gateway"))
        let (peripheral, link) = try await testbed.connectAndDiscover()
        try await peripheral.setNotifyValue(true, for: try peripheral.characteristic(TestDatabase.batteryLevel))
        try await peripheral.setNotifyValue(true, for: try peripheral.characteristic(TestDatabase.alerts))
        let discovered = shape(peripheral.services)
        let held = testbed.sensor.hold { $0.first == 0x0A }   // ATT_READ_REQ: the read stays pending
        let location = try peripheral.characteristic(TestDatabase.bodySensorLocation)
        let read = Task { try await peripheral.readValue(for: location) }
        _ = await held.reached()
        await testbed.central.stateWritten()

        await testbed.central.closeTransportAbruptly()
        await #expect(throws: BLEError.disconnected(.hardwareFailure)) { try await read.value }
        testbed.sensor.release()
        try await link.disconnect(reason: .remoteUserTerminatedConnection)
        return (testbed, discovered)
    }

    /// The successor of the central under "gateway" in `directory`, and the peripheral it
    /// restored, once its events have said willRestoreState and then connected (each missing
    /// one is recorded as an issue, and nil returned).
    static func successorReconnected(_ testbed: BLETestbed, _ directory: StateDirectory) async throws -> (CentralManager, Peripheral)? {
        let successor = CentralManager(transport: .virtual(testbed.radio), options: directory.options("gateway"))
        var events = successor.events.makeAsyncIterator()
        guard case .willRestoreState(let restored) = await events.next() else {
            Issue.record("the first event is not willRestoreState")
            return nil
        }
        _ = try await BLETestbed.poweredOn(successor)
        guard case .connected = await events.next() else {
            Issue.record("the second event is not connected")
            return nil
        }
        return (successor, restored.peripherals[0])
    }

    /// The sensor's database is replaced by one Heart Rate service: the Service Changed
    /// indication is confirmed, and `peripheral`'s servicesModified reports its Battery service,
    /// which leaves its tree.
    static func expectChangeReported(on peripheral: Peripheral, by sensor: TestSensor) async throws {
        let battery = try #require(peripheral.services?.first { $0.uuid == TestDatabase.battery })
        var modifications = peripheral.servicesModified.makeAsyncIterator()
        let report = try await sensor.server.replaceDatabase(try GATTDatabase(services: [
            .primary(TestDatabase.heartRate, characteristics: [
                GATTCharacteristicDefinition(uuid: TestDatabase.bodySensorLocation, properties: [.read], value: .fixed([0x01])),
            ]),
        ]))
        #expect(report.delivered.count == 1, "the Service Changed indication was confirmed")
        let invalidated = try #require(await modifications.next())
        #expect(invalidated.contains { $0 === battery })
        #expect(peripheral.services?.contains { $0 === battery } == false)
    }

    @Test("killed mid-read, the successor says willRestoreState first, reconnects without scanning once the sensor shows up, reuses the database with one ATT request, and resubscribes")
    func restoresWithUnchangedHash() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let (testbed, discovered) = try await Self.killedWhileReading(seed: 121, directory: directory)
        try await testbed.sensor.stopAdvertising()

        let successor = CentralManager(transport: .virtual(testbed.radio), options: directory.options("gateway"))
        var events = successor.events.makeAsyncIterator()
        guard case .willRestoreState(let restored) = await events.next() else {
            Issue.record("the first event is not willRestoreState")
            return
        }
        #expect(restored.peripherals.map(\.identifier) == [testbed.sensor.identifier])
        #expect(restored.scan == nil)
        let peripheral = restored.peripherals[0]
        #expect(peripheral.state == .connecting)
        _ = try await BLETestbed.poweredOn(successor)
        try await testbed.radio.clock.sleep(for: .seconds(2))
        #expect(peripheral.state == .connecting, "the sensor does not advertise: nothing to connect to yet")

        let linkIndex = testbed.sensor.linkCount
        try await testbed.sensor.startAdvertising()
        guard case .connected(let connected) = await events.next() else {
            Issue.record("the second event is not connected")
            return
        }
        #expect(connected === peripheral)
        #expect(peripheral.state == .connected)
        #expect(!successor.isScanning, "reconnected through the Filter Accept List, not a scan")
        #expect(shape(peripheral.services) == discovered, "the cached tree, with the same handles")

        let pdus = testbed.sensor.received(onLink: linkIndex)
        #expect(opcodes(pdus) == [0x02, 0x08, 0x12, 0x12, 0x12, 0x12],
                "Exchange MTU, the Database Hash read (one round trip for the database), Client Supported Features and Service Changed's CCCD (the unbonded sensor forgot both), two CCCD writes: \(pdus.map { Hex.encode($0) })")
        #expect(pdus.count > 1 && pdus[1] == databaseHashRead)
        let gatt = try #require(peripheral.services?.first { $0.uuid == GATTProfileUUID.genericAttribute })
        let features = try #require(gatt.characteristics?.first { $0.uuid == GATTProfileUUID.clientSupportedFeatures })
        let serviceChangedCCCD = try #require(gatt.characteristics?.first { $0.uuid == GATTProfileUUID.serviceChanged }?
            .descriptors?.first { $0.uuid == TestDatabase.clientConfiguration })
        #expect(Array(pdus.dropFirst(2).prefix(2).map { UInt16($0[1]) | UInt16($0[2]) << 8 }) == [features.valueHandle, serviceChangedCCCD.handle])
        let cccdWrites = Set(pdus.suffix(2))
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)
        let alerts = try peripheral.characteristic(TestDatabase.alerts)
        let levelCCCD = try #require(level.descriptors?.first { $0.uuid == TestDatabase.clientConfiguration })
        let alertsCCCD = try #require(alerts.descriptors?.first { $0.uuid == TestDatabase.clientConfiguration })
        #expect(cccdWrites == [
            [0x12, UInt8(levelCCCD.handle & 0xFF), UInt8(levelCCCD.handle >> 8), 0x01, 0x00],     // notifications
            [0x12, UInt8(alertsCCCD.handle & 0xFF), UInt8(alertsCCCD.handle >> 8), 0x02, 0x00],   // indications
        ])
        #expect(level.isNotifying && alerts.isNotifying)

        let values = peripheral.notifications(for: level)
        let report = try await testbed.sensor.server.notify([42], for: testbed.gatt.valueHandle(TestDatabase.batteryLevel))
        #expect(report.delivered.count == 1)
        var iterator = values.makeAsyncIterator()
        #expect(try await iterator.next() == Data([42]))
        let alertValues = peripheral.notifications(for: alerts)
        let confirmed = try await testbed.sensor.server.indicate([0xA1], for: testbed.gatt.valueHandle(TestDatabase.alerts))
        #expect(confirmed.delivered.count == 1, "the indication was confirmed")
        var alertIterator = alertValues.makeAsyncIterator()
        #expect(try await alertIterator.next() == Data([0xA1]))
        #expect(successor.restorationProblems.isEmpty)
        await successor.close()
        await testbed.shutDown()
    }

    @Test("a restored peripheral that had subscribed to Service Changed itself, its tree reused, still hears a database change on servicesModified")
    func restoredServiceChangedSubscription() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let testbed = try await BLETestbed.make(seed: 126, options: directory.options("gateway"))
        let (peripheral, link) = try await testbed.connectAndDiscover()
        let gattService = try #require(peripheral.services?.first { $0.uuid == GATTProfileUUID.genericAttribute })
        let serviceChanged = try #require(gattService.characteristics?.first { $0.uuid == GATTProfileUUID.serviceChanged })
        try await peripheral.setNotifyValue(true, for: serviceChanged)
        await testbed.central.stateWritten()
        await testbed.central.closeTransportAbruptly()
        try await link.disconnect(reason: .remoteUserTerminatedConnection)

        guard let (successor, restoredPeripheral) = try await Self.successorReconnected(testbed, directory) else { return }
        let restoredServiceChanged = try #require(restoredPeripheral.services?.first { $0.uuid == GATTProfileUUID.genericAttribute }?
            .characteristics?.first { $0.uuid == GATTProfileUUID.serviceChanged })
        #expect(restoredServiceChanged.isNotifying)
        try await Self.expectChangeReported(on: restoredPeripheral, by: testbed.sensor)
        await successor.close()
        await testbed.shutDown()
    }

    @Test("a restored peripheral whose tree is reused has Client Supported Features and Service Changed indications written again, so a database change reaches servicesModified")
    func restoredTreeHearsServiceChanged() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let testbed = try await BLETestbed.make(seed: 127, options: directory.options("gateway"))
        let (peripheral, link) = try await testbed.connect()
        _ = try await peripheral.discoverDatabase()
        await testbed.central.stateWritten()
        await testbed.central.closeTransportAbruptly()
        try await link.disconnect(reason: .remoteUserTerminatedConnection)

        let linkIndex = testbed.sensor.linkCount
        guard let (successor, restoredPeripheral) = try await Self.successorReconnected(testbed, directory) else { return }
        // The unbonded sensor forgot both on the link's end (Core v5.4, Vol 3, Part G, 2.5.2,
        // 3.3.3.3): Write Requests to Client Supported Features and to Service Changed's CCCD.
        let gatt = try #require(restoredPeripheral.services?.first { $0.uuid == GATTProfileUUID.genericAttribute })
        let features = try #require(gatt.characteristics?.first { $0.uuid == GATTProfileUUID.clientSupportedFeatures })
        let serviceChanged = try #require(gatt.characteristics?.first { $0.uuid == GATTProfileUUID.serviceChanged })
        let configuration = try #require(serviceChanged.descriptors?.first { $0.uuid == GATTAttributeType.clientCharacteristicConfiguration })
        let writes = testbed.sensor.received(onLink: linkIndex).filter { $0.first == 0x12 }
            .map { UInt16($0[1]) | UInt16($0[2]) << 8 }
        #expect(writes.contains(features.valueHandle))
        #expect(writes.contains(configuration.handle))
        #expect(!serviceChanged.isNotifying, "the client's own subscription, not the application's")

        try await Self.expectChangeReported(on: restoredPeripheral, by: testbed.sensor)
        await successor.close()
        await testbed.shutDown()
    }

    @Test("when the Database Hash changed, the successor rediscovers the database, resubscribes what is still there, and reports what is gone")
    func rediscoversWhenHashChanged() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let (testbed, _) = try await Self.killedWhileReading(seed: 122, directory: directory)
        let extra = BluetoothUUID("8D3C0300-5A1B-4C2D-9E3F-00A0C9B1E2F3")!
        let changed = try GATTDatabase(services: [
            .primary(extra, characteristics: [GATTCharacteristicDefinition(uuid: extra, properties: [.read], value: .fixed([7]))]),
            .primary(TestDatabase.custom, characteristics: [
                GATTCharacteristicDefinition(uuid: TestDatabase.alerts, properties: [.indicate], value: .fixed([0x00])),
            ]),
        ])   // Battery (and its notifying Battery Level) is gone; alerts moved
        _ = try await testbed.sensor.server.replaceDatabase(changed)
        let served = await testbed.sensor.server.database
        let hash = served.databaseHash

        let linkIndex = testbed.sensor.linkCount
        let successor = CentralManager(transport: .virtual(testbed.radio), options: directory.options("gateway"))
        var events = successor.events.makeAsyncIterator()
        guard case .willRestoreState(let restored) = await events.next() else {
            Issue.record("the first event is not willRestoreState")
            return
        }
        var problems: [RestorationProblem] = []
        guard case .connected(let peripheral) = await nextEvent(&events, problems: &problems) else {
            Issue.record("no connected event")
            return
        }
        #expect(peripheral === restored.peripherals[0])
        #expect(problems.count == 1)
        #expect(problems.first?.kind == .notRestored)
        #expect(problems.first?.reason.contains("2A19") == true, "Battery Level is gone: \(problems)")
        #expect(successor.restorationProblems == problems)

        let pdus = opcodes(testbed.sensor.received(onLink: linkIndex))
        #expect(Array(pdus.prefix(3)) == [0x02, 0x08, 0x10], "MTU, the hash, then service discovery: \(pdus)")
        #expect(pdus.contains(0x04), "descriptors were discovered again")
        #expect(pdus.filter { $0 == 0x12 }.count == 3, "Client Supported Features, Service Changed's CCCD, and alerts' CCCD")
        #expect(shape(peripheral.services) != [], "the tree is the new database's")
        let uuids = Set(peripheral.services?.map(\.uuid) ?? [])
        #expect(uuids.isSuperset(of: [extra, TestDatabase.custom]) && !uuids.contains(TestDatabase.battery))
        let alerts = try peripheral.characteristic(TestDatabase.alerts)
        #expect(alerts.isNotifying)
        #expect(alerts.remote.valueHandle == served.characteristics(TestDatabase.alerts)[0].valueHandle)

        await successor.stateWritten()
        guard case .restored(let state) = directory.file("central", "gateway").load(CentralState.self, identifier: "gateway") else {
            Issue.record("the successor's state file does not load")
            return
        }
        #expect(state.peripherals.first?.databaseHash?.octets == hash, "the new hash is kept with the new tree")
        #expect(state.peripherals.first?.connection == .connected)
        await successor.close()
        await testbed.shutDown()
    }

    @Test("a server whose Database Hash answer is malformed: the successor rediscovers the whole database and resubscribes, instead of failing the restoration")
    func rediscoversWhenHashAnswerIsMalformed() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let (testbed, _) = try await Self.killedWhileReading(seed: 123, directory: directory)
        // A characteristic typed Database Hash (2B2A) with 5 octets, ahead of the server's own:
        // Read Using Characteristic UUID lists it first, and a Database Hash has 16 octets
        // (Core v5.4, Vol 3, Part G, 7.3).
        let bent = BluetoothUUID("8D3C0400-5A1B-4C2D-9E3F-00A0C9B1E2F3")!
        let changed = try GATTDatabase(services: [
            .primary(bent, characteristics: [
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0x2B2A), properties: [.read], value: .fixed([1, 2, 3, 4, 5])),
            ]),
            .primary(TestDatabase.custom, characteristics: [
                GATTCharacteristicDefinition(uuid: TestDatabase.alerts, properties: [.indicate], value: .fixed([0x00])),
            ]),
        ])
        _ = try await testbed.sensor.server.replaceDatabase(changed)

        let linkIndex = testbed.sensor.linkCount
        let successor = CentralManager(transport: .virtual(testbed.radio), options: directory.options("gateway"))
        var events = successor.events.makeAsyncIterator()
        guard case .willRestoreState = await events.next() else {
            Issue.record("the first event is not willRestoreState")
            return
        }
        var problems: [RestorationProblem] = []
        guard case .connected(let peripheral) = await nextEvent(&events, problems: &problems) else {
            Issue.record("no connected event: \(problems)")
            return
        }
        let pdus = opcodes(testbed.sensor.received(onLink: linkIndex))
        #expect(Array(pdus.prefix(3)) == [0x02, 0x08, 0x10], "MTU, the unusable hash, then service discovery: \(pdus)")
        let uuids = Set(peripheral.services?.map(\.uuid) ?? [])
        #expect(uuids.isSuperset(of: [bent, TestDatabase.custom]))
        #expect(try peripheral.characteristic(TestDatabase.alerts).isNotifying, "resubscribed in the rediscovered tree")
        #expect(problems.allSatisfy { $0.kind == .notRestored }, "only Battery Level, which is gone: \(problems)")
        await successor.close()
        await testbed.shutDown()
    }

    @Test("a central with a restore identifier connects to a server whose Database Hash answer is malformed, without caching")
    func connectsWhenHashAnswerIsMalformed() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let testbed = try await BLETestbed.make(seed: 125)
        // A Database Hash of 5 octets ahead of the server's own (it has 16, Core v5.4, Vol 3,
        // Part G, 7.3): an optional step's bad answer, which must not fail the connection.
        let bent = BluetoothUUID("8D3C0400-5A1B-4C2D-9E3F-00A0C9B1E2F3")!
        _ = try await testbed.sensor.server.replaceDatabase(try GATTDatabase(services: [
            .primary(bent, characteristics: [
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0x2B2A), properties: [.read], value: .fixed([1, 2, 3, 4, 5])),
            ]),
            .primary(TestDatabase.custom, characteristics: [
                GATTCharacteristicDefinition(uuid: TestDatabase.alerts, properties: [.indicate], value: .fixed([0x00])),
            ]),
        ]))
        let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(testbed.radio), options: directory.options("gateway")))
        let peripheral = try #require(central.retrievePeripherals(withIdentifiers: [testbed.sensor.identifier]).first)
        try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
        #expect(peripheral.state == .connected)
        let services = try await peripheral.discoverServices()
        #expect(Set(services.map(\.uuid)).isSuperset(of: [bent, TestDatabase.custom]))
        await central.close()
        await testbed.shutDown()
    }

    @Test("dropped without close in the middle of a scan, the central's successor resumes the scan with its services and options")
    func resumesScan() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let radio = VirtualRadio(seed: 123, timing: .paced(speed: BLETestbed.defaultSpeed))
        let gatt = try TestDatabase()
        let sensor = try await TestSensor.start(on: radio, database: gatt.database, advertisingData: [
            .localName(ADLocalName(bytes: Array("Sensor".utf8))), .serviceUUIDs(ADUUIDList(uuids16: [0x180D]), isComplete: true),
        ])
        let options = ScanOptions(allowDuplicates: true, solicitedServiceUUIDs: [BluetoothUUID(0x1812)])
        var first: CentralManager? = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(radio), options: directory.options("gateway")))
        let scan = first!.scanForPeripherals(withServices: [TestDatabase.heartRate], options: options)
        var found = scan.makeAsyncIterator()
        #expect(try await found.next()?.peripheral.identifier == sensor.identifier)
        await first?.stateWritten()
        first = nil   // released mid-scan: no close() by the application

        let successor = CentralManager(transport: .virtual(radio), options: directory.options("gateway"))
        var events = successor.events.makeAsyncIterator()
        guard case .willRestoreState(let restored) = await events.next() else {
            Issue.record("the first event is not willRestoreState")
            return
        }
        #expect(restored.peripherals.isEmpty, "scanning alone makes no peripheral known")
        let resumed = try #require(restored.scan)
        #expect(resumed.serviceUUIDs == [TestDatabase.heartRate])
        #expect(resumed.options == options)
        var discoveries = resumed.discoveries.makeAsyncIterator()
        #expect(try await discoveries.next()?.peripheral.identifier == sensor.identifier)
        #expect(successor.isScanning)
        withExtendedLifetime(found) {}
        try await successor.stopScan()
        await successor.stateWritten()
        guard case .restored(let state) = directory.file("central", "gateway").load(CentralState.self, identifier: "gateway") else {
            Issue.record("the state file does not load")
            return
        }
        #expect(state.scan == nil, "the application stopped the scan: nothing to resume")
        await successor.close()
        radio.shutDown()
    }

    @Test("cancelPeripheralConnection of a restored peripheral stops its reconnection, and the state file then reconnects nothing")
    func cancelStopsReconnection() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let (testbed, _) = try await Self.killedWhileReading(seed: 124, directory: directory)
        try await testbed.sensor.stopAdvertising()
        let successor = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(testbed.radio), options: directory.options("gateway")))
        var events = successor.events.makeAsyncIterator()
        guard case .willRestoreState(let restored) = await events.next() else {
            Issue.record("the first event is not willRestoreState")
            return
        }
        let peripheral = restored.peripherals[0]
        #expect(peripheral.state == .connecting)
        await successor.cancelPeripheralConnection(peripheral)
        #expect(peripheral.state == .disconnected)
        await successor.stateWritten()
        guard case .restored(let state) = directory.file("central", "gateway").load(CentralState.self, identifier: "gateway") else {
            Issue.record("the state file does not load")
            return
        }
        #expect(state.peripherals.map(\.connection) == [ConnectionIntent.none])
        #expect(state.peripherals.first?.services != nil, "the database stays known")
        try await testbed.sensor.startAdvertising()
        try await testbed.radio.clock.sleep(for: .seconds(2))
        #expect(peripheral.state == .disconnected, "not reconnected once it advertises")
        await successor.close()
        await testbed.shutDown()
    }
}
