@testable import BLE
import BLECore
import Foundation
import GATT
import HCI
import Host
import Testing
import VirtualRadio

/// Managers whose controller reports a Hardware Error (Core v5.4, Vol 4, Part E, 7.7.16) come
/// back on it once it is reset and brought up again: the central with a restore identifier
/// reconnects and resubscribes what it had, the peripheral manager serves and advertises again
/// from the same address.
@Suite("Recovery after a controller reset", .timeLimit(.minutes(1)))
struct ResetRecoveryTests {
    @Test("a central with a restore identifier reconnects its peripheral after the reset, resubscribes, and its notifications flow again")
    func centralReconnectsAndResubscribes() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let rig = try await ServedController.make(seed: 151)
        let central = try await rig.central(options: directory.options("gateway"))
        var events = central.events.makeAsyncIterator()
        let peripheral = central.retrievePeripherals(withIdentifiers: [rig.sensor.identifier])[0]
        try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
        guard case .connected = await events.next() else { throw TestSensorError.stopped }
        for service in try await peripheral.discoverServices() {
            for characteristic in try await peripheral.discoverCharacteristics(for: service) {
                _ = try await peripheral.discoverDescriptors(for: characteristic)
            }
        }
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)
        try await peripheral.setNotifyValue(true, for: level)
        let before = peripheral.notifications(for: level)
        await central.stateWritten()

        var states = central.stateUpdates.makeAsyncIterator()
        #expect(await states.next() == .poweredOn)
        rig.served.injectHardwareError(code: 0x03)
        #expect(await states.next() == .resetting)
        #expect(await states.next() == .poweredOn)
        guard case .disconnected(let dropped, let error) = await events.next() else { throw TestSensorError.stopped }
        #expect(dropped === peripheral)
        #expect(error == .disconnected(.hardwareFailure))
        await #expect(throws: BLEError.disconnected(.hardwareFailure)) { for try await _ in before {} }

        // The sensor's side of the old link times out (the reset silenced the central's), it
        // advertises again, and the central's restoration takes it back without a scan.
        guard case .connected(let back) = await events.next() else {
            Issue.record("the event after the reset's disconnection is not connected")
            return
        }
        #expect(back === peripheral)
        #expect(!central.isScanning)
        // The tree is the state file's (its objects new, its handles the same).
        let restored = try peripheral.characteristic(TestDatabase.batteryLevel)
        #expect(restored.valueHandle == level.valueHandle)
        #expect(restored.isNotifying, "resubscribed by restoration")
        let after = peripheral.notifications(for: restored)
        _ = try await rig.sensor.server.notify([77], for: rig.gatt.valueHandle(TestDatabase.batteryLevel))
        var iterator = after.makeAsyncIterator()
        #expect(try await iterator.next() == Data([77]))
        #expect(central.restorationProblems.isEmpty)
        await central.close()
        await rig.close()
    }

    @Test("a peripheral manager serves its services again after the reset and advertises again from the same address; a central connects and reads")
    func peripheralManagerAdvertisesAgain() async throws {
        let rig = try await ServedController.make(seed: 152)
        let manager = PeripheralManager(transport: rig.transport)
        var states = manager.stateUpdates.makeAsyncIterator()
        while let state = await states.next(), state != .poweredOn { #expect(state == .unknown) }
        let serviceUUID = BluetoothUUID("5E770300-0B0C-4D0E-8F10-111213141516")!
        let valueUUID = BluetoothUUID("5E770301-0B0C-4D0E-8F10-111213141516")!
        let service = MutableService(type: serviceUUID, primary: true)
        service.characteristics = [MutableCharacteristic(type: valueUUID, properties: [.read], value: Data("kept".utf8), permissions: [.readable])]
        try await manager.add(service)
        try await manager.startAdvertising(AdvertisementData(localName: "Kept", serviceUUIDs: [serviceUUID]))

        let radio = rig.radio
        let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(radio)))
        let first = try await Self.find(serviceUUID, with: central)

        rig.served.injectHardwareError(code: 0x04)
        #expect(await states.next() == .resetting)
        #expect(await states.next() == .poweredOn)
        #expect(manager.isAdvertising)

        let again = try await Self.find(serviceUUID, with: central)
        #expect(again.identifier == first.identifier, "the same static random address, so the same peripheral")
        try await central.connect(again, options: ConnectOptions(timeout: .seconds(20)))
        let found = try #require(try await again.discoverServices([serviceUUID]).first)
        let characteristic = try #require(try await again.discoverCharacteristics([valueUUID], for: found).first)
        #expect(try await again.readValue(for: characteristic) == Data("kept".utf8))
        await central.close()
        await manager.close()
        await rig.close()
    }

    /// The first peripheral `central` discovers listing `service`.
    static func find(_ service: BluetoothUUID, with central: CentralManager) async throws -> Peripheral {
        for try await discovery in central.scanForPeripherals(withServices: [service]) { return discovery.peripheral }
        throw TestSensorError.stopped
    }
}
