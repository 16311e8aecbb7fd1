// The sensor this example subscribes to when it runs on the virtual radio: a peripheral manager
// on the radio's own controller with three characteristics that notify or indicate.

import BLE
import Foundation

/// Starts the sensor on `radio`, advertising "LinuxBLE Sensor" with the Heart Rate service. Every
/// 100 ms of the radio's time it sends the next value of each characteristic a central is
/// subscribed to, counting from each subscription:
///
/// - Heart Rate Measurement (180D, notify): 60, 61, 62, ... bpm (flags 0x00, then a uint8;
///   Heart Rate Service, 3.1);
/// - Battery Level (180F, notify): 100, 99, 98, ... %;
/// - Temperature Measurement (1809, indicate): 36.6, 36.7, ... °C (flags 0x00, then an IEEE
///   11073 32-bit FLOAT, exponent -1; Health Thermometer Service, 3.1).
///
/// Keep the manager: releasing it ends the sensor.
func startVirtualSensor(on radio: VirtualRadio) async throws -> PeripheralManager {
    let manager = PeripheralManager(transport: .virtual(radio))
    for await state in manager.stateUpdates where state != .unknown {
        guard state == .poweredOn else { throw BLEError.unsupported("the sensor's manager is \(state)") }
        break
    }
    let measurement = MutableCharacteristic(type: BluetoothUUID("2A37")!, properties: [.notify], value: nil, permissions: [])
    let level = MutableCharacteristic(type: BluetoothUUID("2A19")!, properties: [.read, .notify], value: Data([100]), permissions: [.readable])
    let temperature = MutableCharacteristic(type: BluetoothUUID("2A1C")!, properties: [.indicate], value: nil, permissions: [])
    for (uuid, characteristic) in [("180D", measurement), ("180F", level), ("1809", temperature)] {
        let service = MutableService(type: BluetoothUUID(uuid)!, primary: true)
        service.characteristics = [characteristic]
        try await manager.add(service)
    }
    // The n-th value (from 0) of each characteristic since a subscription.
    let values: [MutableCharacteristic: @Sendable (Int) -> Data] = [
        measurement: { Data([0x00, UInt8(60 + $0 % 100)]) },
        level: { Data([UInt8(max(0, 100 - $0))]) },
        temperature: { let mantissa = 366 + $0; return Data([0x00, UInt8(mantissa & 0xFF), UInt8(mantissa >> 8 & 0xFF), 0x00, 0xFF]) },
    ]
    // One sender per subscription, stopped when the central unsubscribes (or its link drops).
    Task {
        var senders: [Subscription: Task<Void, Never>] = [:]
        for await event in manager.subscriptions {
            switch event {
            case .subscribed(let central, let characteristic):
                guard let value = values[characteristic] else { continue }
                senders[Subscription(central: central, characteristic: characteristic)] = Task {
                    var count = 0
                    // Ends when cancelled or when the radio stops (the clock's sleep throws).
                    while (try? await radio.clock.sleep(for: .milliseconds(100))) != nil {
                        if manager.updateValue(value(count), for: characteristic, onSubscribedCentrals: [central]) { count += 1 }
                    }
                }
            case .unsubscribed(let central, let characteristic):
                senders.removeValue(forKey: Subscription(central: central, characteristic: characteristic))?.cancel()
            }
        }
    }
    try await manager.startAdvertising(AdvertisementData(localName: "LinuxBLE Sensor", serviceUUIDs: [BluetoothUUID("180D")!]))
    return manager
}

/// One central's subscription to one characteristic.
struct Subscription: Hashable {
    let central: Central
    let characteristic: MutableCharacteristic
}
