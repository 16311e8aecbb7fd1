import ATT
import BLECore
import Foundation
import GATT
import HCI
import Host
import Testing
import VirtualRadio

/// The interop lane, direction (b): Google Bumble's host as central and GATT client, on a
/// controller of our virtual radio served over H4/TCP, against our stack as an advertising
/// peripheral with our GATT server (Fixtures/gatt-databases/heart-rate-demo.json) on another
/// controller of the same radio. The peer is Tests/Interop/bumble_gatt_client.py; what it
/// discovers and reads is compared with our database, and what it writes with what our server
/// stored.
@Suite("Interop: Bumble's central, our GATT server", .serialized, .timeLimit(.minutes(2)),
       // Needs the pinned Bumble venv; `make test` sets the variable (plain `swift test` skips).
       .enabled(if: BumblePeer.python != nil, "set \(BumblePeer.pythonVariable) to a python with bumble==0.0.236 (make test does)"))
struct BumbleClientTests {
    static let bumbleAddress = "F2:4C:42:55:4D:02"
    static let ourName = "LinuxBLE interop"
    static let database = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/gatt-databases/heart-rate-demo.json").path
    static let measurement = BluetoothUUID(0x2A37)
    static let controlPoint = BluetoothUUID(0x2A39)
    static let longWrite = BluetoothUUID("A5F10003-6C1B-4B8E-9E3A-4C696E757842")!
    static let events = BluetoothUUID("A5F10004-6C1B-4B8E-9E3A-4C696E757842")!

    @Test("Bumble finds our advertisement, discovers and reads our database, writes long, and gets our notifications and confirmed indications")
    func bumbleCentralAgainstOurServer() async throws {
        let radio = VirtualRadio(seed: 42, timing: .paced(speed: 20))
        defer { radio.shutDown() }
        let served = try ServedController(on: radio)
        defer { served.close() }

        let ours = radio.makeController()
        let peripheral = try await HostStack.start(on: ours.attach())
        defer { Task { await peripheral.close() } }
        let server = try GATTServer(database: try GATTDatabase(jsonFile: Self.database))
        let database = await server.database
        func characteristic(_ uuid: BluetoothUUID) throws -> GATTCharacteristic {
            try #require(database.characteristics(uuid).first, "heart-rate-demo.json has no \(uuid)")
        }
        let measurementHandle = try characteristic(Self.measurement).valueHandle
        let eventsHandle = try characteristic(Self.events).valueHandle

        let advertiser = peripheral.makeAdvertiser()
        try await advertiser.start(peripheral.advertisingParameters(advertisingData: [
            .flags([.leGeneralDiscoverableMode, .brEDRNotSupported]), .localName(ADLocalName(bytes: Array(Self.ourName.utf8))),
        ]))
        let incoming = Task { () -> LEConnection? in
            for await connection in peripheral.connections.incomingConnections { return connection }
            return nil
        }
        // Everything the server tells the application, from the first connection on.
        let serverEvents = Task { () -> [GATTServerEvent] in
            var seen: [GATTServerEvent] = []
            var subscriptions = Set<UInt16>()
            for await event in server.events {
                seen.append(event)
                if case .configurationChanged(_, let handle, _) = event { subscriptions.insert(handle) }
                if subscriptions.isSuperset(of: [measurementHandle, eventsHandle]) { break }
            }
            return seen
        }
        defer { serverEvents.cancel() }

        let peer = try BumblePeer(script: "bumble_gatt_client.py", arguments: [
            "--transport", served.bumbleTransport, "--address", Self.bumbleAddress, "--name", "Bumble central",
            "--peer-name", Self.ourName, "--mtu", "64",
            "--write", "\(Self.controlPoint)=1", "--write", "\(Self.longWrite)=150",
            "--subscribe", "\(Self.measurement)=notification", "--subscribe", "\(Self.events)=indication",
        ])
        defer { peer.kill() }

        // Bumble's scanner decoded our advertising data and address.
        let found = try await peer.next("found", timeout: .seconds(30))
        #expect(found.string("address") == peripheral.controller.address.description)
        let connection = try #require(try await withDeadline(.seconds(20), "the incoming connection") { await incoming.value })
        let serverConnection = await server.connect(connection.att)
        #expect(try await peer.next("connected").string("peer") == peripheral.controller.address.description)
        #expect(connection.peerAddress.description == Self.bumbleAddress)
        #expect(try await peer.next("mtu").int("mtu") == 64)
        #expect(serverConnection.mtu == 64)

        // Discovery: every service and characteristic, with our handles and properties.
        let discovered = try #require(try await peer.next("discovered").fields["services"]?.array)
        #expect(discovered.count == database.services.count)
        for (theirs, service) in zip(discovered, database.services) {
            #expect(theirs["uuid"]?.string.flatMap(BluetoothUUID.init) == service.uuid)
            #expect(theirs["handle"]?.int == Int(service.handle))
            #expect(theirs["end"]?.int == Int(service.endGroupHandle))
            let characteristics = theirs["characteristics"]?.array ?? []
            #expect(characteristics.count == service.characteristics.count, "characteristics of \(service.uuid)")
            for (their, ourCharacteristic) in zip(characteristics, service.characteristics) {
                #expect(their["uuid"]?.string.flatMap(BluetoothUUID.init) == ourCharacteristic.uuid)
                #expect(their["handle"]?.int == Int(ourCharacteristic.valueHandle))
                #expect(their["properties"]?.int == Int(ourCharacteristic.properties.rawValue))
            }
        }

        // Reads: every readable value, as our server holds it (long ones with Read Blob).
        let readable = database.services.flatMap(\.characteristics).filter { $0.properties.contains(.read) }
        let features = await serverConnection.clientSupportedFeatures
        for expected in readable {
            let read = try await peer.next("read")
            #expect(read.int("handle") == Int(expected.valueHandle))
            #expect(read.bytes("value") == value(of: expected, in: database, clientSupportedFeatures: features), "value of \(expected.uuid)")
        }

        // Writes: what Bumble wrote is what our server stored.
        let wroteControlPoint = try await peer.next("wrote")
        let wroteLong = try await peer.next("wrote")
        #expect(wroteLong.bytes("value")?.count == 150)
        _ = try await peer.next("subscribed")
        _ = try await peer.next("subscribed")
        let events = try await withDeadline(.seconds(20), "both subscriptions on our server") { await serverEvents.value }
        let writes = events.compactMap { event -> (UInt16, [UInt8])? in
            if case .valueWritten(_, let handle, let value) = event { (handle, value) } else { nil }
        }
        #expect(writes.first { $0.0 == (try? characteristic(Self.controlPoint).valueHandle) }?.1 == wroteControlPoint.bytes("value"))
        #expect(writes.first { $0.0 == (try? characteristic(Self.longWrite).valueHandle) }?.1 == wroteLong.bytes("value"))
        #expect(await serverConnection.configuration(for: measurementHandle).contains(.notification))
        #expect(await serverConnection.configuration(for: eventsHandle).contains(.indication))

        // Notifications, then indications, each confirmed before indicate() returns.
        var random = SplitMix64(seed: 0x4C42_4E4F_5449)
        var notified: [[UInt8]] = []
        for _ in 0..<5 {
            let value: [UInt8] = [0x00, UInt8(60 + random.next() % 100)]   // Flags (UINT8 format), bpm
            let report = try await serverConnection.notify(value, for: measurementHandle)
            #expect(report.delivered.count == 1)
            notified.append(value)
        }
        var indicated: [[UInt8]] = []
        for _ in 0..<3 {
            let value = (0..<3).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let report = try await withDeadline(.seconds(20), "an indication's confirmation") {
                try await serverConnection.indicate(value, for: eventsHandle)
            }
            #expect(report.delivered.count == 1, "confirmed: \(report)")
            indicated.append(value)
        }
        var gotNotifications: [[UInt8]] = []
        for _ in 0..<5 {
            let report = try await peer.next("notification")
            #expect(report.string("uuid").flatMap(BluetoothUUID.init) == Self.measurement)
            gotNotifications.append(try #require(report.bytes("value")))
        }
        var gotIndications: [[UInt8]] = []
        for _ in 0..<3 {
            let report = try await peer.next("indication")
            #expect(report.string("uuid").flatMap(BluetoothUUID.init) == Self.events)
            gotIndications.append(try #require(report.bytes("value")))
        }
        #expect(gotNotifications == notified)
        #expect(gotIndications == indicated)

        // Bumble disconnects; our side sees its reason.
        // Neither host broke the controllers' rules (ACL lengths, buffers, handles) while the link
        // was up. Checked before the disconnection: a packet either host had already sent when
        // the link ended reaches its controller for a handle that is gone, a race a real
        // controller sees too (it drops such packets).
        #expect(served.controller.violations.isEmpty)
        #expect(ours.violations.isEmpty)

        try peer.send("disconnect", ["reason": Int(HCIStatus.remoteUserTerminatedConnection.rawValue)])
        let reason = try await withDeadline(.seconds(20), "our Disconnection Complete") { await connection.disconnected() }
        #expect(reason == .remoteUserTerminatedConnection)
        #expect(try await peer.next("disconnected").int("reason") == Int(HCIStatus.connectionTerminatedByLocalHost.rawValue))
        #expect(try await peer.exitStatus() == 0)
    }

    /// What our server answers a Read Request for `characteristic` with: its fixed value; for
    /// the Database Hash the hash the server computed (Core v5.4, Vol 3, Part G, 7.3); for
    /// Client Supported Features this connection's value (7.2), which Bumble never writes.
    private func value(of characteristic: GATTCharacteristic, in database: GATTDatabase,
                       clientSupportedFeatures: [UInt8]) -> [UInt8]? {
        if characteristic.uuid == BluetoothUUID(0x2B2A) { return database.databaseHash }
        if characteristic.uuid == BluetoothUUID(0x2B29) { return clientSupportedFeatures }
        return database.attribute(at: characteristic.valueHandle)?.value.fixedValue
    }
}
