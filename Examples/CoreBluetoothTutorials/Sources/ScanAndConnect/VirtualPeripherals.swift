// The peripherals this example finds when it runs on the virtual radio: two peripheral managers
// on the radio's own controllers, as two devices in the room would be.

import BLE
import Foundation

/// Starts a heart-rate sensor ("LinuxBLE HR", advertising the Heart Rate service 180D) and a
/// thermometer ("LinuxBLE Thermometer", advertising Health Thermometer 1809) on `radio`, and
/// returns once both advertise. Keep the managers: releasing one ends its device.
func startVirtualPeripherals(on radio: VirtualRadio) async throws -> [PeripheralManager] {
    // The thermometer first, so that the scan hears a peripheral its filter leaves out.
    let thermometer = try await poweredOn(PeripheralManager(transport: .virtual(radio)))
    let temperature = MutableService(type: BluetoothUUID("1809")!, primary: true)
    temperature.characteristics = [
        // Temperature Measurement: indicated (Health Thermometer Service, 3.1).
        MutableCharacteristic(type: BluetoothUUID("2A1C")!, properties: [.indicate], value: nil, permissions: []),
    ]
    try await thermometer.add(temperature)
    try await thermometer.startAdvertising(AdvertisementData(localName: "LinuxBLE Thermometer", serviceUUIDs: [temperature.uuid]))

    let sensor = try await poweredOn(PeripheralManager(transport: .virtual(radio)))
    let heartRate = MutableService(type: BluetoothUUID("180D")!, primary: true)
    heartRate.characteristics = [
        // Heart Rate Measurement: notified (Heart Rate Service, 3.1).
        MutableCharacteristic(type: BluetoothUUID("2A37")!, properties: [.notify], value: nil, permissions: []),
        // Body Sensor Location: 0x01, chest (3.2); a static value, answered by the stack.
        MutableCharacteristic(type: BluetoothUUID("2A38")!, properties: [.read], value: Data([0x01]), permissions: [.readable]),
    ]
    try await sensor.add(heartRate)
    try await sensor.startAdvertising(AdvertisementData(localName: "LinuxBLE HR", serviceUUIDs: [heartRate.uuid]))
    return [thermometer, sensor]
}

/// `manager`, once it is powered on.
func poweredOn(_ manager: PeripheralManager) async throws(BLEError) -> PeripheralManager {
    for await state in manager.stateUpdates where state != .unknown {
        guard state == .poweredOn else { throw .unsupported("the peripheral manager is \(state)") }
        return manager
    }
    throw .poweredOff
}
