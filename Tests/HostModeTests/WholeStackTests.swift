import ATT
import BLECore
import GATT
import HCI
import Host
import Testing
import VirtualRadio

/// The whole stack in host mode on the virtual radio: two controllers brought up by the host,
/// a link made by scanning-free connection, the GATT client against the GATT server over
/// L2CAP's ATT channel, ACL flow control with small buffers, and the link's end.
@Suite("Host mode on the virtual radio", .timeLimit(.minutes(2)))
struct WholeStackTests {
    static func uuid(_ text: String) -> BluetoothUUID { BluetoothUUID(text)! }

    @Test("a central connects, exchanges MTU, discovers, reads, writes long and gets notified")
    func gattOverHostMode() async throws {
        let link = try await GATTLink.make()
        #expect(link.centralConnection.role == .central)
        #expect(link.peripheralConnection.role == .peripheral)
        #expect(link.centralConnection.peerAddress == link.peripheral.information.address)
        #expect(try await link.client.exchangeMTU() == 517)
        let services = try await link.client.discoverDatabase()
        let characteristics = services.flatMap(\.characteristics)
        #expect(characteristics.count >= 30)
        // A 300-octet value written long and read back long, through 27-octet ACL fragments.
        let writable = try #require(characteristics.first { $0.properties.contains(.write) && $0.properties.contains(.read) })
        let long = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        try await link.client.writeLong(long, to: writable.valueHandle)
        #expect(try await link.client.readLong(writable.valueHandle) == long)
        // A notification from the server reaches the subscribed client.
        let notifying = try #require(characteristics.first { $0.properties.contains(.notify) })
        let subscription = try await link.client.notifications(for: notifying)
        _ = try await link.server.notify([0x01, 0x02, 0x03], for: notifying.valueHandle)
        var iterator = subscription.makeAsyncIterator()
        let notification = await iterator.next()
        #expect(notification?.value == [0x01, 0x02, 0x03])
        #expect(link.central.controller.violations.isEmpty)
        #expect(link.peripheral.controller.violations.isEmpty)
        link.radio.shutDown()
    }

    @Test("an indication reaches the client and is confirmed before the server's call returns")
    func indication() async throws {
        let link = try await GATTLink.make()
        _ = try await link.client.exchangeMTU()
        let characteristics = try await link.client.discoverDatabase().flatMap(\.characteristics)
        let indicating = try #require(characteristics.first { $0.properties.contains(.indicate) && $0.uuid != BluetoothUUID(0x2A05) })
        let subscription = try await link.client.notifications(for: indicating, kind: .indication)
        let report = try await link.server.indicate([0xCA, 0xFE], for: indicating.valueHandle)
        #expect(report.delivered.count == 1, "confirmed: \(report)")
        var iterator = subscription.makeAsyncIterator()
        #expect(await iterator.next()?.value == [0xCA, 0xFE])
        link.radio.shutDown()
    }

    @Test("a link dropped in the middle of a long read ends the read, and the reason reaches both sides")
    func dropDuringRequest() async throws {
        let link = try await GATTLink.make()
        _ = try await link.client.exchangeMTU()
        let characteristics = try await link.client.discoverDatabase().flatMap(\.characteristics)
        let readable = try #require(characteristics.first { $0.properties.contains(.read) })
        // The peripheral drops the link while the central's reads are on their way.
        let reads = Task {
            for _ in 0..<1000 { _ = try await link.client.readLong(readable.valueHandle) }
        }
        try await link.peripheralConnection.disconnect(reason: .remoteDeviceTerminatedLowResources)
        await #expect(throws: GATTClientError.self) { try await reads.value }
        #expect(await link.centralConnection.disconnected() == .remoteDeviceTerminatedLowResources)
        #expect(await link.peripheralConnection.disconnected() == .connectionTerminatedByLocalHost)
        link.radio.shutDown()
    }

    @Test("a disconnection from the central reaches both sides with its reasons")
    func disconnectionReasons() async throws {
        let link = try await GATTLink.make()
        let reason = try await link.centralConnection.disconnect(reason: .remoteUserTerminatedConnection)
        #expect(reason == .connectionTerminatedByLocalHost)
        #expect(await link.peripheralConnection.disconnected() == .remoteUserTerminatedConnection)
        await #expect(throws: ATTBearerError.closed) { try await link.centralConnection.att.send([0x0A, 0x01, 0x00]) }
        #expect(await link.central.manager.connections.isEmpty)
        link.radio.shutDown()
    }
}
