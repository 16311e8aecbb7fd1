import ATT
import BLECore
import GATT
import HCI
import Host
import Testing
import VirtualRadio

/// The interop lane, direction (a): Google Bumble's host as a GATT server, on a controller of
/// our virtual radio served over H4/TCP, against our stack as central (scanner, connection
/// manager, GATT client) on another controller of the same radio. The peer is
/// Tests/Interop/bumble_gatt_server.py; every value is compared with what Bumble reports.
@Suite("Interop: Bumble's GATT server, our central", .serialized, .timeLimit(.minutes(2)),
       // Needs the pinned Bumble venv; `make test` sets the variable (plain `swift test` skips).
       .enabled(if: BumblePeer.python != nil, "set \(BumblePeer.pythonVariable) to a python with bumble==0.0.236 (make test does)"))
struct BumbleServerTests {
    /// Bumble's static random address (the two top bits set, Core v5.4, Vol 6, Part B, 1.3.2.1).
    static let bumbleAddress = "F2:4C:42:55:4D:01"
    static let bumbleName = "Bumble HR"
    static let longRead = BluetoothUUID("6E3A0002-8D1F-4C55-A1B6-4C696E757842")!
    static let longWrite = BluetoothUUID("6E3A0003-8D1F-4C55-A1B6-4C696E757842")!
    static let events = BluetoothUUID("6E3A0004-8D1F-4C55-A1B6-4C696E757842")!

    @Test("our central scans, connects, reads long, writes long, gets notifications and indications, and sees Bumble's disconnection reason")
    func centralAgainstBumbleServer() async throws {
        let radio = VirtualRadio(seed: 41, timing: .paced(speed: 20))
        defer { radio.shutDown() }
        let served = try ServedController(on: radio)
        defer { served.close() }
        let peer = try BumblePeer(script: "bumble_gatt_server.py",
                                  arguments: ["--transport", served.bumbleTransport, "--address", Self.bumbleAddress, "--name", Self.bumbleName])
        defer { peer.kill() }
        let advertising = try await peer.next("advertising")
        let servedLongValue = try #require(advertising.bytes("long_value"))
        #expect(servedLongValue.count == 300)

        // ATT_MTU 64: the 300-octet value needs Read Blob, the 200-octet write Prepare Write.
        let ours = radio.makeController()
        let central = try await HostStack.start(on: ours.attach(),
                                                configuration: LEConnectionManager.Configuration(attMTU: 64))
        defer { Task { await central.close() } }

        // Scanning: Bumble's advertising data as our scanner decodes it.
        let scanner = central.makeScanner()
        let stream = try await scanner.start(central.scanParameters())
        let found = try await withDeadline(.seconds(20), "Bumble's advertisement") {
            for await discovery in stream where discovery.localName == Self.bumbleName { return discovery }
            throw DeadlineExceeded(what: "Bumble's advertisement (the scan ended)", timeout: .zero)
        }
        try await scanner.stop()
        #expect(found.address.description == advertising.string("address"))
        #expect(found.addressType == .random)
        #expect(found.serviceUUIDs.contains(BluetoothUUID(0x180D)))
        #expect(found.isConnectable)

        let link = try await central.connections.connect(to: found.address, addressType: .random, timeout: .seconds(20))
        let connected = try await peer.next("connected")
        #expect(connected.string("peer") == central.controller.address.description)

        let client = GATTClient(engine: ATTEngine(bearer: link.att))
        #expect(try await client.exchangeMTU() == 64)
        #expect(try await peer.next("mtu").int("mtu") == 64)
        let services = try await client.discoverDatabase()
        let characteristics = services.flatMap(\.characteristics)
        func characteristic(_ uuid: BluetoothUUID) throws -> RemoteCharacteristic {
            try #require(characteristics.first { $0.uuid == uuid }, "Bumble's database has no \(uuid)")
        }
        #expect(services.contains { $0.uuid == BluetoothUUID(0x180D) })
        #expect(services.contains { $0.uuid == BluetoothUUID("6E3A0001-8D1F-4C55-A1B6-4C696E757842")! })

        // Reads, the long one with Read Blob (Core v5.4, Vol 3, Part G, 4.8.3).
        #expect(try await client.read(characteristic(BluetoothUUID(0x2A38)).valueHandle) == advertising.bytes("body_sensor_location"))
        #expect(try await client.readLong(characteristic(Self.longRead).valueHandle) == servedLongValue)

        // Writes: the Heart Rate Control Point (Reset Energy Expended), then a long write to the
        // 128-bit characteristic (Prepare Write + Execute Write, 4.9.4), read back long.
        try await client.write([0x01], to: characteristic(BluetoothUUID(0x2A39)).valueHandle)
        let controlPoint = try await peer.next("written")
        #expect(controlPoint.string("uuid").flatMap(BluetoothUUID.init) == BluetoothUUID(0x2A39))
        #expect(controlPoint.bytes("value") == [0x01])
        var random = SplitMix64(seed: 0x4C42_4C4F_4E47)
        let written = (0..<200).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        try await client.writeLong(written, to: characteristic(Self.longWrite).valueHandle)
        let stored = try await peer.next("written")
        #expect(stored.string("uuid").flatMap(BluetoothUUID.init) == Self.longWrite)
        #expect(stored.bytes("value") == written)
        #expect(try await client.readLong(characteristic(Self.longWrite).valueHandle) == written)

        // Notifications (Heart Rate Measurement) and indications (the vendor events).
        let measurements = try await client.notifications(for: characteristic(BluetoothUUID(0x2A37)), kind: .notification)
        let indications = try await client.notifications(for: characteristic(Self.events), kind: .indication)
        var subscribed: [BluetoothUUID: (notify: Bool, indicate: Bool)] = [:]
        for _ in 0..<2 {
            let report = try await peer.next("subscribed")
            let uuid = try #require(report.string("uuid").flatMap(BluetoothUUID.init))
            subscribed[uuid] = (report.fields["notify"]?.bool ?? false, report.fields["indicate"]?.bool ?? false)
        }
        #expect(subscribed[BluetoothUUID(0x2A37)]?.notify == true)
        #expect(subscribed[Self.events]?.indicate == true)

        try peer.send("notify", ["count": 5])
        let notified = try await withDeadline(.seconds(20), "5 notifications") {
            var iterator = measurements.makeAsyncIterator()
            var values: [RemoteNotification] = []
            while values.count < 5, let next = await iterator.next() { values.append(next) }
            return values
        }
        var sentNotifications: [[UInt8]] = []
        for _ in 0..<5 { sentNotifications.append(try #require(try await peer.next("notified").bytes("value"))) }
        #expect(notified.map(\.value) == sentNotifications)
        #expect(notified.allSatisfy { !$0.isIndication })

        try peer.send("indicate", ["count": 3])
        let indicated = try await withDeadline(.seconds(20), "3 indications") {
            var iterator = indications.makeAsyncIterator()
            var values: [RemoteNotification] = []
            while values.count < 3, let next = await iterator.next() { values.append(next) }
            return values
        }
        // Bumble reports each indication only after our Handle Value Confirmation.
        var confirmed: [[UInt8]] = []
        for _ in 0..<3 { confirmed.append(try #require(try await peer.next("indicated").bytes("value"))) }
        #expect(indicated.map(\.value) == confirmed)
        #expect(indicated.allSatisfy { $0.isIndication })

        // Bumble ends the link; our side must see its reason.
        // Neither host broke the controllers' rules (ACL lengths, buffers, handles) while the link
        // was up. Checked before the disconnection: a packet either host had already sent when
        // the link ended reaches its controller for a handle that is gone, a race a real
        // controller sees too (it drops such packets).
        #expect(served.controller.violations.isEmpty)
        #expect(ours.violations.isEmpty)

        try peer.send("disconnect", ["reason": Int(HCIStatus.remoteDeviceTerminatedPowerOff.rawValue)])
        let reason = try await withDeadline(.seconds(20), "our Disconnection Complete") { await link.disconnected() }
        #expect(reason == .remoteDeviceTerminatedPowerOff)
        #expect(try await peer.next("disconnected").int("reason") == Int(HCIStatus.connectionTerminatedByLocalHost.rawValue))
        #expect(try await peer.exitStatus() == 0)
    }
}
