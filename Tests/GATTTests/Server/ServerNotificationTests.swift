import Testing
import BLECore
import ATT
import BLETestSupport
@testable import GATT

/// CCCD state per connection; notifications, Multiple Handle Value Notifications and
/// indications to the subscribed clients (Core v5.4, Vol 3, Part F, 3.4.7; Part G, 4.10, 4.11).
@Suite("GATT server: notifications and indications", .timeLimit(.minutes(1)))
struct ServerNotificationTests {
    @Test("CCCD values are per connection")
    func perConnection() async throws {
        var a = try await ServerHarness.make(try ServerTest.database())
        var b = await ServerHarness.make(a.server)
        await a.expect("12 1200 0100", "13")
        await a.expect("0a 1200", "0b 0100")
        await b.expect("0a 1200", "0b 0000")
        await b.expect("12 1200 0200", "13")
        await a.expect("0a 1200", "0b 0100")
        #expect(await a.connection.configuration(for: 0x0011) == .notification)
        #expect(await b.connection.configuration(for: 0x0012) == .indication)
        await a.close()
        await b.close()
    }

    @Test("notify: to the subscribed connections only, each cut to its ATT_MTU-3")
    func notify() async throws {
        var a = try await ServerHarness.make(try ServerTest.database())
        var b = await ServerHarness.make(a.server)
        var c = await ServerHarness.make(a.server)
        await a.expect("12 1200 0100", "13")
        await b.exchangeMTU(100)
        await b.expect("12 1200 0100", "13")
        await c.expect("12 1200 0200", "13")   // indications only: no notification
        let value = (0..<30).map { UInt8($0) }
        let report = try await a.server.notify(value, for: 0x0011)
        #expect(report.delivered == [a.connection.peer, b.connection.peer])
        #expect(report.failed.isEmpty && report.withheld.isEmpty)
        // Handle Value Notification 0x0011: 20 octets at ATT_MTU 23, all 30 at 100
        #expect(await a.next() == "1b1100" + Hex.encode(Array(value.prefix(20))))
        #expect(await b.next() == "1b1100" + Hex.encode(value))
        // C got nothing: its next PDU answers its next request. Reads see the value notified.
        await c.expect("0a 1100", "0b" + Hex.encode(Array(value.prefix(22))))
        await a.close()
        await b.close()
        await c.close()
    }

    @Test("notify on a handle that cannot notify throws; a connection's own notify reaches it only")
    func notifyErrors() async throws {
        var a = try await ServerHarness.make(try ServerTest.database())
        var b = await ServerHarness.make(a.server)
        await #expect(throws: GATTServerError.notNotifiable(handle: 0x0003, operation: "notify")) {
            try await a.server.notify([0x01], for: 0x0003)
        }
        await #expect(throws: GATTServerError.notNotifiable(handle: 0x0012, operation: "notify")) {
            try await a.server.notify([0x01], for: 0x0012)
        }
        await #expect(throws: GATTServerError.notNotifiable(handle: 0x0014, operation: "indicate")) {
            try await a.server.indicate([0x01], for: 0x0014)
        }
        await a.expect("12 1500 0100", "13")
        await b.expect("12 1500 0100", "13")
        let report = try await b.connection.notify([0x42], for: 0x0014)
        #expect(report.delivered == [b.connection.peer])
        #expect(await b.next() == "1b1400" + "42")
        await a.expect("0a 0300", "0b 68656c6c6f")   // A was not notified
        await a.close()
        await b.close()
    }

    @Test("indicate: to every subscribed client, each confirming; one outstanding per connection")
    func indicate() async throws {
        var a = try await ServerHarness.make(try ServerTest.database())
        var b = await ServerHarness.make(a.server)
        await a.expect("12 1200 0200", "13")
        await b.expect("12 1200 0300", "13")
        let server = a.server
        let pending = Task { try await server.indicate([0x07], for: 0x0011) }
        // Handle Value Indication 0x0011 07 at each client, which confirms it (0x1e)
        #expect(await a.next() == "1d110007")
        #expect(await b.next() == "1d110007")
        try a.command("1e")
        try b.command("1e")
        let report = try await pending.value
        #expect(Set(report.delivered) == [a.connection.peer, b.connection.peer])
        // A second and third indication to A: the second waits for the first's confirmation.
        let connection = a.connection
        let first = Task { try await connection.indicate([0x01], for: 0x0011) }
        #expect(await a.next() == "1d110001")
        let second = Task { try await connection.indicate([0x02], for: 0x0011) }
        await a.expect("0a 0300", "0b 68656c6c6f")   // requests flow meanwhile; no second indication yet
        try a.command("1e")
        #expect(try await first.value.delivered == [a.connection.peer])
        #expect(await a.next() == "1d110002")
        try a.command("1e")
        #expect(try await second.value.delivered == [a.connection.peer])
        await a.close()
        await b.close()
    }

    @Test("notify and indicate to named peers reach those subscribed only; named indications go out concurrently")
    func namedPeers() async throws {
        var a = try await ServerHarness.make(try ServerTest.database())
        var b = await ServerHarness.make(a.server)
        var c = await ServerHarness.make(a.server)
        await a.expect("12 1200 0300", "13")
        await b.expect("12 1200 0300", "13")
        await c.expect("12 1200 0300", "13")
        let server = a.server
        let notified = try await server.notify([0x05], for: 0x0011, to: [b.connection.peer, c.connection.peer])
        #expect(notified.delivered == [b.connection.peer, c.connection.peer])
        #expect(await b.next() == "1b110005")
        #expect(await c.next() == "1b110005")
        let peers = [a.connection.peer, c.connection.peer]
        let pending = Task { try await server.indicate([0x06], for: 0x0011, to: peers) }
        // Both have theirs before either confirms; A confirms last.
        #expect(await a.next() == "1d110006")
        #expect(await c.next() == "1d110006")
        try c.command("1e")
        try a.command("1e")
        #expect(Set(try await pending.value.delivered) == Set(peers))
        // B was named by neither indication: its next PDU answers its next request.
        await b.expect("0a 0300", "0b 68656c6c6f")
        await a.close()
        await b.close()
        await c.close()
    }

    @Test("an indication left unconfirmed for 30 s fails with a timeout; the connection is dropped")
    func indicationTimeout() async throws {
        let clock = TestClock()
        let server = try GATTServer(database: try ServerTest.database())
        var h = await ServerHarness.make(server, clock: clock)
        await h.expect("12 1200 0200", "13")
        let pending = Task { try await server.indicate([0x01], for: 0x0011) }
        #expect(await h.next() == "1d110001")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        let report = try await pending.value
        #expect(report.failed == [h.connection.peer: .timeout])
        #expect(await server.connectionStateCount == 0)
        #expect(await h.next() == nil)   // the bearer is closed
    }

    @Test("Multiple Handle Value Notification to a client that set bit 2 of Client Supported Features")
    func multiple() async throws {
        var a = try await ServerHarness.make(try ServerTest.database())
        var b = await ServerHarness.make(a.server)
        await a.expect("12 2700 04", "13")   // Multiple Handle Value Notifications supported
        for h in [0x12, 0x15] {
            let request = "12 " + Hex.encode([UInt8(h), 0x00]) + " 0100"
            await a.expect(request, "13")
            await b.expect(request, "13")
        }
        let report = try await a.server.notify([GATTHandleValue(handle: 0x0011, value: [0x01]),
                                                GATTHandleValue(handle: 0x0014, value: [0x02, 0x03])])
        #expect(Set(report.delivered) == [a.connection.peer, b.connection.peer])
        // ATT_MULTIPLE_HANDLE_VALUE_NTF: (0x0011, length 1, 01), (0x0014, length 2, 0203)
        #expect(await a.next() == "23" + "1100" + "0100" + "01" + "1400" + "0200" + "0203")
        // B did not set the bit: two Handle Value Notifications
        #expect(await b.next() == "1b1100" + "01")
        #expect(await b.next() == "1b1400" + "0203")
        await a.close()
        await b.close()
    }

    @Test("Multiple Handle Value Notifications: whole tuples per PDU; a lone or too long value alone")
    func packing() {
        let updates = [GATTHandleValue(handle: 1, value: [UInt8](repeating: 0xA1, count: 8)),
                       GATTHandleValue(handle: 2, value: [UInt8](repeating: 0xA2, count: 8)),
                       GATTHandleValue(handle: 3, value: [UInt8](repeating: 0xA3, count: 30)),
                       GATTHandleValue(handle: 4, value: [0xA4])]
        let pdus = GATTServer.notificationPDUs(updates, mtu: 23, multiple: true)
        // 1 + 12 + 12 = 25 > 23: the first tuple goes alone (as a plain notification), then
        // the second; the 30-octet value cannot be a tuple at ATT_MTU 23: cut to 20; the last alone.
        #expect(pdus.map { Hex.encode($0.encoded) } == [
            "1b0100" + String(repeating: "a1", count: 8),
            "1b0200" + String(repeating: "a2", count: 8),
            "1b0300" + String(repeating: "a3", count: 20),
            "1b0400a4",
        ])
        // At ATT_MTU 64 all four tuples fit one PDU of exactly 64 octets (1 + 12 + 12 + 34 + 5).
        let packed = GATTServer.notificationPDUs(updates, mtu: 64, multiple: true)
        #expect(packed.map { Hex.encode($0.encoded) } == [
            "23" + "0100" + "0800" + String(repeating: "a1", count: 8) + "0200" + "0800" + String(repeating: "a2", count: 8)
                + "0300" + "1e00" + String(repeating: "a3", count: 30) + "0400" + "0100" + "a4",
        ])
        #expect(packed.first?.encoded.count == 64)
        // At 63 the last tuple goes alone.
        #expect(GATTServer.notificationPDUs(updates, mtu: 63, multiple: true).map(\.opcode) == [.multipleHandleValueNotification,
                                                                                               .handleValueNotification])
    }

    @Test("a link that no longer meets the characteristic's security is withheld")
    func security() async throws {
        let database = try GATTDatabase(services: [.primary(BluetoothUUID(0xAAA0), characteristics: [
            GATTCharacteristicDefinition(uuid: BluetoothUUID(0xAAA1), properties: [.read, .notify],
                                         permissions: GATTPermissions(read: .encrypted), value: .fixed([0x01])),
        ])])   // value 0x0003, CCCD 0x0004
        var h = try await ServerHarness.make(database)
        await h.expect("12 0400 0100", "13")
        let report = try await h.server.notify([0x02], for: 0x0003)
        #expect(report.withheld == [h.connection.peer])
        h.setSecurity(ATTSecurity(isEncrypted: true, encryptionKeySize: 16))
        #expect(try await h.server.notify([0x03], for: 0x0003).delivered == [h.connection.peer])
        #expect(await h.next() == "1b0300" + "03")
        await h.close()
    }

    @Test("closing the bearer drops the connection's state")
    func closing() async throws {
        var a = try await ServerHarness.make(try ServerTest.database())
        let b = await ServerHarness.make(a.server)
        await a.expect("12 1200 0100", "13")
        #expect(await a.server.connectionStateCount == 2)
        await a.close()
        #expect(await a.server.connections == [b.connection])
        #expect(await a.server.connectionStateCount == 1)
        #expect(await a.connection.isAttached == false)
        #expect(await a.connection.configuration(for: 0x0011) == [])
        await b.connection.detach()
        #expect(await a.server.connectionStateCount == 0)
        await b.close()
    }

    @Test("Write Commands the client sent before the link dropped reach their characteristic, though a notification found the link gone first")
    func commandAfterRefusedNotification() async throws {
        let log = ServerTest.Log()
        let server = try GATTServer(database: try ServerTest.database(log: log))
        let bearer = DroppingATTBearer()
        let connection = await server.connect(bearer)
        bearer.deliver([0x12, 0x12, 0x00, 0x01, 0x00])                 // CCCD of 0x0011: notifications
        #expect(await eventually { bearer.sent == [[0x13]] })
        let values = (UInt8(0x40)..<0x60).map { [$0] }
        bearer.drop(after: values.map { [0x52, 0x19, 0x00] + $0 }, endingInput: false)     // Write Commands to 0x0019
        let report = try await server.notify([0x01], for: 0x0011)
        #expect(report.failed[connection.peer] == .closed)
        await connection.engine.waitUntilClosed()
        #expect(log.writes == values.map { "0:" + Hex.encode($0) })
        #expect(await eventually { await server.connectionStateCount == 0 })
    }
}
