// The heart-rate sensor this example connects to when it runs on the virtual radio: a
// peripheral manager on the radio's own controller.

import BLE
import Foundation

/// Starts the sensor on `radio`, advertising "LinuxBLE HR" with the Heart Rate service (180D):
/// its Heart Rate Measurement notifies 70, 71, 72, ... bpm every 100 ms of the radio's time,
/// from 70 again on each subscription; its Body Sensor Location is chest (0x01); its Heart Rate
/// Control Point takes 0x01 (reset Energy Expended) and refuses anything else with Control Point
/// Not Supported (0x80; Heart Rate Service, 3.3.1). Keep the manager: releasing it ends the sensor.
func startVirtualSensor(on radio: VirtualRadio) async throws -> PeripheralManager {
    let manager = PeripheralManager(transport: .virtual(radio))
    for await state in manager.stateUpdates where state != .unknown {
        guard state == .poweredOn else { throw BLEError.unsupported("the sensor's manager is \(state)") }
        break
    }
    let measurement = MutableCharacteristic(type: BluetoothUUID("2A37")!, properties: [.notify], value: nil, permissions: [])
    let heartRate = MutableService(type: BluetoothUUID("180D")!, primary: true)
    heartRate.characteristics = [
        measurement,
        MutableCharacteristic(type: BluetoothUUID("2A38")!, properties: [.read], value: Data([0x01]), permissions: [.readable]),
        MutableCharacteristic(type: BluetoothUUID("2A39")!, properties: [.write], value: nil, permissions: [.writeable]),
    ]
    try await manager.add(heartRate)
    Task {
        for await request in manager.requests {
            guard case .write(let writes) = request else { continue }
            manager.respond(to: writes[0], withResult: writes[0].value == Data([0x01]) ? .success : ATTError.Code(rawValue: 0x80))
        }
    }
    // One sender per subscription, stopped when the central unsubscribes (or its link drops).
    Task {
        var senders: [Central: Task<Void, Never>] = [:]
        for await event in manager.subscriptions {
            switch event {
            case .subscribed(let central, _):
                senders[central] = Task {
                    var rate = 70
                    // Ends when cancelled or when the radio stops (the clock's sleep throws).
                    while (try? await radio.clock.sleep(for: .milliseconds(100))) != nil {
                        if manager.updateValue(Data([0x00, UInt8(rate)]), for: measurement, onSubscribedCentrals: [central]) { rate += 1 }
                    }
                }
            case .unsubscribed(let central, _):
                senders.removeValue(forKey: central)?.cancel()
            }
        }
    }
    try await manager.startAdvertising(AdvertisementData(localName: "LinuxBLE HR", serviceUUIDs: [heartRate.uuid]))
    return manager
}
