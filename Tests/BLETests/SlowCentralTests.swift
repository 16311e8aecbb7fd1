@testable import BLE
import BLECore
import Foundation
import Testing
import VirtualRadio
import BLETestSupport

/// One central that never confirms an indication, beside one that does: the peripheral
/// manager's updates reach the second without waiting on the first.
@Suite("A slow central", .timeLimit(.minutes(1)))
struct SlowCentralTests {
    static let thermometer = BluetoothUUID(0x1809)
    static let temperature: UInt16 = 0x2A1C
    static let intermediate: UInt16 = 0x2A1E

    /// A peripheral manager serving an indicate-only Temperature Measurement (and a notify-only
    /// Intermediate Temperature, which nobody has subscribed to yet), subscribed to by
    /// a raw ATT central that never confirms by itself (connected first, so its link comes
    /// first) and by a central manager's peripheral.
    struct Scene {
        let radio: VirtualRadio
        let manager: PeripheralManager
        let temperature: MutableCharacteristic
        let intermediate: MutableCharacteristic
        let silent: RawATTCentral
        /// The silent central as the manager knows it.
        let silentCentral: Central
        /// The first PDU octets of an indication of the characteristic's value.
        let indicationHeader: [UInt8]
        let central: CentralManager
        let peripheral: Peripheral
        let characteristic: Characteristic
        let otherCentral: Central

        /// A powered-on peripheral manager on a new radio serving the Health Thermometer
        /// service (Temperature Measurement with `temperatureProperties`, and a notify-only
        /// Intermediate Temperature), advertising, with a raw ATT central connected to it.
        static func served(seed: UInt64, temperatureProperties: CharacteristicProperties = [.indicate]) async throws
            -> (radio: VirtualRadio, manager: PeripheralManager, temperature: MutableCharacteristic,
                intermediate: MutableCharacteristic, raw: RawATTCentral) {
            let radio = VirtualRadio(seed: seed, timing: .paced(speed: BLETestbed.defaultSpeed))
            let manager = PeripheralManager(transport: .virtual(radio))
            for await state in manager.stateUpdates where state != .unknown {
                guard state == .poweredOn else { throw TestSensorError.notPoweredOn(state) }
                break
            }
            let temperature = MutableCharacteristic(type: BluetoothUUID(SlowCentralTests.temperature), properties: temperatureProperties,
                                                    value: nil, permissions: [])
            let intermediate = MutableCharacteristic(type: BluetoothUUID(SlowCentralTests.intermediate), properties: [.notify], value: nil,
                                                     permissions: [])
            let service = MutableService(type: SlowCentralTests.thermometer, primary: true)
            service.characteristics = [temperature, intermediate]
            try await manager.add(service)
            try await manager.startAdvertising(AdvertisementData(localName: "T", serviceUUIDs: [SlowCentralTests.thermometer]))
            let address = try #require(await manager.localAddress)
            let raw = try await RawATTCentral.connect(on: radio, to: address.address, type: address.type)
            return (radio, manager, temperature, intermediate, raw)
        }

        static func make(seed: UInt64) async throws -> Scene {
            let (radio, manager, temperature, intermediate, silent) = try await served(seed: seed)
            var subscriptions = manager.subscriptions.makeAsyncIterator()
            let (valueHandle, cccd) = try await silent.handles(ofCharacteristic: SlowCentralTests.temperature)
            #expect(try await silent.ask([0x12, UInt8(cccd & 0xFF), UInt8(cccd >> 8), 0x02, 0x00]) == [0x13])
            guard case .subscribed(let silentCentral, _) = await subscriptions.next() else { throw TestSensorError.stopped }

            let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(radio)))
            var found: Peripheral?
            for try await discovery in central.scanForPeripherals(withServices: [SlowCentralTests.thermometer]) {
                found = discovery.peripheral
                break
            }
            let peripheral = try #require(found)
            try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
            let discovered = try #require(try await peripheral.discoverServices([SlowCentralTests.thermometer]).first)
            let characteristic = try #require(try await peripheral.discoverCharacteristics(for: discovered)
                .first { $0.uuid == BluetoothUUID(SlowCentralTests.temperature) })
            try await peripheral.setNotifyValue(true, for: characteristic)
            guard case .subscribed(let otherCentral, _) = await subscriptions.next() else { throw TestSensorError.stopped }
            #expect(temperature.subscribedCentrals.count == 2)
            return Scene(radio: radio, manager: manager, temperature: temperature, intermediate: intermediate, silent: silent, silentCentral: silentCentral,
                         indicationHeader: [0x1D, UInt8(valueHandle & 0xFF), UInt8(valueHandle >> 8)], central: central,
                         peripheral: peripheral, characteristic: characteristic, otherCentral: otherCentral)
        }

        func shutDown() async {
            await silent.shutDown()
            await central.close()
            await manager.close()
            radio.shutDown()
        }
    }

    /// Five values of a Temperature Measurement (flags, then a FLOAT), each its own.
    static let values = (UInt8(0)..<5).map { Data([0x00, $0, 0x01, 0x00, 0xFF]) }

    @Test("a central that never confirms an indication delays no other central's updateValue, and gets its own in order once it confirms")
    func silentCentralHoldsUpOnlyItself() async throws {
        let scene = try await Scene.make(seed: 131)
        var values = scene.peripheral.notifications(for: scene.characteristic).makeAsyncIterator()
        let start = scene.radio.clock.now
        for value in Self.values { #expect(scene.manager.updateValue(value, for: scene.temperature, onSubscribedCentrals: nil)) }
        var received: [Data] = []
        while received.count < Self.values.count, let value = try await values.next() { received.append(value) }
        #expect(received == Self.values)
        #expect(start.duration(to: scene.radio.clock.now) < .seconds(30), "before the silent central's ATT transaction times out (Vol 3, Part F, 3.3.3)")

        // The silent central has its first indication only: one is outstanding at a time.
        #expect(try await scene.silent.received(atLeast: 1, opcode: 0x1D) == [scene.indicationHeader + Self.values[0]])
        for count in 2...Self.values.count {
            try await scene.silent.send([0x1E])
            let indications = try await scene.silent.received(atLeast: count, opcode: 0x1D)
            #expect(indications == Self.values.prefix(count).map { scene.indicationHeader + $0 }, "in order, one at a time")
        }
        await scene.shutDown()
    }

    @Test("sendUpdate to named centrals indicates them concurrently: a silent one delays no other, and the call returns once both confirmed")
    func namedIndicationsAreConcurrent() async throws {
        let scene = try await Scene.make(seed: 132)
        var values = scene.peripheral.notifications(for: scene.characteristic).makeAsyncIterator()
        let start = scene.radio.clock.now
        let sending = Task {
            try await scene.manager.sendUpdate(Self.values[0], for: scene.temperature, kind: .indication,
                                               to: [scene.silentCentral, scene.otherCentral])
        }
        #expect(try await values.next() == Self.values[0])
        #expect(start.duration(to: scene.radio.clock.now) < .seconds(30), "before the silent central's ATT transaction times out")
        #expect(try await scene.silent.received(atLeast: 1, opcode: 0x1D) == [scene.indicationHeader + Self.values[0]])
        try await scene.silent.send([0x1E])
        let reached = try await sending.value
        #expect(reached.count == 2)
        #expect(reached.contains { $0 === scene.silentCentral } && reached.contains { $0 === scene.otherCentral })
        await scene.shutDown()
    }

    @Test("a central that leaves an indication unconfirmed for 30 s loses its link (its ATT transaction timed out), and its subscription with it; the other central stays")
    func unconfirmedIndicationEndsTheLink() async throws {
        let scene = try await Scene.make(seed: 134)
        #expect(scene.manager.updateValue(Self.values[0], for: scene.temperature, onSubscribedCentrals: nil))
        #expect(try await scene.silent.received(atLeast: 1, opcode: 0x1D) == [scene.indicationHeader + Self.values[0]])
        let start = scene.radio.clock.now
        _ = await scene.silent.link.disconnected()
        #expect(start.duration(to: scene.radio.clock.now) >= .seconds(29), "at the transaction timeout (Vol 3, Part F, 3.3.3)")
        #expect(await eventually { scene.temperature.subscribedCentrals.count == 1 })
        #expect(scene.temperature.subscribedCentrals.first === scene.otherCentral)
        #expect(scene.peripheral.state == .connected)
        await scene.shutDown()
    }

    @Test("updates held for a silent central fill the transmit queue; when its link ends they are dropped with it and the queue has room again")
    func endedLinkFreesItsUpdates() async throws {
        let scene = try await Scene.make(seed: 133)
        var ready = scene.manager.readyToUpdateSubscribers.makeAsyncIterator()
        var values = scene.peripheral.notifications(for: scene.characteristic).makeAsyncIterator()
        var accepted = 0
        while accepted <= UpdateQueue.capacity,
              scene.manager.updateValue(Data([0x00, UInt8(truncatingIfNeeded: accepted), 0x01, 0x00, 0xFF]), for: scene.temperature,
                                        onSubscribedCentrals: nil) {
            accepted += 1
        }
        #expect(accepted == UpdateQueue.capacity, "the silent central holds every update")
        _ = try await scene.silent.link.disconnect()
        #expect(await ready.next() != nil)
        let after = Data([0x00, 0xEE, 0x01, 0x00, 0xFF])
        #expect(scene.manager.updateValue(after, for: scene.temperature, onSubscribedCentrals: nil))
        var received: [Data] = []
        while received.last != after, let value = try await values.next() { received.append(value) }
        #expect(received.count == accepted + 1, "the other central got everything accepted, in order")
        #expect(received.last == after)
        await scene.shutDown()
    }

    @Test("a central's notifications wait behind its unconfirmed indication, keeping its updates in order, and go once it confirms")
    func notificationsKeepOrderBehindIndication() async throws {
        let scene = try await Scene.make(seed: 134)
        var subscriptions = scene.manager.subscriptions.makeAsyncIterator()
        let (intermediateValue, intermediateCCCD) = try await scene.silent.handles(ofCharacteristic: Self.intermediate)
        #expect(try await scene.silent.ask([0x12, UInt8(intermediateCCCD & 0xFF), UInt8(intermediateCCCD >> 8), 0x01, 0x00]) == [0x13])
        _ = await subscriptions.next()
        var values = scene.peripheral.notifications(for: scene.characteristic).makeAsyncIterator()
        #expect(scene.manager.updateValue(Self.values[0], for: scene.temperature, onSubscribedCentrals: nil))
        // The notification is offered once the indication is out: the silent link's outbox is
        // empty then, but its indication still waits for confirmation.
        #expect(try await scene.silent.received(atLeast: 1, opcode: 0x1D) == [scene.indicationHeader + Self.values[0]])
        #expect(scene.manager.updateValue(Self.values[1], for: scene.intermediate, onSubscribedCentrals: nil))
        // A second indication, to the other central, shows the sender has handled the notification.
        #expect(try await values.next() == Self.values[0])
        #expect(scene.manager.updateValue(Self.values[2], for: scene.temperature, onSubscribedCentrals: [scene.otherCentral]))
        #expect(try await values.next() == Self.values[2])
        #expect(scene.silent.received.filter { $0.first == 0x1B }.isEmpty, "no notification before the indication is confirmed")
        try await scene.silent.send([0x1E])
        let notification = try await scene.silent.received(atLeast: 1, opcode: 0x1B)
        #expect(notification == [[0x1B, UInt8(intermediateValue & 0xFF), UInt8(intermediateValue >> 8)] + Self.values[1]])
        await scene.shutDown()
    }

    @Test("updates offered while a database change waits for a silent central's Service Changed confirmation reach the other central at once")
    func databaseChangeWaitsForNobody() async throws {
        let scene = try await Scene.make(seed: 135)
        let (_, serviceChangedCCCD) = try await scene.silent.handles(ofCharacteristic: 0x2A05)
        #expect(try await scene.silent.ask([0x12, UInt8(serviceChangedCCCD & 0xFF), UInt8(serviceChangedCCCD >> 8), 0x02, 0x00]) == [0x13])
        var values = scene.peripheral.notifications(for: scene.characteristic).makeAsyncIterator()
        let start = scene.radio.clock.now
        let battery = MutableService(type: BluetoothUUID(0x180F), primary: true)
        battery.characteristics = [MutableCharacteristic(type: BluetoothUUID(0x2A19), properties: [.read], value: Data([0x64]),
                                                         permissions: [.readable])]
        let manager = scene.manager
        let adding = Task { try await manager.add(battery) }
        // The change is under way once the silent central has its Service Changed indication.
        #expect(try await scene.silent.received(atLeast: 1, opcode: 0x1D).first?.count == 7)
        #expect(scene.manager.updateValue(Self.values[0], for: scene.temperature, onSubscribedCentrals: [scene.otherCentral]))
        #expect(try await values.next() == Self.values[0])
        #expect(start.duration(to: scene.radio.clock.now) < .seconds(30), "before the silent central's Service Changed times out")
        try await scene.silent.send([0x1E])
        try await adding.value
        await scene.shutDown()
    }
}
