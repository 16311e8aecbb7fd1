@testable import BLE
import BLECore
import Foundation
import GATT
import HCI
import Testing
import VirtualRadio

/// A peripheral manager serving a whole GATT database as it is (`blectl serve`'s way): its
/// handles, its Device Name, the events of what centrals do, updates sent at once, and the
/// limits of host mode.
@Suite("PeripheralManager: a published database", .timeLimit(.minutes(1)))
struct PublishedDatabaseTests {
    static let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gatt-databases/reference.json").path

    /// A peripheral manager on `radio`, powered on.
    static func manager(on radio: VirtualRadio, options: ManagerOptions = ManagerOptions()) async throws -> PeripheralManager {
        let manager = PeripheralManager(transport: .virtual(radio), options: options)
        for await state in manager.stateUpdates where state != .unknown {
            try #require(state == .poweredOn)
            break
        }
        return manager
    }

    /// A central manager on `radio` connected to `manager`, the database discovered.
    static func central(on radio: VirtualRadio, to manager: PeripheralManager) async throws -> (CentralManager, Peripheral, [Service]) {
        let own = try #require(await manager.localAddress)
        let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(radio)))
        let peripheral = central.retrievePeripherals(withIdentifiers: [Peripheral.identifier(for: own.address, type: own.type)])[0]
        try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
        return (central, peripheral, try await peripheral.discoverDatabase())
    }

    @Test("a published database is served with the handles it declares, as a server made on it serves it, named ManagerOptions.deviceName")
    func handlesAsDeclared() async throws {
        let radio = VirtualRadio(seed: 71, timing: .paced(speed: 10))
        defer { radio.shutDown() }
        let database = try GATTDatabase(jsonFile: Self.reference)
        let manager = try await Self.manager(on: radio, options: ManagerOptions(deviceName: "Reference"))
        let served = try await manager.publish(database)
        let fresh = try GATTServer(database: database, configuration: GATTServerConfiguration(deviceName: "Reference"))
        let expected = await fresh.database
        let server = try #require(await manager.core.server)
        let actual = await server.database
        let actualLayout: [String] = actual.attributes.map { "\($0.handle) \($0.type)" }
        let expectedLayout: [String] = expected.attributes.map { "\($0.handle) \($0.type)" }
        #expect(actualLayout == expectedLayout)
        #expect(actual.databaseHash == expected.databaseHash)
        #expect(served.map(\.uuid) == database.services.map(\.uuid))
        for (service, declared) in zip(served, database.services) {
            let handles: [UInt16?] = service.characteristics.map(\.valueHandle)
            let declaredHandles: [UInt16?] = declared.characteristics.map(\.valueHandle)
            #expect(handles == declaredHandles)
        }
        try await manager.startAdvertising(AdvertisementData(localName: "Ref"))
        let (central, peripheral, services) = try await Self.central(on: radio, to: manager)
        let name = try #require(services.flatMap { $0.characteristics ?? [] }.first { $0.uuid == BluetoothUUID(0x2A00) })
        #expect(try await peripheral.readValue(for: name) == Data("Reference".utf8))
        await #expect(throws: BLEError.invalidArgument("a published database is served as it is; removeAllServices() first, then add Service 180F (Battery), primary")) {
            try await manager.add(MutableService(type: BluetoothUUID(0x180F), primary: true))
        }
        await central.close()
        await manager.close()
    }

    @Test("events tell a central's connection, its CCCD and value writes by handle, and its disconnection with the Reason; sendUpdate says whom it reached")
    func eventsAndUpdates() async throws {
        let radio = VirtualRadio(seed: 72, timing: .paced(speed: 10))
        defer { radio.shutDown() }
        let database = try GATTDatabase(services: [
            .primary(BluetoothUUID(0xAAA0), characteristics: [
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0xAAA1), properties: [.read, .write, .notify], value: .fixed([0x01])),
            ]),
        ])
        let manager = try await Self.manager(on: radio)
        let served = try await manager.publish(database)
        let mirror = served[0].characteristics[0]
        let handle = try #require(mirror.valueHandle)
        try await manager.startAdvertising(AdvertisementData(localName: "Events"))
        var events = manager.events.makeAsyncIterator()
        let (central, peripheral, services) = try await Self.central(on: radio, to: manager)
        guard case .connected(let connected)? = await events.next() else { Issue.record("no connection event"); return }
        #expect(connected.addressType == .random)
        let characteristic = try #require(services.flatMap { $0.characteristics ?? [] }.first { $0.uuid == BluetoothUUID(0xAAA1) })
        var values = peripheral.valueUpdates(for: characteristic).makeAsyncIterator()
        try await peripheral.setNotifyValue(true, for: characteristic)
        guard case .clientConfigurationChanged(let subscriber, let changed, let kinds)? = await events.next() else {
            Issue.record("no CCCD event"); return
        }
        #expect(subscriber === connected)
        #expect(changed === mirror)
        #expect(kinds == [.notification])
        try await peripheral.writeValue(Data([0x09]), for: characteristic, type: .withResponse)
        guard case .valueWritten(let writer, let written, let value)? = await events.next() else { Issue.record("no write event"); return }
        #expect(writer === connected)
        #expect(written == handle)
        #expect(value == Data([0x09]))
        #expect(try await manager.sendUpdate(Data([0x0A]), for: mirror, kind: .notification) == [connected])
        #expect(try await values.next() == ValueUpdate(value: Data([0x0A]), kind: .notification))
        #expect(try await manager.sendUpdate(Data([0x0B]), for: mirror, kind: .notification, to: []) == [])
        await #expect(throws: BLEError.self) { try await manager.sendUpdate(Data([0x0C]), for: mirror, kind: .indication) }
        await central.cancelPeripheralConnection(peripheral)
        guard case .disconnected(let gone, let reason)? = await events.next() else { Issue.record("no disconnection event"); return }
        #expect(gone === connected)
        #expect(reason == .remoteUserTerminatedConnection)
        await central.close()
        await manager.close()
    }

    @Test("host mode cannot require link security (it has no SMP): the manager is unsupported and says why")
    func hostModeSecurity() async throws {
        let radio = VirtualRadio(seed: 73, timing: .paced(speed: 10))
        defer { radio.shutDown() }
        let manager = PeripheralManager(transport: .virtual(radio), options: ManagerOptions(requiredLinkSecurity: .encrypted))
        for await state in manager.stateUpdates where state != .unknown {
            #expect(state == .unsupported)
            break
        }
        do {
            try await manager.publish(GATTDatabase(services: []))
            Issue.record("published on an unsupported manager")
        } catch {
            #expect("\(error)".contains("need pairing, which host mode does not do yet"), "\(error)")
        }
        #expect(await manager.localAddress == nil)
        await manager.close()
    }
}
