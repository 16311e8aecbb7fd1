// The sensor this example explores when it runs on the virtual radio: a peripheral manager on
// the radio's own controller with Device Information, Heart Rate and Battery services.

import BLE
import Foundation

/// Starts the sensor on `radio`, advertising "LinuxBLE Sensor" with the Heart Rate service, and
/// returns once it advertises. When a central subscribes, it sends three heart-rate measurements
/// (72, 73, 74 bpm) or one battery level (86 %). Keep the manager: releasing it ends the sensor.
func startVirtualSensor(on radio: VirtualRadio) async throws -> PeripheralManager {
    let manager = PeripheralManager(transport: .virtual(radio))
    for await state in manager.stateUpdates where state != .unknown {
        guard state == .poweredOn else { throw BLEError.unsupported("the sensor's manager is \(state)") }
        break
    }
    // Static values: the stack answers their reads.
    let information = MutableService(type: BluetoothUUID("180A")!, primary: true)
    information.characteristics = [
        MutableCharacteristic(type: BluetoothUUID("2A29")!, properties: [.read], value: Data("LinuxBLE".utf8), permissions: [.readable]),
        MutableCharacteristic(type: BluetoothUUID("2A24")!, properties: [.read], value: Data("Tutorial Sensor".utf8), permissions: [.readable]),
    ]
    // Heart Rate Measurement: flags 0x00 (a uint8 value in bpm), then the value (Heart Rate
    // Service, 3.1). Heart Rate Control Point: written by a central, answered through requests.
    let measurement = MutableCharacteristic(type: BluetoothUUID("2A37")!, properties: [.notify], value: nil, permissions: [])
    let heartRate = MutableService(type: BluetoothUUID("180D")!, primary: true)
    heartRate.characteristics = [
        measurement,
        MutableCharacteristic(type: BluetoothUUID("2A38")!, properties: [.read], value: Data([0x01]), permissions: [.readable]),
        MutableCharacteristic(type: BluetoothUUID("2A39")!, properties: [.write], value: nil, permissions: [.writeable]),
    ]
    // Battery Level, in percent: read (87 %) and notified.
    let level = MutableCharacteristic(type: BluetoothUUID("2A19")!, properties: [.read, .notify], value: Data([87]), permissions: [.readable])
    let battery = MutableService(type: BluetoothUUID("180F")!, primary: true)
    battery.characteristics = [level]
    for service in [information, heartRate, battery] { try await manager.add(service) }

    Task {
        for await event in manager.subscriptions {
            guard case .subscribed(let central, let characteristic) = event else { continue }
            let values = characteristic === measurement ? [72, 73, 74].map { Data([0x00, $0]) } : [Data([86])]
            for value in values { _ = manager.updateValue(value, for: characteristic, onSubscribedCentrals: [central]) }
        }
    }
    Task {
        for await request in manager.requests {
            if case .write(let writes) = request { manager.respond(to: writes[0], withResult: .success) }
        }
    }
    try await manager.startAdvertising(AdvertisementData(localName: "LinuxBLE Sensor", serviceUUIDs: [heartRate.uuid]))
    return manager
}
