@testable import BLE
import BLECore
import Foundation
import GATT
import HCI
import Testing

/// Service, included service, characteristic and descriptor discovery through a Peripheral.
@Suite("Discovery", .timeLimit(.minutes(1)))
struct DiscoveryTests {
    @Test("discovering everything fills the tree: the server's services, an include, characteristics, descriptors")
    func wholeTree() async throws {
        let testbed = try await BLETestbed.make(seed: 51)
        let (peripheral, _) = try await testbed.connect()
        let services = try await peripheral.discoverServices()
        #expect(services.map(\.uuid) == [TestDatabase.heartRate, TestDatabase.custom, TestDatabase.battery,
                                        BluetoothUUID(0x1800), BluetoothUUID(0x1801)], "the server adds GAP and GATT after the database")
        #expect(services.allSatisfy { $0.isPrimary })
        #expect(peripheral.services == services)

        let custom = try peripheral.service(TestDatabase.custom)
        #expect(custom.includedServices == nil)
        let included = try await peripheral.discoverIncludedServices(for: custom)
        #expect(included.map(\.uuid) == [TestDatabase.secondary], "a 128-bit include: its UUID read from the declaration")
        #expect(included.first?.isPrimary == false)
        #expect(custom.includedServices == included)
        let inside = try await peripheral.discoverCharacteristics(for: included[0])
        #expect(inside.map(\.uuid) == [TestDatabase.inside])

        let characteristics = try await peripheral.discoverCharacteristics(for: custom)
        #expect(characteristics.map(\.uuid) == [TestDatabase.longValue, TestDatabase.dataIn, TestDatabase.alerts])
        #expect(characteristics.map(\.properties) == [[.read], [.write, .writeWithoutResponse], [.indicate]])
        #expect(custom.characteristics == characteristics)
        let long = characteristics[0]
        #expect(long.descriptors == nil)
        #expect(try await peripheral.discoverDescriptors(for: long).map(\.uuid) == [TestDatabase.userDescription])
        #expect(try await peripheral.discoverDescriptors(for: characteristics[2]).map(\.uuid) == [TestDatabase.clientConfiguration])
        #expect(long.descriptors?.map(\.uuid) == [TestDatabase.userDescription])
        await testbed.shutDown()
    }

    @Test("with UUIDs the by-UUID procedures find only those, and later discoveries keep the same objects")
    func byUUID() async throws {
        let testbed = try await BLETestbed.make(seed: 52)
        let (peripheral, _) = try await testbed.connect()
        let battery = try await peripheral.discoverServices([TestDatabase.battery])
        #expect(battery.map(\.uuid) == [TestDatabase.battery])
        #expect(try await peripheral.discoverServices([BluetoothUUID(0x1812)]).isEmpty)
        let all = try await peripheral.discoverServices(nil)
        #expect(all.contains { $0 === battery[0] })

        let heartRate = try peripheral.service(TestDatabase.heartRate)
        let location = try await peripheral.discoverCharacteristics([TestDatabase.bodySensorLocation], for: heartRate)
        #expect(location.map(\.uuid) == [TestDatabase.bodySensorLocation])
        let two = try await peripheral.discoverCharacteristics([TestDatabase.measurement, TestDatabase.bodySensorLocation], for: heartRate)
        #expect(two.map(\.uuid) == [TestDatabase.measurement, TestDatabase.bodySensorLocation])
        #expect(two[1] === location[0])
        #expect(heartRate.characteristics?.count == 2)
        await testbed.shutDown()
    }

    @Test("a primary service first found as another's include is the same object when primary service discovery finds it, and is then marked primary")
    func includedPrimaryServiceIsOneObject() async throws {
        let testbed = try await BLETestbed.make(seed: 165)
        let database = try GATTDatabase(services: [
            .primary(BluetoothUUID(0x1819), includes: [GATTIncludeDefinition("battery")], characteristics: [
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0x2A67), properties: [.read], value: .fixed([0x00])),
            ]),
            .primary(TestDatabase.battery, id: "battery", characteristics: [
                GATTCharacteristicDefinition(uuid: TestDatabase.batteryLevel, properties: [.read, .notify], value: .fixed([0x64])),
            ]),
        ])
        let sensor = try await TestSensor.start(on: testbed.radio, database: database, advertisingData: [
            .localName(ADLocalName(bytes: Array("Including".utf8))),
        ])
        let peripheral = testbed.central.retrievePeripherals(withIdentifiers: [sensor.identifier])[0]
        async let link = sensor.nextLink()
        try await testbed.central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
        _ = try await link
        let including = try #require(try await peripheral.discoverServices([BluetoothUUID(0x1819)]).first)
        let included = try #require(try await peripheral.discoverIncludedServices(for: including).first)
        #expect(!included.isPrimary, "an include does not say which")
        let all = try await peripheral.discoverServices()
        #expect(all.filter { $0.uuid == TestDatabase.battery }.count == 1)
        #expect(all.first { $0.uuid == TestDatabase.battery } === included)
        #expect(included.isPrimary)
        #expect(peripheral.services?.filter { $0.uuid == TestDatabase.battery }.count == 1)
        await testbed.shutDown()
    }
}
