import ATT
import BLECore
import Capture
import Foundation
import GATT
import HCI
import Host
import VirtualRadio

/// `blectl demo [--capture FILE] [--speed X] [--db FILE.json]`: the whole stack in host mode on the virtual radio,
/// with no privileges and no Bluetooth hardware. A heart-rate sensor (our GATT server and
/// advertiser on one virtual controller) and a central (our scanner and GATT client on another)
/// scan, connect, exchange MTU, discover, read Body Sensor Location, subscribe, print ten Heart
/// Rate Measurements, write the Control Point, disconnect, then reconnect with the cached
/// database, which costs one ATT round trip (robust caching, Core v5.4, Vol 3, Part G, 2.5.2).
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

        // The sensor: GATT server and advertiser on controller 0.
        let sensor = try await HostStack.start(on: radio.makeController().attach(), clock: radio.clock)
        let server = try GATTServer(database: database, configuration: GATTServerConfiguration(deviceName: name))
        let advertiser = sensor.makeAdvertiser()
        try await advertiser.start(sensor.advertisingParameters(
            advertisingData: [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported]),
                              .serviceUUIDs(ADUUIDList(uuids16: [0x180D]), isComplete: false)],
            scanResponse: [.localName(ADLocalName(bytes: Array(name.utf8)))]))
        output.line("sensor:  advertising \"\(name)\" from \(sensor.controller.address) (\(kind(sensor.addressType)))")
        output.flush()
        let measurement = try characteristicHandle(0x2A37, in: await server.database)
        let serving = Task {
            for await link in sensor.connections.incomingConnections {
                _ = await server.connect(link.att)
            }
        }
        // A measurement a second (virtual time) to whoever subscribed.
        let beating = Task {
            var beat = 0
            while !Task.isCancelled {
                guard (try? await radio.clock.sleep(for: .seconds(1))) != nil else { return }
                _ = try? await server.notify(heartRateMeasurement(beat), for: measurement)
                beat += 1
            }
        }
        defer {
            serving.cancel()
            beating.cancel()
        }

        // The central: scanner and GATT client on controller 1, its HCI captured when asked.
        var transport: any HCITransport = radio.makeController().attach()
        if let capture { transport = try CapturingHCITransport(wrapping: transport, path: capture) }
        let central = try await HostStack.start(on: transport, clock: radio.clock)
        let scanner = central.makeScanner()
        var found: LEDiscovery?
        var parameters = central.scanParameters()
        parameters.serviceUUIDs = [BluetoothUUID(0x180D)]
        for await discovery in try await scanner.start(parameters) where discovery.localName == name {
            found = discovery
            break
        }
        try await scanner.stop()
        guard let peer = found else { throw Failure("the scan ended before the sensor was heard") }
        output.line("central: found \"\(name)\" \(peer.address) (\(peer.addressType.isRandom ? "random" : "public")), RSSI \(peer.rssi.map { "\($0) dBm" } ?? "n/a")")
        let cache = InMemoryGATTClientCache()
        let identity = GATTPeerIdentity(address: peer.address, isRandom: peer.addressType.isRandom)

        // First connection: full discovery, a read, ten notifications, a write.
        var (link, bearer, client) = try await connect(central, to: peer, cache: cache, identity: identity)
        output.line("central: connected, handle 0x\(String(link.handle, radix: 16, uppercase: true)), \(link.state)")
        output.line("central: ATT_MTU \(try await client.exchangeMTU())")
        let before = bearer.requestCount
        let services = try await client.discoverDatabase()
        output.line("central: discovered \(services.count) services, \(services.flatMap(\.characteristics).count) characteristics "
                    + "in \(bearer.requestCount - before) ATT round trips (\(bearer.writeRequestCount) of them writes configuring the connection)")
        guard let heartRate = services.first(where: { $0.uuid == BluetoothUUID(0x180D) }),
              let location = heartRate.characteristic(BluetoothUUID(0x2A38)),
              let notifying = heartRate.characteristic(BluetoothUUID(0x2A37)),
              let controlPoint = heartRate.characteristic(BluetoothUUID(0x2A39)) else { throw Failure("the sensor has no Heart Rate service") }
        let where_ = try await client.read(location.valueHandle)
        output.line("central: Body Sensor Location: \(bodySensorLocation(where_))")
        let subscription = try await client.notifications(for: notifying)
        output.line("central: subscribed to Heart Rate Measurement")
        output.flush()
        var received = 0
        for try await notification in subscription {
            output.line("  \(describeMeasurement(notification.value))")
            output.flush()
            received += 1
            if received == 10 { break }
        }
        await subscription.cancel()
        try await client.write([0x01], to: controlPoint.valueHandle)
        output.line("central: wrote Heart Rate Control Point 01 (reset Energy Expended)")
        let reason = try await link.disconnect()
        output.line("central: disconnected: \(reason)")

        // Second connection: the cached database, checked by its Database Hash.
        (link, bearer, client) = try await connect(central, to: peer, cache: cache, identity: identity)
        _ = try await client.exchangeMTU()
        let (again, writesBefore) = (bearer.requestCount, bearer.writeRequestCount)
        let cached = try await client.discoverDatabase()
        let fromCache = await client.usedCachedDatabase
        let writes = bearer.writeRequestCount - writesBefore
        let reads = bearer.requestCount - again - writes
        // An unbonded client writes Client Supported Features and the Service Changed CCCD on
        // every connection (Core v5.4, Vol 3, Part G, 7.1 and 7.2): counted apart.
        output.line("central: reconnected; \(cached.count) services \(fromCache ? "from the cache" : "discovered again") "
                    + "in \(reads) ATT round trip\(reads == 1 ? "" : "s") (the Database Hash), "
                    + "and \(writes) write\(writes == 1 ? "" : "s") configuring the new connection")
        let battery = try await client.read(characteristicUUID: BluetoothUUID(0x2A19))
        output.line("central: Battery Level \(battery.first?.value.first.map { "\($0) %" } ?? "n/a")")
        output.line("central: disconnected: \(try await link.disconnect())")
        try? await advertiser.stop()
        await central.close()
        await sensor.close()
        if let capture { output.line("capture: \(capture) (blectl decode \(capture))") }
    }

    private static func connect(_ central: HostStack, to peer: LEDiscovery, cache: InMemoryGATTClientCache,
                                identity: GATTPeerIdentity) async throws -> (LEConnection, CountingATTBearer, GATTClient) {
        let link = try await central.connections.connect(to: peer.address, addressType: peer.addressType.isRandom ? .random : .public,
                                                         timeout: .seconds(30))
        let bearer = CountingATTBearer(link.att)
        let client = GATTClient(engine: ATTEngine(bearer: bearer),
                                configuration: GATTClient.Configuration(cache: cache, peer: identity))
        return (link, bearer, client)
    }

    private static func kind(_ type: LEAddressType) -> String { type == .public ? "public" : "random" }

    private static func characteristicHandle(_ uuid: UInt16, in database: GATTDatabase) throws -> UInt16 {
        guard let characteristic = database.characteristics(BluetoothUUID(uuid)).first else {
            throw Failure("the database has no characteristic \(BluetoothUUID(uuid))")
        }
        return characteristic.valueHandle
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
