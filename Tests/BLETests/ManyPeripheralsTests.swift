@testable import BLE
import BLECore
import Foundation
import HCI
import Testing
import VirtualRadio

/// One central holding several peripherals at once on one radio: each link has its own GATT
/// client, its own pending calls and its own notification streams, so nothing one peripheral
/// sends reaches another's, and one link's end ends only what was on it.
@Suite("Many peripherals at once", .timeLimit(.minutes(1)))
struct ManyPeripheralsTests {
    @Test("one central holds four peripheral managers at once: each is connected, discovered, read, written and notified concurrently, and nothing crosses between them")
    func fourAtOnce() async throws {
        let fleet = try await PeripheralFleet.make(count: 4, seed: 111)
        let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(fleet.radio)))
        let peripherals = try await fleet.discover(from: central)
        #expect(Set(peripherals.map(\.identifier)).count == 4, "four devices, four identifiers")

        try await withThrowingTaskGroup(of: Void.self) { group in
            for (member, peripheral) in zip(fleet.members, peripherals) {
                group.addTask {
                    let tag = UInt8(member.index)
                    try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
                    let characteristics = try await peripheral.fleetCharacteristics()
                    let name = try #require(characteristics[PeripheralFleet.name])
                    let counter = try #require(characteristics[PeripheralFleet.counter])
                    let command = try #require(characteristics[PeripheralFleet.command])
                    #expect(try await peripheral.readValue(for: name) == Data("member \(tag)".utf8))

                    var subscriptions = member.subscriptions.makeAsyncIterator()
                    var values = peripheral.notifications(for: counter).makeAsyncIterator()
                    try await peripheral.setNotifyValue(true, for: counter)
                    guard case .subscribed = await subscriptions.next() else { throw TestSensorError.stopped }
                    // The member sends while this link and the others read and write.
                    let sending = Task { await member.send(40) }
                    try await peripheral.writeValue(Data([tag, 0xAA]), for: command, type: .withResponse)
                    #expect(try await peripheral.readValue(for: command) == Data("reply \(tag)".utf8))
                    var received: [Data] = []
                    while received.count < 40, let value = try await values.next() { received.append(value) }
                    #expect(received == (0..<40).map { Data([tag, UInt8($0)]) }, "member \(tag)'s values, all, in order, and only its")
                    #expect(counter.value == Data([tag, 39]))
                    await sending.value
                }
            }
            try await group.waitForAll()
        }

        for (member, peripheral) in zip(fleet.members, peripherals) {
            #expect(member.writes == [Data([UInt8(member.index), 0xAA])], "member \(member.index) got its own write alone")
            #expect(member.counter.subscribedCentrals.count == 1)
            #expect(peripheral.state == .connected)
        }
        #expect(Set(central.retrieveConnectedPeripherals(withServices: [PeripheralFleet.service])) == Set(peripherals))
        await central.close()
        await fleet.shutDown()
    }

    @Test("cancelling one of four connections ends its pending read and its notification stream with disconnected; the other three go on reading and notifying")
    func oneDisconnectedOthersContinue() async throws {
        let fleet = try await PeripheralFleet.make(count: 4, seed: 112)
        let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(fleet.radio)))
        var events = central.events.makeAsyncIterator()
        let peripherals = try await fleet.discover(from: central)
        var counters: [Characteristic] = []
        var commands: [Characteristic] = []
        var streams: [AsyncThrowingStream<Data, any Error>] = []
        for (member, peripheral) in zip(fleet.members, peripherals) {
            try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
            guard case .connected = await events.next() else { throw TestSensorError.stopped }
            let characteristics = try await peripheral.fleetCharacteristics()
            counters.append(try #require(characteristics[PeripheralFleet.counter]))
            commands.append(try #require(characteristics[PeripheralFleet.command]))
            streams.append(peripheral.notifications(for: counters[member.index]))
            var subscriptions = member.subscriptions.makeAsyncIterator()
            try await peripheral.setNotifyValue(true, for: counters[member.index])
            guard case .subscribed = await subscriptions.next() else { throw TestSensorError.stopped }
        }

        // Member 1 leaves a read pending; every member sends; then member 1's link is cancelled.
        let dropped = 1, gone = peripherals[dropped], goneCommand = commands[dropped]
        fleet.members[dropped].holdReads()
        var held = fleet.members[dropped].heldReads.makeAsyncIterator()
        let pending = Task { try await gone.readValue(for: goneCommand) }
        #expect(await held.next() != nil, "the read reached member 1")
        #expect(gone.pendingCallCount == 1)
        for member in fleet.members { await member.send(5) }
        var goneValues = streams[dropped].makeAsyncIterator()
        #expect(try await goneValues.next() == Data([UInt8(dropped), 0]))
        var droppedSubscriptions = fleet.members[dropped].subscriptions.makeAsyncIterator()
        await central.cancelPeripheralConnection(gone)

        await #expect(throws: BLEError.disconnected(.connectionTerminatedByLocalHost)) { try await pending.value }
        // The values sent before the end may still be read; then the stream throws the same error.
        var afterEnd: [Data] = []
        do {
            while let value = try await goneValues.next() { afterEnd.append(value) }
            Issue.record("member 1's stream finished without an error")
        } catch {
            #expect(error as? BLEError == .disconnected(.connectionTerminatedByLocalHost))
        }
        #expect(afterEnd == Array((1..<5).map { Data([UInt8(dropped), UInt8($0)]) }.prefix(afterEnd.count)))
        guard case .disconnected(let peripheral, let error) = await events.next() else { throw TestSensorError.stopped }
        #expect(peripheral === gone)
        #expect(error == nil, "asked for: no error")
        guard case .unsubscribed = await droppedSubscriptions.next() else { throw TestSensorError.stopped }
        #expect(!counters[dropped].isNotifying)
        await #expect(throws: BLEError.notConnected) { try await gone.readValue(for: goneCommand) }

        // The others lost nothing and go on, all at once.
        let others = fleet.members.indices.filter { $0 != dropped }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in others {
                let (member, peripheral, command, stream) = (fleet.members[index], peripherals[index], commands[index], streams[index])
                group.addTask {
                    let sending = Task { await member.send(20, from: 5) }
                    #expect(try await peripheral.readValue(for: command) == Data("reply \(index)".utf8))
                    var received: [Data] = []
                    for try await value in stream {
                        received.append(value)
                        if received.count == 25 { break }
                    }
                    #expect(received == (0..<25).map { Data([UInt8(index), UInt8($0)]) }, "member \(index)'s values, all, in order, and only its")
                    await sending.value
                }
            }
            try await group.waitForAll()
        }
        #expect(Set(central.retrieveConnectedPeripherals(withServices: [])) == Set(others.map { peripherals[$0] }))

        // The dropped one connects again beside them.
        try await central.connect(gone, options: ConnectOptions(timeout: .seconds(20)))
        let again = try await gone.fleetCharacteristics()
        #expect(try await gone.readValue(for: try #require(again[PeripheralFleet.name])) == Data("member 1".utf8))
        #expect(Set(central.retrieveConnectedPeripherals(withServices: [PeripheralFleet.service])) == Set(peripherals))
        await central.close()
        await fleet.shutDown()
    }

    @Test("one of four sensors going out of range ends its link with Connection Timeout and its calls with it; the other three keep notifying and answering")
    func oneOutOfRange() async throws {
        let radio = VirtualRadio(seed: 113, timing: .paced(speed: 50))
        let gatt = try TestDatabase()
        var sensors: [TestSensor] = []
        for index in 0..<4 {
            sensors.append(try await TestSensor.start(on: radio, database: gatt.database, advertisingData: [
                .localName(ADLocalName(bytes: Array("Sensor \(index)".utf8))),
            ]))
        }
        let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(radio)))
        let peripherals = central.retrievePeripherals(withIdentifiers: sensors.map(\.identifier))
        #expect(peripherals.count == 4)
        var streams: [AsyncThrowingStream<Data, any Error>] = []
        for (sensor, peripheral) in zip(sensors, peripherals) {
            async let link = sensor.nextLink()
            try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
            _ = try await link
            let heartRate = try #require(try await peripheral.discoverServices([TestDatabase.heartRate]).first)
            _ = try await peripheral.discoverCharacteristics(for: heartRate)
            let measurement = try peripheral.characteristic(TestDatabase.measurement)
            streams.append(peripheral.notifications(for: measurement))
            try await peripheral.setNotifyValue(true, for: measurement)
        }
        let handle = gatt.valueHandle(TestDatabase.measurement)

        // Sensor 2 withholds a read, then leaves the radio's range.
        let lost = 2
        let location = try peripherals[lost].characteristic(TestDatabase.bodySensorLocation)
        let held = sensors[lost].hold { $0.first == 0x0A }         // ATT_READ_REQ
        let pending = Task { [peripheral = peripherals[lost]] in try await peripheral.readValue(for: location) }
        #expect(await held.reached()?.first == 0x0A)
        sensors[lost].controller.setInRange(false)

        // Meanwhile the others notify and answer, concurrently.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in sensors.indices where index != lost {
                let (sensor, peripheral, stream) = (sensors[index], peripherals[index], streams[index])
                group.addTask {
                    for beat in 0..<10 {
                        let report = try await sensor.server.notify([0x00, UInt8(100 + 10 * index + beat)], for: handle)
                        #expect(report.delivered.count == 1)
                    }
                    var received: [Data] = []
                    for try await value in stream {
                        received.append(value)
                        if received.count == 10 { break }
                    }
                    #expect(received == (0..<10).map { Data([0x00, UInt8(100 + 10 * index + $0)]) }, "sensor \(index)'s alone")
                    let location = try peripheral.characteristic(TestDatabase.bodySensorLocation)
                    #expect(try await peripheral.readValue(for: location) == Data([0x01]))
                }
            }
            try await group.waitForAll()
        }

        await #expect(throws: BLEError.disconnected(.connectionTimeout)) { try await pending.value }
        var lostValues = streams[lost].makeAsyncIterator()
        await #expect(throws: BLEError.disconnected(.connectionTimeout)) { _ = try await lostValues.next() }
        #expect(peripherals[lost].state == .disconnected)
        for index in sensors.indices where index != lost {
            #expect(peripherals[index].state == .connected)
            let location = try peripherals[index].characteristic(TestDatabase.bodySensorLocation)
            #expect(try await peripherals[index].readValue(for: location) == Data([0x01]))
        }
        await central.close()
        radio.shutDown()
    }
}
