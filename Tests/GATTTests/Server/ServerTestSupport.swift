import Testing
import Synchronization
import BLECore
import ATT
@testable import GATT

/// Helpers for the server tests, in a namespace so they cannot collide with other suites.
enum ServerTest {
    /// Octets from hexadecimal text with spaces and `#` comments.
    static func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
        guard let bytes = Hex.decode(text) else {
            Issue.record("bad hex fixture: \(text)", sourceLocation: sourceLocation)
            return []
        }
        return bytes
    }

    /// The repository's Fixtures/gatt-databases folder.
    static let fixtures: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)   // Tests/GATTTests/Server/ServerTestSupport.swift
        return parts.joined(separator: "/") + "/Fixtures/gatt-databases"
    }()

    /// Loads a database fixture by file name.
    static func load(_ name: String) throws -> GATTDatabase {
        try GATTDatabase(jsonFile: fixtures + "/" + name)
    }

    /// What the dynamic value of ``database(dynamic:)`` saw: every write, with its offset.
    final class Log: Sendable {
        private let entries = Mutex<[String]>([])
        /// The writes so far, as "offset:hex".
        var writes: [String] { entries.withLock { $0 } }
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    }

    /// A dynamic value holding `initial`: reads from an offset, writes at an offset (Invalid
    /// Offset past the end; values over 20 octets are refused with Application Error 0x80).
    static func dynamicValue(_ initial: [UInt8], log: Log) -> GATTValueHandlers {
        let storage = Mutex(initial)
        let read: GATTValueHandlers.Read = { (offset: Int, _: GATTPeer) throws(ATTErrorCode) -> [UInt8] in
            let value = storage.withLock { $0 }
            guard offset <= value.count else { throw ATTErrorCode.invalidOffset }
            return Array(value[offset...])
        }
        let write: GATTValueHandlers.Write = { (value: [UInt8], offset: Int, _: GATTPeer) throws(ATTErrorCode) in
            guard offset + value.count <= 20 else { throw ATTErrorCode(rawValue: 0x80) }
            try storage.withLock { (stored: inout [UInt8]) throws(ATTErrorCode) in
                guard offset <= stored.count else { throw ATTErrorCode.invalidOffset }
                stored = Array(stored[..<offset]) + value
            }
            log.append("\(offset):\(Hex.encode(value))")
        }
        return GATTValueHandlers(name: "dynamic", read: read, write: write)
    }

    /// The value of the 0xAAA2 characteristic: 300 octets, "000 001 002 ..." in text.
    static let longValue: [UInt8] = Array((0..<75).map { String($0 % 1000).leftPadded(to: 3) + " " }.joined().utf8)

    /// The test database. Handles are allocated; the server adds GAP at 0x001D and GATT at 0x0022.
    ///
    /// ```
    /// 0x0001 Primary Service AAA0
    /// 0x0003   AAA1 read                       "hello" (constant)
    /// 0x0005   AAA2 read, write                300 octets (long)
    /// 0x0007   AAA3 write                      (read not permitted)
    /// 0x0009   AAA4 read needs encryption      01
    /// 0x000B   AAA5 read needs authentication  02
    /// 0x000D   AAA6 read needs authorization   03
    /// 0x000F   AAA7 read needs a 16-octet key  04
    /// 0x0011   AAA8 read, notify, indicate     00    CCCD 0x0012
    /// 0x0014   AAA9 notify                     (empty), CCCD 0x0015
    /// 0x0017   AAAA read, write, signed writes (empty)
    /// 0x0019   AAAB read, write, dynamic       0a0b0c
    /// 0x001A Primary Service A5F20001-6C1B-4B8E-9E3A-4C696E757842
    /// 0x001C   A5F20002-... read               78 ("x")
    /// 0x001D Generic Access (added): 0x001F Device Name, 0x0021 Appearance
    /// 0x0022 Generic Attribute (added): 0x0024 Service Changed (CCCD 0x0025),
    ///        0x0027 Client Supported Features, 0x0029 Database Hash, 0x002B Server Supported Features
    /// ```
    static func database(log: Log = Log()) throws -> GATTDatabase {
        func characteristic(_ uuid: UInt16, _ properties: GATTCharacteristicProperties, _ value: [UInt8] = [],
                            read: GATTAccess? = nil) -> GATTCharacteristicDefinition {
            var definition = GATTCharacteristicDefinition(uuid: BluetoothUUID(uuid), properties: properties, value: .fixed(value))
            if let read { definition.permissions = GATTPermissions(read: read, write: definition.defaultPermissions.write) }
            return definition
        }
        let vendor = BluetoothUUID("A5F20001-6C1B-4B8E-9E3A-4C696E757842") ?? BluetoothUUID(0)
        let vendorCharacteristic = BluetoothUUID("A5F20002-6C1B-4B8E-9E3A-4C696E757842") ?? BluetoothUUID(0)
        return try GATTDatabase(services: [
            .primary(BluetoothUUID(0xAAA0), characteristics: [
                characteristic(0xAAA1, [.read], Array("hello".utf8)),
                characteristic(0xAAA2, [.read, .write], longValue),
                characteristic(0xAAA3, [.write]),
                characteristic(0xAAA4, [.read], [0x01], read: .encrypted),
                characteristic(0xAAA5, [.read], [0x02], read: .authenticated),
                characteristic(0xAAA6, [.read], [0x03], read: GATTAccess(authorization: true)),
                characteristic(0xAAA7, [.read], [0x04], read: GATTAccess(encryption: true, minimumKeySize: 16)),
                characteristic(0xAAA8, [.read, .notify, .indicate], [0x00]),
                characteristic(0xAAA9, [.notify]),
                characteristic(0xAAAA, [.read, .write, .authenticatedSignedWrites]),
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0xAAAB), properties: [.read, .write],
                                             value: .dynamic(dynamicValue([0x0A, 0x0B, 0x0C], log: log))),
            ]),
            .primary(vendor, characteristics: [
                GATTCharacteristicDefinition(uuid: vendorCharacteristic, properties: [.read], value: .fixed([0x78])),
            ]),
        ])
    }
}

/// A GATT server on one end of an in-memory pair, and a client on the other end scripted by raw
/// PDUs, as a capture shows them.
struct ServerHarness {
    let server: GATTServer
    let connection: GATTServerConnection
    /// The server's end: its security is what the server sees.
    let serverBearer: InMemoryATTBearer
    /// The client's end.
    let clientBearer: InMemoryATTBearer
    private var iterator: AsyncStream<[UInt8]>.Iterator

    /// A server for `database` with one client connection.
    static func make(_ database: GATTDatabase, configuration: GATTServerConfiguration = GATTServerConfiguration(),
                     options: GATTConnectionOptions = GATTConnectionOptions(),
                     maximumMTU: UInt16 = 517) async throws -> ServerHarness {
        let server = try GATTServer(database: database, configuration: configuration)
        return await make(server, options: options, maximumMTU: maximumMTU)
    }

    /// Another client connection to `server`.
    static func make(_ server: GATTServer, options: GATTConnectionOptions = GATTConnectionOptions(),
                     maximumMTU: UInt16 = 517, clock: TestClock? = nil) async -> ServerHarness {
        let (client, serverEnd) = InMemoryATTBearer.pair(maximumMTU: (maximumMTU, maximumMTU), recordsTranscript: true)
        let connection: GATTServerConnection
        if let clock {
            connection = await server.connect(serverEnd, clock: clock, options: options)
        } else {
            connection = await server.connect(serverEnd, options: options)
        }
        return ServerHarness(server: server, connection: connection, serverBearer: serverEnd, clientBearer: client,
                             iterator: client.received.makeAsyncIterator())
    }

    /// The next PDU the server sent, in hex; nil once the pair is closed.
    mutating func next() async -> String? {
        await iterator.next().map { Hex.encode($0) }
    }

    /// Sends `request` (hex with comments) and returns the server's next PDU in hex.
    mutating func send(_ request: String, sourceLocation: SourceLocation = #_sourceLocation) async -> String? {
        do {
            try clientBearer.sendNow(ServerTest.hex(request, sourceLocation: sourceLocation))
        } catch {
            Issue.record("the pair is closed", sourceLocation: sourceLocation)
            return nil
        }
        return await next()
    }

    /// Sends `request` and expects `response` (hex with comments) as the server's next PDU.
    mutating func expect(_ request: String, _ response: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let answer = await send(request, sourceLocation: sourceLocation)
        #expect(answer == Hex.encode(ServerTest.hex(response, sourceLocation: sourceLocation)), sourceLocation: sourceLocation)
    }

    /// Sends a command (no answer expected).
    func command(_ pdu: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try clientBearer.sendNow(ServerTest.hex(pdu, sourceLocation: sourceLocation))
    }

    /// Exchanges MTUs: the client offers `mtu`; the server (517) answers.
    mutating func exchangeMTU(_ mtu: UInt16, sourceLocation: SourceLocation = #_sourceLocation) async {
        let request = Hex.encode([0x02, UInt8(truncatingIfNeeded: mtu), UInt8(truncatingIfNeeded: mtu >> 8)])
        await expect(request, "03 0502", sourceLocation: sourceLocation)
    }

    /// Sets the security the server sees on this link.
    func setSecurity(_ security: ATTSecurity) { serverBearer.security = security }

    /// Closes the pair.
    func close() async { await connection.engine.close() }
}
