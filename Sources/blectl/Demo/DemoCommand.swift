import ATT
import BLE
import BLECore
import Foundation
import GATT
import HCI

/// `blectl demo [--capture FILE] [--speed X] [--db FILE.json]`: the whole stack in host mode on the virtual radio,
/// with no privileges and no Bluetooth hardware, through the BLE API. A heart-rate sensor (a
/// ``PeripheralManager`` on one virtual controller, serving the database and advertising) and a
/// central (a ``CentralManager`` on another) scan, connect, exchange MTU, discover, read Body
/// Sensor Location, subscribe, print ten Heart Rate Measurements, write the Control Point,
/// disconnect, then reconnect with the cached database, which costs one ATT round trip (robust
/// caching, Core v5.4, Vol 3, Part G, 2.5.2).
enum DemoCommand {
    static let usage = """
    usage: blectl demo [--capture FILE] [--speed X] [--db FILE.json]

    Runs a heart-rate sensor and a central in this process, each a LinuxBLE stack in host mode on
    its own virtual controller, on one virtual radio: scanning, connecting, MTU exchange,
    discovery, a read, ten notifications, a write, a disconnection, and a reconnection that takes
    the database from the cache in one ATT round trip.
      --capture FILE  the central's HCI traffic as btsnoop (then: blectl decode FILE)
      --speed X       virtual time runs X times real time (default 20: a second of the sensor's
                      notifications takes 50 ms)
      --db FILE       the sensor's database (default Fixtures/gatt-databases/heart-rate-sensor.json)
    """

    static let name = "LinuxBLE HR"

    static let captureOption = CommandOption.value("--capture", "FILE", takes: "a file path")
    static let speedOption = CommandOption.value("--speed", "X", takes: "a factor, 0 < X <= 10000")
    static let databaseOption = CommandOption.value("--db", "FILE.json", takes: "a file path")
    static let syntax = CommandSyntax(name: "demo", options: [captureOption, speedOption, databaseOption], help: usage)

    static func run(arguments: [String], context: KernelContext, output: inout OutputBuffer) async -> Int32 {
        let parsed: ParsedArguments
        do { parsed = try syntax.parse(arguments, output: &output) } catch { return error.status }
        if let extra = parsed.operands.first { return syntax.usageError("unknown argument '\(extra)'") }
        let capture = parsed.value(of: captureOption) ?? context.capture
        let databasePath = parsed.value(of: databaseOption) ?? "Fixtures/gatt-databases/heart-rate-sensor.json"
        var speed = 20.0
        if let word = parsed.value(of: speedOption) {
            guard let value = Double(word), value > 0, value <= 10_000 else { return syntax.usageError(speedOption.expectation) }
            speed = value
        }
        do {
            try await demo(databasePath: databasePath, capture: capture, speed: speed, output: &output)
            return 0
        } catch {
            printError("blectl demo: \(error)")
            return 1
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private static func demo(databasePath: String, capture: String?, speed: Double, output: inout OutputBuffer) async throws {
        let database: GATTDatabase
        do { database = try GATTDatabase(jsonFile: databasePath) } catch { throw Failure(ServeCommand.databaseFailure(databasePath, error)) }
        output.line("LinuxBLE demo: a heart-rate sensor and a central on the virtual radio (host mode, no Bluetooth hardware)")
        let radio = VirtualRadio(seed: 2026, timing: .paced(speed: speed))
        defer { radio.shutDown() }

        // The sensor: a peripheral manager on controller 0 serving the database as it is, and
        // advertising the Heart Rate service, its name in the scan response.
        let sensor = PeripheralManager(transport: .virtual(radio), options: ManagerOptions(deviceName: name))
        let served = try await sensor.publish(database)     // waits for the sensor's bring-up, so it has controller 0
        try await sensor.startAdvertising(try AdvertisementData(
            advertisingStructures: [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported]),
                                    .serviceUUIDs(ADUUIDList(uuids16: [0x180D]), isComplete: false)],
            scanResponseStructures: [.localName(ADLocalName(bytes: Array(name.utf8)))]))
        guard let own = await sensor.localAddress else { throw Failure("the sensor's controller went away") }
        output.line("sensor:  advertising \"\(name)\" from \(own.address) (\(own.type))")
        output.flush()
        guard let measurement = served.flatMap(\.characteristics).first(where: { $0.uuid == BluetoothUUID(0x2A37) }) else {
            throw Failure("the database has no characteristic \(BluetoothUUID(0x2A37))")
        }
        // A measurement a second (virtual time) to whoever subscribed.
        let beating = Task {
            var beat = 0
            while !Task.isCancelled {
                guard (try? await radio.clock.sleep(for: .seconds(1))) != nil else { return }
                _ = sensor.updateValue(Data(heartRateMeasurement(beat)), for: measurement, onSubscribedCentrals: nil)
                beat += 1
            }
        }
        defer { beating.cancel() }

        // The central: a central manager on controller 1, its HCI captured when asked.
        let central = CentralManager(transport: .virtual(radio),
                                     options: ManagerOptions(captureFile: capture.map { URL(fileURLWithPath: $0) }))
        var found: Discovery?
        for try await discovery in central.scanForPeripherals(withServices: [BluetoothUUID(0x180D)])
        where discovery.advertisementData.localName == name {
            found = discovery
            break
        }
        try await central.stopScan()
        guard let heard = found else { throw Failure("the scan ended before the sensor was heard") }
        let peripheral = heard.peripheral
        output.line("central: found \"\(name)\" \(peripheral.address) (\(peripheral.addressType)), RSSI \(heard.rssi.map { "\($0) dBm" } ?? "n/a")")

        // First connection: full discovery, a read, ten notifications, a write.
        try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(30)))
        output.line("central: connected, handle 0x\(String(peripheral.connectionHandle ?? 0, radix: 16, uppercase: true)), "
                    + (peripheral.connectionParameters.map { "\($0)" } ?? "parameters unknown"))
        output.line("central: ATT_MTU \(peripheral.mtu)")
        let before = peripheral.attPDUCounts
        let services = try await peripheral.discoverDatabase()
        let discovered = peripheral.attPDUCounts
        output.line("central: discovered \(services.count) services, \(services.flatMap { $0.characteristics ?? [] }.count) characteristics "
                    + "in \(discovered.requests - before.requests) ATT round trips "
                    + "(\(discovered.sent(.writeRequest)) of them writes configuring the connection)")
        guard let heartRate = services.first(where: { $0.uuid == BluetoothUUID(0x180D) }),
              let location = heartRate.characteristics?.first(where: { $0.uuid == BluetoothUUID(0x2A38) }),
              let notifying = heartRate.characteristics?.first(where: { $0.uuid == BluetoothUUID(0x2A37) }),
              let controlPoint = heartRate.characteristics?.first(where: { $0.uuid == BluetoothUUID(0x2A39) }) else {
            throw Failure("the sensor has no Heart Rate service")
        }
        let where_ = try await peripheral.readValue(for: location)
        output.line("central: Body Sensor Location: \(bodySensorLocation([UInt8](where_)))")
        let measurements = peripheral.notifications(for: notifying)
        try await peripheral.setNotifyValue(true, for: notifying)
        output.line("central: subscribed to Heart Rate Measurement")
        output.flush()
        var received = 0
        for try await value in measurements {
            output.line("  \(describeMeasurement([UInt8](value)))")
            output.flush()
            received += 1
            if received == 10 { break }
        }
        try await peripheral.setNotifyValue(false, for: notifying)
        try await peripheral.writeValue(Data([0x01]), for: controlPoint, type: .withResponse)
        output.line("central: wrote Heart Rate Control Point 01 (reset Energy Expended)")
        await central.cancelPeripheralConnection(peripheral)
        output.line("central: disconnected: \(peripheral.disconnectionReason.map { "\($0)" } ?? "n/a")")

        // Second connection: the cached database, checked by its Database Hash.
        try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(30)))
        let again = peripheral.attPDUCounts
        let cached = try await peripheral.discoverDatabase()
        let fromCache = await peripheral.databaseFromCache
        let counted = peripheral.attPDUCounts
        let writes = counted.sent(.writeRequest) - again.sent(.writeRequest)
        let reads = counted.requests - again.requests - writes
        // An unbonded client writes Client Supported Features and the Service Changed CCCD on
        // every connection (Core v5.4, Vol 3, Part G, 7.1 and 7.2): counted apart.
        output.line("central: reconnected; \(cached.count) services \(fromCache ? "from the cache" : "discovered again") "
                    + "in \(reads) ATT round trip\(reads == 1 ? "" : "s") (the Database Hash), "
                    + "and \(writes) write\(writes == 1 ? "" : "s") configuring the new connection")
        var battery: [UInt8] = []
        if let level = cached.flatMap({ $0.characteristics ?? [] }).first(where: { $0.uuid == BluetoothUUID(0x2A19) }) {
            battery = [UInt8](try await peripheral.readValue(for: level))
        }
        output.line("central: Battery Level \(battery.first.map { "\($0) %" } ?? "n/a")")
        await central.cancelPeripheralConnection(peripheral)
        output.line("central: disconnected: \(peripheral.disconnectionReason.map { "\($0)" } ?? "n/a")")
        await sensor.stopAdvertising()
        await central.close()
        await sensor.close()
        if let capture { output.line("capture: \(capture) (blectl decode \(capture))") }
    }

    /// A Heart Rate Measurement (Heart Rate Service 1.0, 3.1): Flags 0x10 (UINT8 value, RR-Interval
    /// present), the heart rate in bpm, one RR-Interval in 1/1024 s.
    static func heartRateMeasurement(_ beat: Int) -> [UInt8] {
        let bpm = [72, 73, 75, 74, 72, 71, 70, 71, 73, 74][beat % 10]
        let rr = UInt16((60.0 / Double(bpm) * 1024).rounded())
        return [0x10, UInt8(bpm), UInt8(rr & 0xFF), UInt8(rr >> 8)]
    }

    /// "72 bpm, RR 0.83 s" from a Heart Rate Measurement.
    static func describeMeasurement(_ value: [UInt8]) -> String {
        guard let flags = value.first else { return "empty measurement" }
        var index = 1
        let sixteenBit = flags & 0x01 != 0
        guard value.count >= index + (sixteenBit ? 2 : 1) else { return "malformed measurement \(Hex.encode(value))" }
        let bpm = sixteenBit ? Int(value[1]) | Int(value[2]) << 8 : Int(value[1])
        index += sixteenBit ? 2 : 1
        if flags & 0x08 != 0 { index += 2 }     // Energy Expended
        var text = "\(bpm) bpm"
        if flags & 0x10 != 0, value.count >= index + 2 {
            let rr = Double(Int(value[index]) | Int(value[index + 1]) << 8) / 1024
            text += ", RR \(String(format: "%.2f", rr)) s"
        }
        return text
    }

    /// Body Sensor Location (Heart Rate Service 1.0, 3.2).
    static func bodySensorLocation(_ value: [UInt8]) -> String {
        let names = ["Other", "Chest", "Wrist", "Finger", "Hand", "Ear Lobe", "Foot"]
        guard let first = value.first else { return "empty" }
        return Int(first) < names.count ? names[Int(first)] : "0x\(Hex.encode([first]))"
    }
}
