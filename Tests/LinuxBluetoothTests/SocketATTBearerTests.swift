import Foundation
import Glibc
import Testing
import ATT
import BLECore
import GATT
@testable import LinuxBluetooth

/// SocketATTBearer on a Unix SOCK_SEQPACKET socket pair: the same message-per-PDU, non-blocking,
/// readiness-driven I/O as on the kernel's L2CAP ATT socket, without a radio. (The L2CAP socket
/// itself runs in the kernel lane.)
@Suite("SocketATTBearer", .timeLimit(.minutes(1)))
struct SocketATTBearerTests {
    static func pair(maximumMTU: UInt16 = 517) throws -> (SocketATTBearer, SocketATTBearer) {
        let fds = try seqpacketPair()
        return (SocketATTBearer(socket: BluetoothSocket(adopting: fds[0]), maximumMTU: maximumMTU),
                SocketATTBearer(socket: BluetoothSocket(adopting: fds[1]), maximumMTU: maximumMTU))
    }

    @Test("each message is one PDU, in order, both ways; a socket that is not Bluetooth reports no security")
    func messages() async throws {
        let (a, b) = try Self.pair()
        try await a.send([0x0a, 0x03, 0x00])
        try await a.send([0x52, 0x05, 0x00] + [UInt8](repeating: 0xee, count: 300))
        try await b.send([0x0b, 0x41])
        var fromA = b.received.makeAsyncIterator()
        var fromB = a.received.makeAsyncIterator()
        #expect(await fromA.next() == [0x0a, 0x03, 0x00])
        #expect(await fromA.next() == [0x52, 0x05, 0x00] + [UInt8](repeating: 0xee, count: 300))
        #expect(await fromB.next() == [0x0b, 0x41])
        #expect(await a.security == .none)
        #expect(a.maximumMTU == 517)
        await a.close()
        await b.close()
    }

    @Test("ended() waits for the peer's close and reports an orderly end; a socket that is not L2CAP has no connection handle")
    func endedAndHandle() async throws {
        let (a, b) = try Self.pair()
        #expect(a.connectionHandle == nil)
        let waiting = Task { await a.ended() }
        await b.close()
        #expect(await waiting.value == nil)
        // Once ended, at once again.
        #expect(await a.ended() == nil)
        await a.close()
    }

    @Test("BT_SECURITY levels: 1 none, 2 encrypted, 3 and 4 also authenticated, with the key size")
    func securityLevels() {
        #expect(SocketATTBearer.security(level: 1, keySize: 0) == .none)
        #expect(SocketATTBearer.security(level: 2, keySize: 16) == ATTSecurity(isEncrypted: true, encryptionKeySize: 16))
        #expect(SocketATTBearer.security(level: 3, keySize: 7) == ATTSecurity(isEncrypted: true, isAuthenticated: true, encryptionKeySize: 7))
        #expect(SocketATTBearer.security(level: 4, keySize: 16).isAuthenticated)
    }

    @Test("the peer closing finishes received after what it sent; sends then throw closed")
    func peerCloses() async throws {
        let (a, b) = try Self.pair()
        try await a.send([0x1b, 0x03, 0x00, 0x01])
        await a.close()
        var fromA = b.received.makeAsyncIterator()
        #expect(await fromA.next() == [0x1b, 0x03, 0x00, 0x01])
        #expect(await fromA.next() == nil)
        await #expect(throws: ATTBearerError.closed) { try await b.send([0x1e]) }
        await #expect(throws: ATTBearerError.closed) { try await a.send([0x1e]) }
        #expect(b.endError == nil || b.endError?.code == EPIPE)
    }

    @Test("a full socket buffer makes send wait for writability, not fail: 2,000 PDUs sent before any is read")
    func backpressure() async throws {
        let (a, b) = try Self.pair()
        let sender = Task {
            for n in 0..<2_000 { try await a.send([0x1b, UInt8(n & 0xff), UInt8(n >> 8)] + [UInt8](repeating: 0, count: 200)) }
        }
        var fromA = b.received.makeAsyncIterator()
        for n in 0..<2_000 {
            let pdu = await fromA.next()
            #expect(pdu?.prefix(3) == [0x1b, UInt8(n & 0xff), UInt8(n >> 8)][...])
        }
        try await sender.value
        await a.close()
        await b.close()
    }

    @Test("the GATT client discovers and reads long through the GATT server over the socket pair")
    func gattOverSockets() async throws {
        let (serverEnd, clientEnd) = try Self.pair()
        let database = try GATTDatabase(services: [
            .primary(BluetoothUUID(0x180F), characteristics: [
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0x2A19), properties: [.read, .notify], value: .fixed([0x64])),
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0x2A29), properties: [.read],
                                             value: .fixed(Array(repeating: 0x4C, count: 300))),
            ]),
        ])
        let server = try GATTServer(database: database)
        _ = await server.connect(serverEnd)
        let client = GATTClient(engine: ATTEngine(bearer: clientEnd))
        #expect(try await client.exchangeMTU() == 517)
        let services = try await client.discoverDatabase()
        let characteristics = services.flatMap(\.characteristics)
        let name = try #require(characteristics.first { $0.uuid == BluetoothUUID(0x2A29) })
        #expect(try await client.readLong(name.valueHandle) == Array(repeating: 0x4C, count: 300))
        let battery = try #require(characteristics.first { $0.uuid == BluetoothUUID(0x2A19) })
        let notifications = try await client.notifications(for: battery, kind: .notification)
        var iterator = notifications.makeAsyncIterator()
        _ = try await server.notify([0x63], for: battery.valueHandle)
        #expect(await iterator.next()?.value == [0x63])
        await client.close()
    }
}
