// A connection class written with async/await, as tutorials write one around Core Bluetooth:
// there, each delegate callback resumes a stored continuation; here every call of the API is
// async already, so the class holds what the app needs (the peripheral and its characteristics)
// and speaks the app's language (bpm, a sensor location) instead of octets.

import BLE
import Foundation

/// A connection to a heart-rate sensor (the Heart Rate service, 180D). An actor: any task may
/// call it, and its calls run one at a time.
actor HeartRateConnection {
    static let heartRateService = BluetoothUUID("180D")!
    static let measurementUUID = BluetoothUUID("2A37")!
    static let locationUUID = BluetoothUUID("2A38")!
    static let controlPointUUID = BluetoothUUID("2A39")!

    let central: CentralManager
    /// The sensor, once found; the same object on every connection to it.
    private(set) var peripheral: Peripheral?
    private var characteristics: [BluetoothUUID: Characteristic] = [:]

    init(central: CentralManager) {
        self.central = central
    }

    /// Scans for a heart-rate sensor for at most `scanTimeout`, connects to the first found, and
    /// discovers its Heart Rate characteristics.
    ///
    /// - Returns: the sensor, also kept as ``peripheral``.
    /// - Throws: `BLEError.connectionTimeout` when none is heard in time (the scan stops); what
    ///   the scan throws (why the manager is not powered on); what connecting and discovering throw.
    func connect(scanningFor scanTimeout: Duration) async throws(BLEError) -> Peripheral {
        let scan = central.scanForPeripherals(withServices: [Self.heartRateService])
        // The first of two tasks to finish wins: the scan (its first discovery, or its error), or
        // the timer. The other is cancelled; a cancelled iteration of the scan stops the scan.
        let first = await withTaskGroup(of: Result<Peripheral, BLEError>.self) { group in
            group.addTask {
                do {
                    for try await discovery in scan { return .success(discovery.peripheral) }
                    return .failure(.cancelled)                       // stopped before it found one
                } catch {
                    return .failure(error as? BLEError ?? .cancelled)
                }
            }
            group.addTask {
                try? await Task.sleep(for: scanTimeout)
                return .failure(.connectionTimeout)
            }
            let first = await group.next() ?? .failure(.cancelled)
            group.cancelAll()
            return first
        }
        let found = try first.get()
        try await connect(found, timeout: .seconds(10))
        return found
    }

    /// Connects to the sensor known by `identifier` (saved from ``peripheral`` on an earlier run,
    /// say) without scanning, and discovers its Heart Rate characteristics.
    ///
    /// - Throws: `BLEError.connectionTimeout` after `timeout` when it is not in range; else what
    ///   connecting and discovering throw.
    func reconnect(to identifier: UUID, timeout: Duration = .seconds(10)) async throws(BLEError) {
        guard let known = central.retrievePeripherals(withIdentifiers: [identifier]).first else {
            throw .invalidArgument("\(identifier) names no Bluetooth address")
        }
        try await connect(known, timeout: timeout)
    }

    private func connect(_ sensor: Peripheral, timeout: Duration) async throws(BLEError) {
        try await central.connect(sensor, options: ConnectOptions(timeout: timeout))
        peripheral = sensor
        // A new connection has a new attribute tree: what was discovered on an earlier one is gone.
        guard let service = try await sensor.discoverServices([Self.heartRateService]).first else {
            throw .serviceNotFound(Self.heartRateService)
        }
        let found = try await sensor.discoverCharacteristics(nil, for: service)
        characteristics = Dictionary(found.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Where the sensor sits (Body Sensor Location, Heart Rate Service, 3.2).
    func bodySensorLocation() async throws(BLEError) -> String {
        let value = try await peripheral(reading: Self.locationUUID)
        let names = ["other", "chest", "wrist", "finger", "hand", "ear lobe", "foot"]
        guard let code = value.first else { throw .protocolError("an empty Body Sensor Location") }
        return Int(code) < names.count ? names[Int(code)] : "location \(code)"
    }

    /// Subscribes to the Heart Rate Measurement and returns the heart rates, in bpm. The stream
    /// throws `BLEError.disconnected(reason)` when the link drops: a subscription lasts for
    /// one connection, so after reconnecting, call this again.
    func heartRates() async throws(BLEError) -> AsyncThrowingStream<Int, any Error> {
        let (sensor, measurement) = try characteristic(Self.measurementUUID)
        let values = sensor.notifications(for: measurement)
        try await sensor.setNotifyValue(true, for: measurement)
        let (rates, input) = AsyncThrowingStream.makeStream(of: Int.self, throwing: (any Error).self)
        let pump = Task {
            do {
                for try await value in values { if let rate = Self.beatsPerMinute(in: value) { input.yield(rate) } }
                input.finish()
            } catch {
                input.finish(throwing: error)
            }
        }
        input.onTermination = { _ in pump.cancel() }
        return rates
    }

    /// Resets the sensor's Energy Expended: writes 0x01 to the Heart Rate Control Point (3.3),
    /// with a response, so that the sensor's refusal would throw.
    func resetEnergyExpended() async throws(BLEError) {
        let (sensor, controlPoint) = try characteristic(Self.controlPointUUID)
        try await sensor.writeValue(Data([0x01]), for: controlPoint, type: .withResponse)
    }

    /// Ends the connection; returns once it has ended.
    func disconnect() async {
        guard let peripheral else { return }
        await central.cancelPeripheralConnection(peripheral)
    }

    private func peripheral(reading uuid: BluetoothUUID) async throws(BLEError) -> Data {
        let (sensor, characteristic) = try characteristic(uuid)
        return try await sensor.readValue(for: characteristic)
    }

    private func characteristic(_ uuid: BluetoothUUID) throws(BLEError) -> (Peripheral, Characteristic) {
        guard let peripheral else { throw .notConnected }
        guard let characteristic = characteristics[uuid] else { throw .characteristicNotFound(uuid) }
        return (peripheral, characteristic)
    }

    /// The heart rate in a Heart Rate Measurement value: flags, then a uint8 or (flags bit 0) a
    /// little-endian uint16, in bpm (Heart Rate Service, 3.1.1); nil when too short.
    static func beatsPerMinute(in value: Data) -> Int? {
        let octets = [UInt8](value)
        guard let flags = octets.first else { return nil }
        if flags & 0x01 == 0 { return octets.count >= 2 ? Int(octets[1]) : nil }
        return octets.count >= 3 ? Int(octets[1]) | Int(octets[2]) << 8 : nil
    }
}
