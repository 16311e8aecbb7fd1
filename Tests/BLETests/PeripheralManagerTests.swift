@testable import BLE
import BLECore
import Foundation
import ATT
import GATT
import Synchronization
import Testing
import VirtualRadio
import BLETestSupport

/// A PeripheralManager and a CentralManager meeting on one virtual radio.
@Suite("Peripheral manager", .timeLimit(.minutes(1)))
struct PeripheralManagerTests {
    static let heartRate = BluetoothUUID(0x180D)
    static let location = BluetoothUUID(0x2A38)
    static let measurement = BluetoothUUID(0x2A37)
    static let setting = BluetoothUUID("5E770001-0B0C-4D0E-8F10-111213141516")!

    /// A radio with a powered-on peripheral manager serving one service (a static Body Sensor
    /// Location, an application-answered setting, a notifying measurement) and advertising
    /// "PM" with it, and a powered-on central.
    struct Pair {
        let radio: VirtualRadio
        let manager: PeripheralManager
        let central: CentralManager
        let service: MutableService
        let location: MutableCharacteristic
        let setting: MutableCharacteristic
        let measurement: MutableCharacteristic

        static func make(seed: UInt64, centralOptions: ManagerOptions = .init(), managerOptions: ManagerOptions = .init()) async throws -> Pair {
            let radio = VirtualRadio(seed: seed, timing: .paced(speed: BLETestbed.defaultSpeed))
            let manager = PeripheralManager(transport: .virtual(radio), options: managerOptions)
            for await state in manager.stateUpdates where state != .unknown {
                guard state == .poweredOn else { throw TestSensorError.notPoweredOn(state) }
                break
            }
            let location = MutableCharacteristic(type: PeripheralManagerTests.location, properties: [.read], value: Data([0x01]),
                                                 permissions: [.readable])
            let setting = MutableCharacteristic(type: PeripheralManagerTests.setting, properties: [.read, .write, .writeWithoutResponse], value: nil,
                                                permissions: [.readable, .writeable])
            let measurement = MutableCharacteristic(type: PeripheralManagerTests.measurement, properties: [.notify], value: nil, permissions: [])
            let service = MutableService(type: PeripheralManagerTests.heartRate, primary: true)
            service.characteristics = [location, setting, measurement]
            try await manager.add(service)
            try await manager.startAdvertising(AdvertisementData(localName: "PM", serviceUUIDs: [PeripheralManagerTests.heartRate]))
            #expect(manager.isAdvertising)
            let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(radio), options: centralOptions))
            return Pair(radio: radio, manager: manager, central: central, service: service, location: location, setting: setting,
                        measurement: measurement)
        }

        /// Scans for "PM" with the service filter, connects, and discovers the service's characteristics.
        func connect() async throws -> (peripheral: Peripheral, characteristics: [BluetoothUUID: Characteristic]) {
            var found: Peripheral?
            for try await discovery in central.scanForPeripherals(withServices: [PeripheralManagerTests.heartRate]) {
                #expect(discovery.advertisementData.localName == "PM")
                found = discovery.peripheral
                break
            }
            let peripheral = try #require(found)
            try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
            let service = try #require(try await peripheral.discoverServices([PeripheralManagerTests.heartRate]).first)
            let characteristics = try await peripheral.discoverCharacteristics(for: service)
            return (peripheral, Dictionary(uniqueKeysWithValues: characteristics.map { ($0.uuid, $0) }))
        }

        func shutDown() async {
            await central.close()
            await manager.close()
            radio.shutDown()
        }
    }

    @Test("a central finds the advertised service, reads a static value from the stack and the application's through requests, and writes")
    func requestsAndResponses() async throws {
        let pair = try await Pair.make(seed: 101)
        let (peripheral, characteristics) = try await pair.connect()
        #expect(try await peripheral.readValue(for: try #require(characteristics[Self.location])) == Data([0x01]))
        var requests = pair.manager.requests.makeAsyncIterator()

        let setting = try #require(characteristics[Self.setting])
        let read = Task { try await peripheral.readValue(for: setting) }
        guard case .read(let asked) = await requests.next() else { throw TestSensorError.stopped }
        #expect(asked.characteristic === pair.setting)
        #expect(asked.offset == 0)
        #expect(asked.central.identifier != peripheral.identifier)
        asked.value = Data("hello".utf8)
        pair.manager.respond(to: asked, withResult: .success)
        #expect(try await read.value == Data("hello".utf8))

        let write = Task { try await peripheral.writeValue(Data([9, 8]), for: setting, type: .withResponse) }
        guard case .write(let writes) = await requests.next() else { throw TestSensorError.stopped }
        #expect(writes.map(\.value) == [Data([9, 8])])
        pair.manager.respond(to: writes[0], withResult: .success)
        try await write.value

        let refused = Task { try await peripheral.writeValue(Data([7]), for: setting, type: .withResponse) }
        guard case .write(let more) = await requests.next() else { throw TestSensorError.stopped }
        pair.manager.respond(to: more[0], withResult: .invalidAttributeValueLength)
        pair.manager.respond(to: more[0], withResult: .success)   // a second answer is ignored
        let error = await #expect(throws: BLEError.self) { try await refused.value }
        guard case .att(.invalidAttributeValueLength, _) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        await pair.shutDown()
    }

    @Test("a write without response reaches the application marked so, needs no answer, and holds up nothing after it")
    func writeWithoutResponseNeedsNoAnswer() async throws {
        let pair = try await Pair.make(seed: 104)
        let (peripheral, characteristics) = try await pair.connect()
        let setting = try #require(characteristics[Self.setting])
        var requests = pair.manager.requests.makeAsyncIterator()

        try await peripheral.writeValue(Data([1, 2, 3]), for: setting, type: .withoutResponse)
        guard case .write(let commands) = await requests.next() else { throw TestSensorError.stopped }
        #expect(commands.map(\.value) == [Data([1, 2, 3])])
        #expect(commands.map(\.writeType) == [.withoutResponse])
        #expect(commands[0].characteristic === pair.setting)

        // Left unanswered, it holds nothing up: the Write Request after it is asked at once.
        let started = pair.radio.now
        let write = Task { try await peripheral.writeValue(Data([4]), for: setting, type: .withResponse) }
        guard case .write(let writes) = await requests.next() else { throw TestSensorError.stopped }
        #expect(writes.map(\.writeType) == [.withResponse])
        #expect(writes.map(\.value) == [Data([4])])
        pair.manager.respond(to: commands[0], withResult: .success)     // does nothing
        pair.manager.respond(to: writes[0], withResult: .success)
        try await write.value
        // Had the command waited for an answer, the Write Request would have come after the
        // stack's 10 s deadline for it (radio time).
        #expect(pair.radio.now - started < ManagerOptions().requestDeadline)
        await pair.shutDown()
    }

    @Test("a long write to an application-answered characteristic arrives as one batch, a request per part in order, answered once; a refusal reaches the central as that ATT error")
    func queuedWriteIsOneBatch() async throws {
        // An ATT_MTU of 100 octets, so that 500 octets go in parts of 95 (Prepare Write's 5 octets of header).
        let pair = try await Pair.make(seed: 105, centralOptions: ManagerOptions(attMTU: 100))
        let (peripheral, characteristics) = try await pair.connect()
        let setting = try #require(characteristics[Self.setting])
        var requests = pair.manager.requests.makeAsyncIterator()
        let value = Data((0..<500).map { UInt8($0 % 251) })
        #expect(value.count > peripheral.mtu - 3, "long enough to be written in parts")

        let write = Task { try await peripheral.writeValue(value, for: setting, type: .withResponse) }
        guard case .write(let parts) = await requests.next() else { throw TestSensorError.stopped }
        #expect(parts.count > 1)
        #expect(parts.allSatisfy { $0.characteristic === pair.setting && $0.writeType == .withResponse })
        #expect(parts.map(\.offset) == parts.indices.map { index in parts[..<index].reduce(0) { $0 + ($1.value?.count ?? 0) } })
        #expect(Data(parts.flatMap { [UInt8]($0.value ?? Data()) }) == value)
        pair.manager.respond(to: parts[0], withResult: .success)
        try await write.value

        let refused = Task { try await peripheral.writeValue(value, for: setting, type: .withResponse) }
        guard case .write(let again) = await requests.next() else { throw TestSensorError.stopped }
        pair.manager.respond(to: again[0], withResult: .invalidAttributeValueLength)
        await #expect(throws: BLEError.att(.invalidAttributeValueLength, handle: setting.valueHandle)) { try await refused.value }
        await pair.shutDown()
    }

    @Test("a request left unanswered gets Unlikely Error at the 10 s deadline, before the central's 30 s timer; the link stays usable")
    func deadline() async throws {
        let pair = try await Pair.make(seed: 102)
        let (peripheral, characteristics) = try await pair.connect()
        let setting = try #require(characteristics[Self.setting])
        var requests = pair.manager.requests.makeAsyncIterator()
        let started = pair.radio.now
        let read = Task { try await peripheral.readValue(for: setting) }
        guard case .read(let ignored) = await requests.next() else { throw TestSensorError.stopped }
        let error = await #expect(throws: BLEError.self) { try await read.value }
        guard case .att(.unlikelyError, _) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        let waited = pair.radio.now - started
        #expect(waited >= .seconds(10) && waited < .seconds(30), "\(waited)")
        pair.manager.respond(to: ignored, withResult: .success)   // too late: ignored
        let again = Task { try await peripheral.readValue(for: setting) }
        guard case .read(let answered) = await requests.next() else { throw TestSensorError.stopped }
        answered.value = Data([0x42])
        pair.manager.respond(to: answered, withResult: .success)
        #expect(try await again.value == Data([0x42]))
        await pair.shutDown()
    }

    @Test("subscribing, updates in order, unsubscribing; a dropped link unsubscribes its central")
    func subscriptionsAndUpdates() async throws {
        let pair = try await Pair.make(seed: 103)
        let (peripheral, characteristics) = try await pair.connect()
        let measurement = try #require(characteristics[Self.measurement])
        var subscriptions = pair.manager.subscriptions.makeAsyncIterator()
        let values = peripheral.notifications(for: measurement)
        try await peripheral.setNotifyValue(true, for: measurement)
        guard case .subscribed(let central, let characteristic) = await subscriptions.next() else { throw TestSensorError.stopped }
        #expect(characteristic === pair.measurement)
        #expect(pair.measurement.subscribedCentrals == [central])
        for beat: UInt8 in 60...64 {
            #expect(pair.manager.updateValue(Data([0x00, beat]), for: pair.measurement, onSubscribedCentrals: nil))
        }
        var received: [Data] = []
        for try await value in values {
            received.append(value)
            if received.count == 5 { break }
        }
        #expect(received == (60...64).map { Data([0x00, $0]) })
        try await peripheral.setNotifyValue(false, for: measurement)
        guard case .unsubscribed(let gone, _) = await subscriptions.next() else { throw TestSensorError.stopped }
        #expect(gone === central)
        #expect(pair.measurement.subscribedCentrals.isEmpty)

        try await peripheral.setNotifyValue(true, for: measurement)
        guard case .subscribed = await subscriptions.next() else { throw TestSensorError.stopped }
        await pair.central.cancelPeripheralConnection(peripheral)
        guard case .unsubscribed = await subscriptions.next() else { throw TestSensorError.stopped }
        #expect(pair.measurement.subscribedCentrals.isEmpty)
        await pair.shutDown()
    }

    @Test("updateValue to named centrals reaches those that are subscribed, and no other")
    func updatesToNamedCentrals() async throws {
        let pair = try await Pair.make(seed: 104)
        let (peripheral, characteristics) = try await pair.connect()
        let measurement = try #require(characteristics[Self.measurement])
        var subscriptions = pair.manager.subscriptions.makeAsyncIterator()
        let values = peripheral.notifications(for: measurement)
        try await peripheral.setNotifyValue(true, for: measurement)
        guard case .subscribed(let central, _) = await subscriptions.next() else { throw TestSensorError.stopped }
        let stranger = Central(address: BluetoothAddress("C0:00:00:00:00:09")!, type: .random)
        #expect(pair.manager.updateValue(Data([0x00, 61]), for: pair.measurement, onSubscribedCentrals: [stranger]))
        #expect(pair.manager.updateValue(Data([0x00, 62]), for: pair.measurement, onSubscribedCentrals: []))
        #expect(pair.manager.updateValue(Data([0x00, 63]), for: pair.measurement, onSubscribedCentrals: [stranger, central]))
        var iterator = values.makeAsyncIterator()
        #expect(try await iterator.next() == Data([0x00, 63]), "61 and 62 named no subscribed central")
        await pair.shutDown()
    }

    @Test("updateValue returns false once 32 updates wait; readyToUpdateSubscribers says when 16 have gone; nothing accepted is lost")
    func updateBackpressure() async throws {
        let pair = try await Pair.make(seed: 104)
        let (peripheral, characteristics) = try await pair.connect()
        let measurement = try #require(characteristics[Self.measurement])
        var subscriptions = pair.manager.subscriptions.makeAsyncIterator()
        var values = peripheral.notifications(for: measurement).makeAsyncIterator()
        try await peripheral.setNotifyValue(true, for: measurement)
        _ = await subscriptions.next()
        var ready = pair.manager.readyToUpdateSubscribers.makeAsyncIterator()
        var accepted: [Data] = []
        for index in 0..<10_000 {
            let value = Data([UInt8(truncatingIfNeeded: index), UInt8(truncatingIfNeeded: index >> 8)])
            guard pair.manager.updateValue(value, for: pair.measurement, onSubscribedCentrals: nil) else { break }
            accepted.append(value)
        }
        #expect(accepted.count >= UpdateQueue.capacity)
        #expect(accepted.count < 10_000, "the queue refused an update")
        #expect(await ready.next() != nil)
        var afterReady: [Data] = []
        for index in 0..<10_000 {
            let value = Data([0xFF, UInt8(truncatingIfNeeded: index)])
            guard pair.manager.updateValue(value, for: pair.measurement, onSubscribedCentrals: nil) else { break }
            afterReady.append(value)
        }
        #expect(afterReady.count >= UpdateQueue.capacity - UpdateQueue.readyLevel, "told at the low-water mark, not at the first free place")
        var received: [Data] = []
        while received.count < accepted.count + afterReady.count, let value = try await values.next() { received.append(value) }
        #expect(received == accepted + afterReady)
        await pair.shutDown()
    }

    @Test("advertising data that does not fit throws advertisingDataTooLong with the octets needed and those the controller takes")
    func advertisingTooLong() async throws {
        let pair = try await Pair.make(seed: 105)
        let data = AdvertisementData(serviceData: [BluetoothUUID(0x1801): Data(count: 150), BluetoothUUID(0x1802): Data(count: 150)])
        await #expect(throws: BLEError.advertisingDataTooLong(needed: 3 + 2 * (2 + 2 + 150), available: 245)) {
            try await pair.manager.startAdvertising(data)
        }
        await pair.shutDown()
    }

    @Test("two services added at once are both served: database changes go one at a time")
    func concurrentAdds() async throws {
        let pair = try await Pair.make(seed: 105)
        // A connected central subscribed to Service Changed makes each change wait for its
        // confirmation: a wide window for the second add to overlap the first.
        _ = try await pair.connect()
        let battery = MutableService(type: BluetoothUUID(0x180F), primary: true)
        let level = MutableCharacteristic(type: BluetoothUUID(0x2A19), properties: [.read], value: Data([0x64]), permissions: [.readable])
        battery.characteristics = [level]
        let device = MutableService(type: BluetoothUUID(0x180A), primary: true)
        let model = MutableCharacteristic(type: BluetoothUUID(0x2A24), properties: [.read], value: Data("LB".utf8), permissions: [.readable])
        device.characteristics = [model]
        let manager = pair.manager
        async let first: Void = manager.add(battery)
        async let second: Void = manager.add(device)
        _ = try await (first, second)
        #expect(level.valueHandle != nil && model.valueHandle != nil, "neither change lost the other's service")
        #expect(pair.measurement.valueHandle != nil)
        await pair.shutDown()
    }

    @Test("a removed service is no longer found by a central's discovery")
    func removeService() async throws {
        let pair = try await Pair.make(seed: 106)
        let (peripheral, _) = try await pair.connect()
        await pair.manager.remove(pair.service)
        #expect(try await peripheral.discoverServices([Self.heartRate]).isEmpty)
        #expect(pair.manager.updateValue(Data([1]), for: pair.measurement, onSubscribedCentrals: nil) == false, "not published")
        try await pair.manager.add(pair.service)
        #expect(try await peripheral.discoverServices([Self.heartRate]).count == 1)
        await pair.shutDown()
    }

    // Requests and streams that come after an end (found by review after the GATT client's
    // fuzzing finding of the same kind): each gets its answer at once rather than waiting for ever.

    @Test("a request of a link that has ended finds no central: the lookup does not wait for a link no one will accept")
    func centralLookupAfterLinkEnded() async throws {
        let pair = try await Pair.make(seed: 107)
        let (peripheral, _) = try await pair.connect()
        let id = try #require(await pair.manager.core.links.keys.first)
        var events = pair.manager.events.makeAsyncIterator()
        await pair.central.cancelPeripheralConnection(peripheral)
        while let event = await events.next() {
            if case .disconnected = event { break }
        }
        #expect(await pair.manager.core.links.isEmpty)
        // What the server's value handler asks for a read that was already on its way.
        let core = pair.manager.core
        let lookup = await returnsPromptly { await core.central(for: GATTPeer(connectionID: id)) }
        #expect(lookup.map { $0 == nil } == true, "returned, and nil")
        #expect(await core.centralWaiters.isEmpty)
        await pair.shutDown()
    }

    @Test("close ends a central lookup that was waiting for its link to be accepted")
    func lookupWaitingAtClose() async throws {
        let pair = try await Pair.make(seed: 109)
        let core = pair.manager.core
        let server = try #require(await core.server)
        // A connection the server holds and the manager has not accepted: a lookup waits.
        let (bearer, _) = InMemoryATTBearer.pair(maximumMTU: (517, 517))
        let connection = await server.connect(bearer)
        let peer = connection.peer
        let lookup = Task { await core.central(for: peer) }
        #expect(await eventually { await !core.centralWaiters.isEmpty })
        await pair.manager.close()
        let result = await returnsPromptly { await lookup.value }
        #expect(result.map { $0 == nil } == true, "returned, and nil")
        await pair.shutDown()
    }

    @Test("after close, a central lookup gets nil and readyToUpdateSubscribers is finished")
    func lookupsAfterClose() async throws {
        let pair = try await Pair.make(seed: 108)
        await pair.manager.close()
        let core = pair.manager.core
        let lookup = await returnsPromptly { await core.central(for: GATTPeer(connectionID: 99)) }
        #expect(lookup.map { $0 == nil } == true, "returned, and nil")
        let ready = pair.manager.readyToUpdateSubscribers
        let next = await returnsPromptly {
            var iterator = ready.makeAsyncIterator()
            return await iterator.next() == nil
        }
        #expect(next == true, "finished")
        await pair.shutDown()
    }
}

/// What `body` returns, or nil when it has not returned within `attempts` yields of the caller:
/// a regression to waiting for ever fails the test instead of hanging the run.
private func returnsPromptly<T: Sendable>(attempts: Int = 200_000, _ body: @escaping @Sendable () async -> T) async -> T? {
    let result = Mutex<T?>(nil)
    Task { let value = await body(); result.withLock { $0 = value } }
    _ = await eventually(attempts: attempts) { result.withLock { $0 } != nil }
    return result.withLock { $0 }
}
