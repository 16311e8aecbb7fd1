import BLE
import BLECore
import Foundation
import HCI
import Host
import Testing
import VirtualRadio

/// A virtual radio with a central manager on it and a sensor advertising the test database:
/// the BLE tests' two devices, linked in one call.
struct BLETestbed {
    let radio: VirtualRadio
    let central: CentralManager
    let sensor: TestSensor
    let gatt: TestDatabase

    /// The BLE tests' radio speed: 10 times real time. Timeouts run on the radio's clock, so
    /// ATT's 30 s transaction timer is then 3 s of real time: room for the whole suite running
    /// in parallel on two cores (at 50x, 0.6 s was not, and requests timed out under load).
    static let defaultSpeed = 10.0

    /// The radio (paced at `speed` times real time, ``defaultSpeed`` by default), a central
    /// powered on, and a sensor advertising "Sensor" with the Heart Rate service.
    static func make(seed: UInt64 = 21, speed: Double = BLETestbed.defaultSpeed, options: CentralManager.Options = .init(),
                     sensorConfiguration: VirtualControllerConfiguration = .init()) async throws -> BLETestbed {
        let radio = VirtualRadio(seed: seed, timing: .paced(speed: speed))
        let gatt = try TestDatabase()
        let sensor = try await TestSensor.start(on: radio, database: gatt.database, advertisingData: [
            .localName(ADLocalName(bytes: Array("Sensor".utf8))), .serviceUUIDs(ADUUIDList(uuids16: [0x180D]), isComplete: true),
        ], configuration: sensorConfiguration)
        let central = try await poweredOn(CentralManager(transport: .virtual(radio), options: options))
        return BLETestbed(radio: radio, central: central, sensor: sensor, gatt: gatt)
    }

    /// `central`, once its state is ``ManagerState/poweredOn``.
    static func poweredOn(_ central: CentralManager) async throws -> CentralManager {
        for await state in central.stateUpdates where state != .unknown {
            guard state == .poweredOn else { throw TestSensorError.notPoweredOn(state) }
            return central
        }
        throw TestSensorError.notPoweredOn(central.state)
    }

    /// The sensor as the central's peripheral, retrieved by identifier.
    var peripheral: Peripheral { central.retrievePeripherals(withIdentifiers: [sensor.identifier])[0] }

    /// Connects the sensor, returning the central's peripheral and the sensor's side of the link.
    func connect() async throws -> (peripheral: Peripheral, link: LEConnection) {
        async let link = sensor.nextLink()
        try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
        return (peripheral, try await link)
    }

    /// Connects, then discovers every service and, in each, every characteristic and descriptor.
    func connectAndDiscover() async throws -> (peripheral: Peripheral, link: LEConnection) {
        let connected = try await connect()
        for service in try await connected.peripheral.discoverServices() {
            for characteristic in try await connected.peripheral.discoverCharacteristics(for: service) {
                _ = try await connected.peripheral.discoverDescriptors(for: characteristic)
            }
        }
        return connected
    }

    /// Ends the central and the radio.
    func shutDown() async {
        await central.close()
        radio.shutDown()
    }
}

extension Peripheral {
    /// The discovered service with `uuid`.
    func service(_ uuid: BluetoothUUID) throws -> Service {
        try #require(services?.first { $0.uuid == uuid }, "service \(uuid)")
    }

    /// The discovered characteristic with `uuid`, in any discovered service.
    func characteristic(_ uuid: BluetoothUUID) throws -> Characteristic {
        let all = (services ?? []).flatMap { $0.characteristics ?? [] }
        return try #require(all.first { $0.uuid == uuid }, "characteristic \(uuid)")
    }
}
