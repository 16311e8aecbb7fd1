import Synchronization
import Testing
import BLECore
import ATT
@testable import GATT

/// Prepare Write and Execute Write: long writes, reliable writes, cancel, the queue's bound and
/// the checks at execution (Core v5.4, Vol 3, Part F, 3.4.6; Part G, 4.9.4, 4.9.5).
@Suite("GATT server: queued writes", .timeLimit(.minutes(1)))
struct ServerQueuedWriteTests {
    /// Prepare Write Request for `handle` at `offset` with `value`, in hex.
    static func prepare(_ handle: UInt16, _ offset: UInt16, _ value: [UInt8]) -> String {
        Hex.encode([0x16, UInt8(truncatingIfNeeded: handle), UInt8(truncatingIfNeeded: handle >> 8),
                    UInt8(truncatingIfNeeded: offset), UInt8(truncatingIfNeeded: offset >> 8)] + value)
    }

    /// The echo a Prepare Write Response carries for the same part.
    static func echo(_ handle: UInt16, _ offset: UInt16, _ value: [UInt8]) -> String {
        "17" + prepare(handle, offset, value).dropFirst(2)
    }

    @Test("a long write in 18-octet parts, executed: the value is the parts in order")
    func longWrite() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        let value = (0..<50).map { UInt8($0) }
        var offset = 0
        while offset < value.count {
            let part = Array(value[offset..<min(value.count, offset + 18)])
            await h.expect(Self.prepare(0x0005, UInt16(offset), part), Self.echo(0x0005, UInt16(offset), part))
            offset += 18
        }
        #expect(await h.connection.preparedWrites == (3, 50))
        await h.expect("0a 0500", "0b" + Hex.encode(Array(ServerTest.longValue.prefix(22))))   // unchanged until executed
        await h.expect("18 01", "19")                                                          // Execute Write: write all
        #expect(await h.connection.preparedWrites == (0, 0))
        await h.expect("0c 0500 0000", "0d" + Hex.encode(Array(value.prefix(22))))
        await h.expect("0c 0500 2c00", "0d" + Hex.encode(Array(value.suffix(6))))
        await h.close()
    }

    @Test("cancel: Flags 0x00 discards the queue; an empty queue executes to a plain response")
    func cancel() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect(Self.prepare(0x0005, 0, [0x01]), Self.echo(0x0005, 0, [0x01]))
        await h.expect("18 00", "19")
        await h.expect("18 01", "19")
        await h.expect("0a 0300", "0b 68656c6c6f")
        await h.expect("0a 0500", "0b" + Hex.encode(Array(ServerTest.longValue.prefix(22))))
        // reserved Flags: Invalid PDU, the queue kept
        await h.expect(Self.prepare(0x0005, 0, [0x02]), Self.echo(0x0005, 0, [0x02]))
        await h.expect("18 02", "01 18 0000 04")
        #expect(await h.connection.preparedWrites.entries == 1)
        await h.expect("18 01", "19")
        await h.expect("0a 0500", "0b 02")
        await h.close()
    }

    @Test("Prepare Write errors when each part arrives: Invalid Handle, Write Not Permitted, security")
    func prepareErrors() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect(Self.prepare(0x00FF, 0, [0x01]), "01 16 ff00 01")
        await h.expect(Self.prepare(0x0000, 0, [0x01]), "01 16 0000 01")
        await h.expect(Self.prepare(0x0003, 0, [0x01]), "01 16 0300 03")
        await h.expect(Self.prepare(0x0024, 0, [0x01]), "01 16 2400 03")   // Service Changed
        #expect(await h.connection.preparedWrites.entries == 0)
        // an offset far past the end is queued: it is checked at execution (3.4.6.1 note)
        await h.expect(Self.prepare(0x0005, 400, [0x01]), Self.echo(0x0005, 400, [0x01]))
        await h.close()
    }

    @Test("Execute Write: Invalid Offset (0x07) past the value's end; nothing written, queue cleared")
    func invalidOffset() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect(Self.prepare(0x0005, 0, [0xAA]), Self.echo(0x0005, 0, [0xAA]))
        await h.expect(Self.prepare(0x0005, 2, [0xBB]), Self.echo(0x0005, 2, [0xBB]))   // the value is 1 octet by then
        await h.expect("18 01", "01 18 0500 07")
        #expect(await h.connection.preparedWrites.entries == 0)
        await h.expect("0a 0500", "0b" + Hex.encode(Array(ServerTest.longValue.prefix(22))))
        await h.close()
    }

    @Test("Execute Write: Invalid Attribute Value Length (0x0d) past 512 octets, or past a CCCD's 2")
    func invalidLength() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.exchangeMTU(517)
        let full = [UInt8](repeating: 0x55, count: 512)
        await h.expect(Self.prepare(0x0005, 0, full), Self.echo(0x0005, 0, full))
        await h.expect(Self.prepare(0x0005, 512, [0x01]), Self.echo(0x0005, 512, [0x01]))
        await h.expect("18 01", "01 18 0500 0d")
        await h.expect(Self.prepare(0x0012, 1, [0x01, 0x00]), Self.echo(0x0012, 1, [0x01, 0x00]))
        await h.expect("18 01", "01 18 1200 0d")
        // within the CCCD: the second octet written alone at offset 1
        await h.expect(Self.prepare(0x0012, 0, [0x01]), Self.echo(0x0012, 0, [0x01]))
        await h.expect(Self.prepare(0x0012, 1, [0x00]), Self.echo(0x0012, 1, [0x00]))
        await h.expect("18 01", "19")
        #expect(await h.connection.configuration(for: 0x0011) == .notification)
        await h.close()
    }

    /// Characteristics that take reliable writes (Part G, 3.3.3.1): AAA2 (the 300-octet value),
    /// AAA8 (notify, indicate), AAA9 (notify only) and AAAB (dynamic, 0a0b0c).
    static func reliableDatabase(log: ServerTest.Log) throws -> GATTDatabase {
        func reliable(_ uuid: UInt16, _ properties: GATTCharacteristicProperties, _ value: GATTAttributeValue) -> GATTCharacteristicDefinition {
            var definition = GATTCharacteristicDefinition(uuid: BluetoothUUID(uuid), properties: properties, value: value)
            definition.extendedProperties = .reliableWrite
            return definition
        }
        return try GATTDatabase(services: [
            .primary(BluetoothUUID(0xAAA0), characteristics: [
                reliable(0xAAA2, [.read, .write], .fixed(ServerTest.longValue)),
                reliable(0xAAA8, [.read, .write, .notify, .indicate], .fixed([0x00])),
                reliable(0xAAA9, [.write, .notify], .fixed([])),
                reliable(0xAAAB, [.read, .write], .dynamic(ServerTest.dynamicValue([0x0A, 0x0B, 0x0C], log: log))),
            ]),
        ])
    }

    @Test("a reliable write across handles is atomic: a fault in one writes none")
    func atomic() async throws {
        let log = ServerTest.Log()
        let database = try Self.reliableDatabase(log: log)
        func characteristic(_ uuid: UInt16) throws -> GATTCharacteristic {
            try #require(database.services.flatMap(\.characteristics).first { $0.uuid == BluetoothUUID(uuid) })
        }
        let long = try characteristic(0xAAA2).valueHandle, dynamic = try characteristic(0xAAAB).valueHandle
        let cccd = try #require(try characteristic(0xAAA8).clientCharacteristicConfigurationHandle)
        let notifyOnly = try #require(try characteristic(0xAAA9).clientCharacteristicConfigurationHandle)
        func hex(_ handle: UInt16) -> String { Hex.encode([UInt8(handle & 0xFF), UInt8(handle >> 8)]) }
        var h = try await ServerHarness.make(database)
        await h.expect(Self.prepare(long, 0, [0x01, 0x02]), Self.echo(long, 0, [0x01, 0x02]))
        await h.expect(Self.prepare(dynamic, 0, [0x09]), Self.echo(dynamic, 0, [0x09]))
        await h.expect(Self.prepare(cccd, 0, [0x02, 0x00]), Self.echo(cccd, 0, [0x02, 0x00]))
        await h.expect(Self.prepare(notifyOnly, 0, [0x02, 0x00]), Self.echo(notifyOnly, 0, [0x02, 0x00]))   // AAA9 cannot indicate
        await h.expect("18 01", "01 18 \(hex(notifyOnly)) 13")
        await h.expect("0a \(hex(long))", "0b" + Hex.encode(Array(ServerTest.longValue.prefix(22))))
        await h.expect("0a \(hex(cccd))", "0b 0000")
        #expect(log.writes.isEmpty)   // the dynamic value's handler was never called
        // without the fault: all three written, the dynamic one through its handler with its offset
        await h.expect(Self.prepare(long, 0, [0x01, 0x02]), Self.echo(long, 0, [0x01, 0x02]))
        await h.expect(Self.prepare(dynamic, 1, [0x09]), Self.echo(dynamic, 1, [0x09]))
        await h.expect(Self.prepare(cccd, 0, [0x02, 0x00]), Self.echo(cccd, 0, [0x02, 0x00]))
        await h.expect("18 01", "19")
        await h.expect("0a \(hex(long))", "0b 0102")
        await h.expect("0a \(hex(dynamic))", "0b 0a09")
        await h.expect("0a \(hex(cccd))", "0b 0200")
        #expect(log.writes == ["1:09"])
        await h.close()
    }

    @Test("a reliable write takes only values with the Reliable Write bit: Request Not Supported, the part not queued")
    func reliableWriteBit() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        // 0x0005 (AAA2) has no Reliable Write bit: written long on its own, it is fine.
        await h.expect(Self.prepare(0x0005, 0, [0x01]), Self.echo(0x0005, 0, [0x01]))
        await h.expect(Self.prepare(0x0005, 1, [0x02]), Self.echo(0x0005, 1, [0x02]))
        // Another attribute's value joining the queue makes it a reliable write: refused.
        await h.expect(Self.prepare(0x0019, 0, [0x09]), "01 16 1900 06")
        // So is a descriptor: the queue would hold 0x0005 with another attribute.
        await h.expect(Self.prepare(0x0012, 0, [0x01, 0x00]), "01 16 1200 06")
        await h.expect("18 01", "19")
        await h.expect("0a 0500", "0b 0102")
        await h.expect("0a 1900", "0b 0a0b0c")
        await h.expect("0a 1200", "0b 0000")
        // A descriptor and a value that takes reliable writes are not restricted: none here, so a
        // queue of two descriptors shows it.
        await h.expect(Self.prepare(0x0012, 0, [0x01, 0x00]), Self.echo(0x0012, 0, [0x01, 0x00]))
        await h.expect(Self.prepare(0x0015, 0, [0x01, 0x00]), Self.echo(0x0015, 0, [0x01, 0x00]))
        await h.expect("18 01", "19")
        await h.expect("0a 1200", "0b 0100")
        await h.close()
    }

    @Test("a dynamic value's handler error ends the execution with its code, naming its handle")
    func handlerError() async throws {
        let log = ServerTest.Log()
        var h = try await ServerHarness.make(try ServerTest.database(log: log))
        await h.expect(Self.prepare(0x0019, 0, [0x01]), Self.echo(0x0019, 0, [0x01]))
        await h.expect(Self.prepare(0x0019, 30, [0x02]), Self.echo(0x0019, 30, [0x02]))   // past 20: Application Error 0x80
        await h.expect("18 01", "01 18 1900 80")
        #expect(log.writes == ["0:01"])
        await h.close()
    }

    @Test("a dynamic value's parts are held to 512 octets before its handler runs: Invalid Offset past it, Invalid Attribute Value Length across it")
    func dynamicValueBounds() async throws {
        let log = ServerTest.Log()
        var h = try await ServerHarness.make(try ServerTest.database(log: log))
        await h.expect(Self.prepare(0x0019, 513, [0x01]), Self.echo(0x0019, 513, [0x01]))
        await h.expect("18 01", "01 18 1900 07")                    // Invalid Offset
        await h.expect(Self.prepare(0x0019, 0, [0x01]), Self.echo(0x0019, 0, [0x01]))
        await h.expect(Self.prepare(0x0019, 500, Array(repeating: 0x02, count: 13)), Self.echo(0x0019, 500, Array(repeating: 0x02, count: 13)))
        await h.expect("18 01", "01 18 1900 0d")                    // 500 + 13 passes 512
        #expect(log.writes.isEmpty, "the handler saw none of the parts")
        await h.expect(Self.prepare(0x0019, 500, Array(repeating: 0x02, count: 12)), Self.echo(0x0019, 500, Array(repeating: 0x02, count: 12)))
        await h.expect("18 01", "01 18 1900 80")                    // ends at 512: the handler's own answer (past 20)
        await h.close()
    }

    /// The batches a queued write handler received, and the refusal it gives (none by default).
    final class Batches: Sendable {
        private let state = Mutex<(batches: [[GATTQueuedWrite]], refusal: GATTQueuedWriteRefusal?)>(([], nil))
        var received: [[GATTQueuedWrite]] { state.withLock { $0.batches } }
        func refuse(with refusal: GATTQueuedWriteRefusal) { state.withLock { $0.refusal = refusal } }
        func take(_ parts: [GATTQueuedWrite]) throws(GATTQueuedWriteRefusal) {
            let refusal = state.withLock { state in
                state.batches.append(parts)
                return state.refusal
            }
            if let refusal { throw refusal }
        }
    }

    @Test("with a queued write handler, the dynamic parts of an execution go to it together, in queue order, and the values the server holds are stored as always; its refusal is the error response")
    func queuedWriteHandler() async throws {
        let log = ServerTest.Log()
        var h = try await ServerHarness.make(try ServerTest.database(log: log))
        let batches = Batches()
        await h.server.setQueuedWriteHandler { parts, _ async throws(GATTQueuedWriteRefusal) in try batches.take(parts) }
        await h.expect(Self.prepare(0x0019, 0, [0x01, 0x02]), Self.echo(0x0019, 0, [0x01, 0x02]))
        await h.expect(Self.prepare(0x0019, 2, [0x03]), Self.echo(0x0019, 2, [0x03]))
        await h.expect("18 01", "19")
        #expect(batches.received == [[GATTQueuedWrite(handle: 0x0019, offset: 0, value: [0x01, 0x02]),
                                      GATTQueuedWrite(handle: 0x0019, offset: 2, value: [0x03])]])
        #expect(log.writes.isEmpty, "the value's own write handler is not called part by part")

        batches.refuse(with: GATTQueuedWriteRefusal(handle: 0x0019, code: .invalidAttributeValueLength))
        await h.expect(Self.prepare(0x0019, 0, [0x04]), Self.echo(0x0019, 0, [0x04]))
        await h.expect("18 01", "01 18 1900 0d")
        #expect(batches.received.count == 2)
        await h.close()
    }

    @Test("the queue's bound: Prepare Queue Full (0x09); the refused part is not queued")
    func queueFull() async throws {
        let configuration = GATTServerConfiguration(prepareQueueLimit: GATTPrepareQueueLimit(maximumEntries: 3, maximumOctets: 40))
        var h = try await ServerHarness.make(try ServerTest.database(), configuration: configuration)
        for i in 0..<3 {
            let part = [UInt8](repeating: UInt8(i), count: 10)
            await h.expect(Self.prepare(0x0005, UInt16(i * 10), part), Self.echo(0x0005, UInt16(i * 10), part))
        }
        await h.expect(Self.prepare(0x0005, 30, [0x03]), "01 16 0500 09")       // a fourth entry
        #expect(await h.connection.preparedWrites == (3, 30))
        await h.expect("18 01", "19")
        await h.expect("0a 0500", "0b" + Hex.encode([UInt8](repeating: 0, count: 10) + [UInt8](repeating: 1, count: 10)
                                                    + [UInt8](repeating: 2, count: 2)))
        // the octet bound: 40 octets
        await h.expect(Self.prepare(0x0005, 0, [UInt8](repeating: 7, count: 18)), Self.echo(0x0005, 0, [UInt8](repeating: 7, count: 18)))
        await h.expect(Self.prepare(0x0005, 18, [UInt8](repeating: 7, count: 18)), Self.echo(0x0005, 18, [UInt8](repeating: 7, count: 18)))
        await h.expect(Self.prepare(0x0005, 36, [UInt8](repeating: 7, count: 5)), "01 16 0500 09")
        await h.expect(Self.prepare(0x0005, 36, [UInt8](repeating: 7, count: 4)), Self.echo(0x0005, 36, [UInt8](repeating: 7, count: 4)))
        #expect(await h.connection.preparedWrites == (3, 40))
        await h.close()
    }

    @Test("a flood of long writes stops at the queue's bound with Prepare Queue Full, and stays bounded")
    func flood() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.exchangeMTU(517)
        let part = [UInt8](repeating: 0xA5, count: 512)
        var accepted = 0, full = 0
        for i in 0..<1_000 {
            let answer = try #require(await h.send(Self.prepare(0x0005, UInt16(i % 8) * 64, part)))
            if answer.hasPrefix("17") { accepted += 1 } else {
                #expect(answer == "01160500" + "09")
                full += 1
            }
        }
        // The standard bound: 4096 octets = 8 parts of 512 (64 entries would come first for short parts).
        #expect(accepted == 8)
        #expect(full == 992)
        #expect(await h.connection.preparedWrites == (8, 4096))
        await h.close()
    }

    @Test("each connection has its own queue")
    func perConnection() async throws {
        var a = try await ServerHarness.make(try ServerTest.database())
        var b = await ServerHarness.make(a.server)
        await a.expect(Self.prepare(0x0005, 0, [0xA1]), Self.echo(0x0005, 0, [0xA1]))
        await b.expect(Self.prepare(0x0005, 0, [0xB1]), Self.echo(0x0005, 0, [0xB1]))
        await b.expect("18 00", "19")                // B cancels its own queue only
        await a.expect("18 01", "19")
        await b.expect("0a 0500", "0b a1")
        await a.close()
        await b.close()
    }
}

/// Queued writes that straddle a database replacement.
@Suite("GATT server: queued writes across a database replacement", .timeLimit(.minutes(1)))
struct ServerQueuedWriteReplacementTests {
    /// 0x0001 Primary Service `service`; 0x0003 notify (CCCD 0x0004); 0x0006 write, dynamic,
    /// Reliable Write, its handler held by `gate` (each call yields to `reached` first).
    static func database(_ service: UInt16, gate: AsyncStream<Void>? = nil, reached: AsyncStream<Void>.Continuation? = nil) throws -> GATTDatabase {
        let write: GATTValueHandlers.Write = { (_: [UInt8], _: Int, _: GATTPeer) throws(ATTErrorCode) in
            reached?.yield()
            if let gate { for await _ in gate { break } }
        }
        var held = GATTCharacteristicDefinition(uuid: BluetoothUUID(0xBBB2), properties: [.write],
                                                value: .dynamic(GATTValueHandlers(name: "held", write: write)))
        held.extendedProperties = .reliableWrite                 // may share the queue with the CCCD
        return try GATTDatabase(services: [
            .primary(BluetoothUUID(service), characteristics: [
                GATTCharacteristicDefinition(uuid: BluetoothUUID(0xBBB1), properties: [.notify], value: .fixed([])),
                held,
            ]),
        ])
    }

    @Test("a CCCD part executed while the database was replaced under a dynamic part is not stored at its old handle in the new database")
    func cccdNotStoredAcrossReplacement() async throws {
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let (reached, didReach) = AsyncStream.makeStream(of: Void.self)
        var h = try await ServerHarness.make(try Self.database(0xBBB0, gate: gate, reached: didReach))
        await h.expect(ServerQueuedWriteTests.prepare(0x0004, 0, [0x01, 0x00]), ServerQueuedWriteTests.echo(0x0004, 0, [0x01, 0x00]))
        await h.expect(ServerQueuedWriteTests.prepare(0x0006, 0, [0x55]), ServerQueuedWriteTests.echo(0x0006, 0, [0x55]))
        try h.command("18 01")                                   // Execute Write: the dynamic part waits
        for await _ in reached { break }
        try await h.server.replaceDatabase(try Self.database(0xBBC0))   // same handles, another database
        open.yield()
        #expect(await h.next() == "19")
        await h.expect("0a 0400", "0b 0000")                     // the new database's CCCD was never written
        await h.close()
    }
}
