@testable import BLE
import BLECore
import Foundation
import Testing
import VirtualRadio

/// A peripheral manager released in the middle of serving a central, and its successor restored
/// from the state file: its services published again, advertising again, and no central's CCCD
/// carried over (none is bonded: Core v5.4, Vol 3, Part G, 3.3.3.3).
@Suite("Peripheral manager restoration", .timeLimit(.minutes(1)))
struct PeripheralManagerRestorationTests {
    static let service = BluetoothUUID("5E770100-0B0C-4D0E-8F10-111213141516")!
    static let inner = BluetoothUUID("5E770200-0B0C-4D0E-8F10-111213141516")!
    static let fixed = BluetoothUUID("5E770101-0B0C-4D0E-8F10-111213141516")!
    static let asked = BluetoothUUID("5E770102-0B0C-4D0E-8F10-111213141516")!
    static let measured = BluetoothUUID("5E770103-0B0C-4D0E-8F10-111213141516")!
    static let advertisement = AdvertisementData(localName: "PM", serviceUUIDs: [service], manufacturerData: Data([0xFF, 0xFF, 0x01, 0x02]),
                                                 serviceData: [BluetoothUUID(0x180F): Data([0x64])])

    /// What a published service is, without its object identity: its type, kind, includes and
    /// characteristics.
    static func shape(_ services: [MutableService]) -> [String] {
        services.map { service in
            let characteristics = service.characteristics.map {
                "\($0.uuid) \($0.properties) \($0.permissions.rawValue) \($0.value.map { Hex.encode([UInt8]($0)) } ?? "asked")"
            }
            return "\(service.uuid) \(service.isPrimary) includes \(service.includedServices.map(\.uuid)) \(characteristics)"
        }
    }

    static func poweredOn(_ manager: PeripheralManager) async throws -> PeripheralManager {
        for await state in manager.stateUpdates where state != .unknown {
            guard state == .poweredOn else { throw TestSensorError.notPoweredOn(state) }
            return manager
        }
        throw TestSensorError.notPoweredOn(manager.state)
    }

    /// The first discovery of a peripheral listing `service` other than those in `skipping`.
    static func find(_ central: CentralManager, skipping: Set<UUID>) async throws -> Peripheral {
        for try await discovery in central.scanForPeripherals(withServices: [service]) where !skipping.contains(discovery.peripheral.identifier) {
            return discovery.peripheral
        }
        throw TestSensorError.stopped
    }

    @Test("released while serving a subscribed central, the successor publishes the same services, advertises again from the same address, says willRestoreState first, and serves them; no CCCD is carried over")
    func restoresServicesAndAdvertising() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let radio = VirtualRadio(seed: 141, timing: .paced(speed: BLETestbed.defaultSpeed))
        var first: PeripheralManager? = try await Self.poweredOn(PeripheralManager(transport: .virtual(radio), options: directory.options("sensor")))
        let inner = MutableService(type: Self.inner, primary: false)
        inner.characteristics = [MutableCharacteristic(type: BluetoothUUID(0x2A19), properties: [.read], value: Data([0x55]), permissions: [.readable])]
        let outer = MutableService(type: Self.service, primary: true)
        outer.includedServices = [inner]
        outer.characteristics = [
            MutableCharacteristic(type: Self.fixed, properties: [.read], value: Data("fixed".utf8), permissions: [.readable]),
            MutableCharacteristic(type: Self.asked, properties: [.read, .write], value: nil, permissions: [.readable, .writeEncryptionRequired, .writeable]),
            MutableCharacteristic(type: Self.measured, properties: [.notify], value: nil, permissions: []),
        ]
        try await first!.add(inner)
        try await first!.add(outer)
        try await first!.startAdvertising(Self.advertisement)
        let published = Self.shape([inner, outer])

        let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(radio)))
        let old = try await Self.find(central, skipping: [])
        try await central.connect(old, options: ConnectOptions(timeout: .seconds(20)))
        let oldService = try #require(try await old.discoverServices([Self.service]).first)
        let oldMeasured = try #require(try await old.discoverCharacteristics([Self.measured], for: oldService).first)
        var subscriptions = first!.subscriptions.makeAsyncIterator()
        try await old.setNotifyValue(true, for: oldMeasured)
        guard case .subscribed = await subscriptions.next() else { throw TestSensorError.stopped }
        await first!.stateWritten()
        first = nil   // released while serving: no close() by the application
        // The released manager's controller stays on the radio, linked to the central; the
        // central lets that link go, as a real controller's would end when its host died.
        await central.cancelPeripheralConnection(old)

        let successor = PeripheralManager(transport: .virtual(radio), options: directory.options("sensor"))
        var events = successor.events.makeAsyncIterator()
        guard case .willRestoreState(let restored) = await events.next() else {
            Issue.record("the first event is not willRestoreState")
            return
        }
        #expect(Self.shape(restored.services) == published)
        #expect(restored.services[1].includedServices.first === restored.services[0], "the include points at the restored object")
        #expect(restored.advertisementData == Self.advertisement)
        #expect(restored.isAdvertising)
        _ = try await Self.poweredOn(successor)
        #expect(successor.isAdvertising)
        let measured = try #require(restored.services[1].characteristics.first { $0.uuid == Self.measured })
        #expect(measured.subscribedCentrals.isEmpty, "no central's CCCD is restored")

        let fresh = try await Self.find(central, skipping: [])
        #expect(fresh.identifier == old.identifier, "the successor advertises from the same static random address")
        try await central.connect(fresh, options: ConnectOptions(timeout: .seconds(20)))
        let service = try #require(try await fresh.discoverServices([Self.service]).first)
        let included = try await fresh.discoverIncludedServices(for: service)
        #expect(included.map(\.uuid) == [Self.inner])
        let characteristics = try await fresh.discoverCharacteristics(for: service)
        let byUUID = Dictionary(uniqueKeysWithValues: characteristics.map { ($0.uuid, $0) })
        #expect(try await fresh.readValue(for: try #require(byUUID[Self.fixed])) == Data("fixed".utf8))

        var requests = successor.requests.makeAsyncIterator()
        let read = Task { try await fresh.readValue(for: try #require(byUUID[Self.asked])) }
        guard case .read(let request) = await requests.next() else { throw TestSensorError.stopped }
        #expect(request.characteristic === restored.services[1].characteristics[1])
        request.value = Data([0x0A])
        successor.respond(to: request, withResult: .success)
        #expect(try await read.value == Data([0x0A]))

        var successorSubscriptions = successor.subscriptions.makeAsyncIterator()
        let values = fresh.notifications(for: try #require(byUUID[Self.measured]))
        try await fresh.setNotifyValue(true, for: try #require(byUUID[Self.measured]))
        guard case .subscribed(_, let subscribed) = await successorSubscriptions.next() else { throw TestSensorError.stopped }
        #expect(subscribed === measured)
        #expect(successor.updateValue(Data([0x00, 0x48]), for: measured, onSubscribedCentrals: nil))
        var iterator = values.makeAsyncIterator()
        #expect(try await iterator.next() == Data([0x00, 0x48]))
        #expect(successor.restorationProblems.isEmpty)
        await central.close()
        await successor.close()
        radio.shutDown()
    }

    @Test("a manager that removed a service and stopped advertising is restored with the rest, not advertising, its data kept")
    func restoresStoppedAdvertising() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let radio = VirtualRadio(seed: 142, timing: .paced(speed: BLETestbed.defaultSpeed))
        let first = try await Self.poweredOn(PeripheralManager(transport: .virtual(radio), options: directory.options("sensor")))
        let kept = MutableService(type: Self.service, primary: true)
        kept.characteristics = [MutableCharacteristic(type: Self.fixed, properties: [.read], value: Data([1]), permissions: [.readable])]
        let dropped = MutableService(type: Self.inner, primary: true)
        try await first.add(kept)
        try await first.add(dropped)
        await first.remove(dropped)
        try await first.startAdvertising(Self.advertisement)
        await first.stopAdvertising()
        await first.close()

        let successor = PeripheralManager(transport: .virtual(radio), options: directory.options("sensor"))
        var events = successor.events.makeAsyncIterator()
        guard case .willRestoreState(let restored) = await events.next() else {
            Issue.record("the first event is not willRestoreState")
            return
        }
        #expect(Self.shape(restored.services) == Self.shape([kept]))
        #expect(restored.advertisementData == Self.advertisement)
        #expect(!restored.isAdvertising)
        _ = try await Self.poweredOn(successor)
        #expect(!successor.isAdvertising)
        await successor.close()
        radio.shutDown()
    }

    @Test("a truncated peripheral-manager file is set aside and reported first; the manager starts with nothing published")
    func truncatedFileSetAside() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        var state = PeripheralManagerState()
        state.services = [PublishedServiceEntry(uuid: Self.service, primary: true, includes: [], characteristics: [])]
        let octets = StateFile.octets(of: state, identifier: "sensor")
        let name = directory.file("peripheralManager", "sensor").name
        try directory.put(Array(octets.dropLast(10)), as: name)
        let radio = VirtualRadio(seed: 143, timing: .paced(speed: BLETestbed.defaultSpeed))
        let manager = PeripheralManager(transport: .virtual(radio), options: directory.options("sensor"))
        var events = manager.events.makeAsyncIterator()
        guard case .restorationProblem(let problem) = await events.next() else {
            Issue.record("the first event is not a problem")
            return
        }
        #expect(problem.kind == .damaged)
        #expect(manager.restorationProblems == [problem])
        #expect(directory.names == [name + ".damaged"])
        _ = try await Self.poweredOn(manager)
        #expect(await manager.core.services.isEmpty)
        await manager.close()
        radio.shutDown()
    }
}
