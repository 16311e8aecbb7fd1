@testable import BLE
import BLECore
import Foundation
import HCI
import Testing
import VirtualRadio
import BLETestSupport

/// Connecting and disconnecting: events, timeouts, cancellation, retrieval by identifier.
@Suite("Connecting", .timeLimit(.minutes(1)))
struct ConnectingTests {
    @Test("connect reports connected with the exchanged MTU; cancelPeripheralConnection reports disconnected without an error")
    func connectAndCancel() async throws {
        let testbed = try await BLETestbed.make(seed: 41)
        var events = testbed.central.events.makeAsyncIterator()
        let (peripheral, link) = try await testbed.connect()
        guard case .connected(let connected) = await events.next() else { throw TestSensorError.stopped }
        #expect(connected === peripheral)
        #expect(peripheral.state == .connected)
        #expect(peripheral.mtu == 517)
        #expect(peripheral.maximumWriteValueLength(for: .withoutResponse) == 514)
        #expect(peripheral.maximumWriteValueLength(for: .withResponse) == 512)
        #expect(peripheral.canSendWriteWithoutResponse)
        #expect(testbed.central.retrieveConnectedPeripherals(withServices: []) == [peripheral])
        _ = try await peripheral.discoverServices([TestDatabase.heartRate])
        #expect(testbed.central.retrieveConnectedPeripherals(withServices: [TestDatabase.heartRate]) == [peripheral])
        #expect(testbed.central.retrieveConnectedPeripherals(withServices: [TestDatabase.battery]).isEmpty)

        try await testbed.central.connect(peripheral)   // already connected: returns at once
        await testbed.central.cancelPeripheralConnection(peripheral)
        #expect(peripheral.state == .disconnected)
        guard case .disconnected(let gone, let error) = await events.next() else { throw TestSensorError.stopped }
        #expect(gone === peripheral)
        #expect(error == nil)
        #expect(await link.disconnected() == .remoteUserTerminatedConnection)
        #expect(peripheral.services == nil)
        #expect(peripheral.mtu == 23)
        await #expect(throws: BLEError.notConnected) { try await peripheral.discoverServices() }
        await #expect(throws: BLEError.notConnected) { try await peripheral.readRSSI() }
        await testbed.shutDown()
    }

    @Test("a connect to a device that never advertises times out after ConnectOptions.timeout, and the next connect works")
    func connectTimesOut() async throws {
        #expect(ConnectOptions().timeout == .seconds(30))
        let testbed = try await BLETestbed.make(seed: 42)
        let absent = testbed.central.retrievePeripherals(withIdentifiers: [
            Peripheral.identifier(for: BluetoothAddress("C1:02:03:04:05:06")!, type: .random),
        ])[0]
        let started = testbed.radio.now
        await #expect(throws: BLEError.connectionTimeout) {
            try await testbed.central.connect(absent, options: ConnectOptions(timeout: .seconds(3)))
        }
        #expect(testbed.radio.now - started >= .seconds(3), "the timeout runs on the radio's clock")
        #expect(absent.state == .disconnected)
        let (peripheral, _) = try await testbed.connect()
        #expect(peripheral.state == .connected)
        await testbed.shutDown()
    }

    @Test("cancelling the connecting task cancels the attempt at the controller and throws cancelled")
    func connectCancelled() async throws {
        let testbed = try await BLETestbed.make(seed: 43)
        let absent = testbed.central.retrievePeripherals(withIdentifiers: [
            Peripheral.identifier(for: BluetoothAddress("C1:02:03:04:05:07")!, type: .random),
        ])[0]
        let attempt = Task { try await testbed.central.connect(absent, options: ConnectOptions(timeout: .seconds(3600))) }
        attempt.cancel()
        await #expect(throws: BLEError.cancelled) { try await attempt.value }
        #expect(absent.state == .disconnected)
        let (peripheral, _) = try await testbed.connect()
        #expect(peripheral.state == .connected)
        await testbed.shutDown()
    }

    @Test("cancelling a connect whose ATT MTU exchange the peer leaves unanswered ends it at once: the link is terminated, no 30 s wait")
    func connectCancelledDuringMTUExchange() async throws {
        let testbed = try await BLETestbed.make(seed: 44)
        let held = testbed.sensor.hold { $0.first == 0x02 }          // ATT_EXCHANGE_MTU_REQ, never answered
        async let sensorLink = testbed.sensor.nextLink()
        let peripheral = testbed.peripheral
        let attempt = Task { try await testbed.central.connect(peripheral, options: ConnectOptions(timeout: .seconds(3600))) }
        _ = await held.reached()
        let cancelled = testbed.radio.now
        attempt.cancel()
        await #expect(throws: BLEError.cancelled) { try await attempt.value }
        #expect(testbed.radio.now - cancelled < .seconds(30), "ended with the link, not at the ATT timeout")
        #expect(peripheral.state == .disconnected)
        #expect(await (try sensorLink).disconnected() == .remoteUserTerminatedConnection)
        testbed.sensor.release()
        _ = try await testbed.connect()
        #expect(peripheral.state == .connected)
        await testbed.shutDown()
    }

    @Test("ConnectOptions.timeout bounds the whole connect: an MTU exchange left unanswered ends it with connectionTimeout")
    func connectTimesOutDuringMTUExchange() async throws {
        let testbed = try await BLETestbed.make(seed: 45)
        _ = testbed.sensor.hold { $0.first == 0x02 }
        let started = testbed.radio.now
        await #expect(throws: BLEError.connectionTimeout) {
            try await testbed.central.connect(testbed.peripheral, options: ConnectOptions(timeout: .seconds(4)))
        }
        let elapsed = testbed.radio.now - started
        #expect(elapsed >= .seconds(4) && elapsed < .seconds(30), "\(elapsed)")
        #expect(testbed.peripheral.state == .disconnected)
        await testbed.shutDown()
    }

    @Test("a connect made while another attempts keeps its own timeout and cancellation, and leaves that attempt alone")
    func joiningConnectKeepsItsOwnBounds() async throws {
        let testbed = try await BLETestbed.make(seed: 46)
        let absent = testbed.central.retrievePeripherals(withIdentifiers: [
            Peripheral.identifier(for: BluetoothAddress("C1:02:03:04:05:08")!, type: .random),
        ])[0]
        let first = Task { try await testbed.central.connect(absent, options: ConnectOptions(timeout: .seconds(3600))) }
        #expect(await eventually { absent.state == .connecting })
        let started = testbed.radio.now
        await #expect(throws: BLEError.connectionTimeout) {
            try await testbed.central.connect(absent, options: ConnectOptions(timeout: .seconds(2)))
        }
        #expect(testbed.radio.now - started >= .seconds(2))
        let third = Task { try await testbed.central.connect(absent, options: ConnectOptions(timeout: .seconds(3600))) }
        third.cancel()
        await #expect(throws: BLEError.cancelled) { try await third.value }
        #expect(absent.state == .connecting, "the first attempt goes on")
        first.cancel()
        await #expect(throws: BLEError.cancelled) { try await first.value }
        #expect(absent.state == .disconnected)
        await testbed.shutDown()
    }

    @Test("an identifier is the address's seven octets in a version-8 UUID: stable, reversible, retrieved without scanning")
    func identifiers() async throws {
        let address = BluetoothAddress("EA:59:24:0E:82:34")!
        let random = Peripheral.identifier(for: address, type: .random)
        #expect(random.uuidString == "4C696E42-4C45-8000-8001-EA59240E8234")
        #expect(Peripheral.identifier(for: address, type: .public).uuidString == "4C696E42-4C45-8000-8000-EA59240E8234")
        #expect(Peripheral.identity(of: random)?.address == address)
        #expect(Peripheral.identity(of: random)?.type == .random)

        let testbed = try await BLETestbed.make(seed: 44)
        let retrieved = testbed.central.retrievePeripherals(withIdentifiers: [UUID(), testbed.sensor.identifier, testbed.sensor.identifier])
        #expect(retrieved.count == 2, "a UUID that names no address is skipped")
        #expect(retrieved[0] === retrieved[1], "one object per device")
        #expect(retrieved[0].address == testbed.sensor.address)
        let (peripheral, link) = try await testbed.connect()
        #expect(peripheral === retrieved[0])
        #expect(link.peerAddress != testbed.sensor.address, "the sensor sees the central's address")
        let other = CentralManager(transport: .virtual(testbed.radio))
        #expect(other.retrievePeripherals(withIdentifiers: [testbed.sensor.identifier])[0].identifier == peripheral.identifier)
        await other.close()
        await testbed.shutDown()
    }

    @Test("the peripheral ending the link: events carry its reason, the tree is gone, old attributes are refused after reconnecting")
    func peripheralDisconnects() async throws {
        let testbed = try await BLETestbed.make(seed: 45)
        var events = testbed.central.events.makeAsyncIterator()
        let (peripheral, link) = try await testbed.connectAndDiscover()
        _ = await events.next()
        let battery = try peripheral.characteristic(TestDatabase.batteryLevel)
        #expect(try await peripheral.readValue(for: battery) == Data([0x64]))
        try await link.disconnect(reason: .remoteDeviceTerminatedPowerOff)
        guard case .disconnected(let gone, let error) = await events.next() else { throw TestSensorError.stopped }
        #expect(gone === peripheral)
        #expect(error == .disconnected(.remoteDeviceTerminatedPowerOff))
        #expect(peripheral.state == .disconnected)
        #expect(peripheral.services == nil)
        #expect(!battery.isNotifying)

        _ = try await testbed.connect()
        await #expect(throws: BLEError.characteristicNotFound(TestDatabase.batteryLevel)) { try await peripheral.readValue(for: battery) }
        let fresh = try #require(try await peripheral.discoverServices([TestDatabase.battery]).first)
        let level = try #require(try await peripheral.discoverCharacteristics(for: fresh).first)
        #expect(try await peripheral.readValue(for: level) == Data([0x64]))
        await testbed.shutDown()
    }

    @Test("an attribute discovered through another manager is refused with characteristicNotFound, not used at its handle on this manager's peripheral")
    func attributeOfAnotherManagerIsRefused() async throws {
        let testbed = try await BLETestbed.make(seed: 162)
        let (first, _) = try await testbed.connectAndDiscover()
        let control = try first.characteristic(TestDatabase.controlPoint)
        let otherDatabase = try TestDatabase()
        let otherSensor = try await TestSensor.start(on: testbed.radio, database: otherDatabase.database, advertisingData: [
            .localName(ADLocalName(bytes: Array("Other".utf8))),
        ])
        let otherCentral = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(testbed.radio)))
        let second = otherCentral.retrievePeripherals(withIdentifiers: [otherSensor.identifier])[0]
        async let link = otherSensor.nextLink()
        try await otherCentral.connect(second, options: ConnectOptions(timeout: .seconds(20)))
        _ = try await link
        await #expect(throws: BLEError.characteristicNotFound(TestDatabase.controlPoint)) {
            try await second.writeValue(Data([0x01]), for: control, type: .withResponse)
        }
        #expect(otherDatabase.controlLog.values.isEmpty, "nothing was written on the other sensor")
        await otherCentral.close()
        await testbed.shutDown()
    }

    @Test("a connect made while the old link is being ended waits within its own cancellation and timeout, not until the link's supervision timeout")
    func connectWhileDisconnectingHonoursCancellationAndTimeout() async throws {
        let testbed = try await BLETestbed.make(seed: 163)
        let (peripheral, _) = try await testbed.connect()
        testbed.sensor.controller.setInRange(false)   // LL_TERMINATE_IND goes unanswered: the link ends at its 4 s supervision timeout
        let ending = Task { await testbed.central.cancelPeripheralConnection(peripheral) }
        #expect(await eventually { peripheral.state == .disconnecting })
        let cancelled = Task { try await testbed.central.connect(peripheral, options: ConnectOptions(timeout: .seconds(30))) }
        cancelled.cancel()
        await #expect(throws: BLEError.cancelled) { try await cancelled.value }
        #expect(peripheral.state == .disconnecting, "it ended before the old link did")
        let timed = Task { try await testbed.central.connect(peripheral, options: ConnectOptions(timeout: .milliseconds(500))) }
        await #expect(throws: BLEError.connectionTimeout) { try await timed.value }
        #expect(peripheral.state == .disconnecting, "it ended before the old link did")
        await ending.value
        #expect(peripheral.state == .disconnected)
        await testbed.shutDown()
    }

    @Test("readRSSI gives the link's signal strength in dBm")
    func rssi() async throws {
        let testbed = try await BLETestbed.make(seed: 46)
        let (peripheral, _) = try await testbed.connect()
        let rssi = try await peripheral.readRSSI()
        #expect((-63...(-57)).contains(rssi), "the radio's -60 dBm with its ±3 dBm jitter: \(rssi)")
        await testbed.shutDown()
    }
}
