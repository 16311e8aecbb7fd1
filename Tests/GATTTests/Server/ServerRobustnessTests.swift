import Testing
import Foundation
import BLECore
import ATT
@testable import GATT

/// Bad input: seeded random and mutated PDUs through the server (the issue's "Bad input"): every
/// request gets exactly one valid response, commands none, and what the server holds stays
/// within its bounds.
@Suite("GATT server: robustness", .serialized, .timeLimit(.minutes(5)))
struct ServerRobustnessTests {
    /// Valid PDUs to mutate: every request and command the server serves, and PDUs of the other
    /// types a confused or hostile client might send.
    static let corpus: [[UInt8]] = [
        "02 1700", "04 0100 ffff", "04 1000 1200", "06 0100 ffff 0028 a0aa", "06 0100 ffff 0328 02 0300 a1aa",
        "08 0100 ffff 0328", "08 0100 ffff 2a2b", "08 0100 0500 a2aa", "0a 0300", "0a 1900", "0a 2700", "0c 0500 1600",
        "0c 1900 0100", "0e 0300 1100", "0e 0300 1900 0500", "10 0100 ffff 0028", "10 0100 ffff 0128", "12 0500 0102",
        "12 1200 0100", "12 1500 0100", "12 2500 0200", "12 2700 05", "12 1900 0102", "16 0500 0000 aabb",
        "16 1900 0100 aa", "16 1200 0000 0100", "18 01", "18 00", "20 0300 0500", "20 1100 1900 2700", "52 0500 01",
        "52 1200 0100", "d2 1700 01 01000000 f1871e933c900ff2", "1e", "1b 0300 01", "1d 0300 01", "0b 00", "01 0a 0300 01",
        "3f 00", "7f 00", "23 0300 0100 01 0500 0100 02",
    ].map { ServerTest.hex($0) }

    /// A random PDU: a mutated corpus entry, a request with random parameters (handles mostly
    /// near the database), a long Prepare Write, or random octets.
    static func pdu(_ rng: inout SplitMix64, mtu: Int) -> [UInt8] {
        func byte() -> UInt8 { UInt8(truncatingIfNeeded: rng.next()) }
        func handle() -> [UInt8] {
            let value: UInt16 = rng.next() % 10 < 8 ? UInt16(rng.next() % 0x30) : UInt16(truncatingIfNeeded: rng.next())
            return [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }
        switch rng.next() % 20 {
        case 0..<8:   // a mutated corpus entry
            var octets = corpus[Int(rng.next() % UInt64(corpus.count))]
            for _ in 0...(rng.next() % 3) {
                let position = octets.isEmpty ? 0 : Int(rng.next() % UInt64(octets.count))
                switch rng.next() % 5 {
                case 0 where !octets.isEmpty: octets[position] ^= UInt8(1 << (rng.next() % 8))
                case 1: octets.insert(byte(), at: position)
                case 2 where !octets.isEmpty: octets.remove(at: position)
                case 3 where octets.count > 2: octets.replaceSubrange(1..<3, with: handle())
                default: octets = Array(octets.prefix(position))
                }
            }
            return octets
        case 8..<16:  // a defined request or command with random parameters
            let opcodes: [UInt8] = [0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x20, 0x52, 0xD2]
            var octets = [opcodes[Int(rng.next() % UInt64(opcodes.count))]]
            let slots = Int(rng.next() % 8)
            for _ in 0..<slots { octets += rng.next() % 3 == 0 ? [byte(), byte()] : handle() }
            if rng.next() % 2 == 0 { octets.append(byte()) }
            return octets
        case 16, 17:  // a long Prepare Write to the long value (the queue's bound)
            let length = Int(rng.next() % UInt64(max(1, mtu - 4)))
            return [0x16, 0x05, 0x00, byte(), byte() & 0x01] + (0..<length).map { _ in byte() }
        default:      // random octets
            return (0..<Int(rng.next() % 40)).map { _ in byte() }
        }
    }

    /// Whether `response` answers `request` as a server must: its response opcode or an Error
    /// Response naming it, within `mtu`.
    static func answers(_ response: ATTPDU, _ request: ATTOpcode, mtu: Int) -> Bool {
        guard response.encoded.count <= mtu else { return false }
        if case .errorResponse(let error) = response { return error.requestOpcodeInError == request }
        return response.opcode.answeredRequest == request
    }

    /// The resident set size of this process, in octets (Linux /proc/self/statm).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * 4096 : 0
    }

    @Test("1,000,000 seeded random and mutated PDUs through the server's handler (seed 0x5EED)")
    func millionPDUs() async throws {
        let limit = GATTServerConfiguration().prepareQueueLimit
        let server = try GATTServer(database: try ServerTest.database())
        let alternate = try ServerServiceChangedTests.changedVendorService()
        let original = try ServerTest.database()
        // Four connections on in-memory pairs; each client end confirms indications and drops the rest.
        var connections: [(connection: GATTServerConnection, bearer: InMemoryATTBearer, mtu: Int)] = []
        var drains: [Task<Void, Never>] = []
        for (i, mtu) in [23, 517, 100, 23].enumerated() {
            let (client, serverEnd) = InMemoryATTBearer.pair(mtu: 517)
            let connection = await server.connect(serverEnd, options: GATTConnectionOptions(isBonded: i == 3))
            if mtu != 23 { try client.sendNow([0x02, UInt8(mtu & 0xFF), UInt8(mtu >> 8)]) }
            drains.append(Task {
                for await pdu in client.received where pdu.first == 0x1D { try? client.sendNow([0x1E]) }
            })
            while connection.mtu != mtu { await Task.yield() }
            connections.append((connection, serverEnd, mtu))
        }
        let securities: [ATTSecurity] = [.none, ATTSecurity(isEncrypted: true, encryptionKeySize: 7),
                                         ATTSecurity(isEncrypted: true, isAuthenticated: true, isAuthorized: true, encryptionKeySize: 16)]

        let residentBefore = Self.residentBytes()
        let clock = ContinuousClock()
        let start = clock.now
        var rng = SplitMix64(seed: 0x5EED)
        var requests = 0, responses = 0, commands = 0, engineAnswered = 0, errors = 0
        var worst = GATTServer.Footprint()
        for i in 0..<1_000_000 {
            // Awaits on a free actor do not give the thread up: let the other tests' tasks
            // have the cooperative pool (one thread per core) now and then.
            if i % 1_000 == 0 { await Task.yield() }
            let (connection, bearer, mtu) = connections[Int(rng.next() % 4)]
            if i % 1_000 == 0 { bearer.security = securities[Int(rng.next() % 3)] }
            if i % 250_000 == 125_000 {
                try await server.replaceDatabase(i % 500_000 == 125_000 ? alternate : original)
            }
            if i % 50_000 == 0 {
                _ = try await server.notify([UInt8(truncatingIfNeeded: i)], for: 0x0011)
                _ = try await server.indicate([UInt8(truncatingIfNeeded: i)], for: 0x0011)
            }
            let octets = Self.pdu(&rng, mtu: mtu)
            guard let first = octets.first else { continue }   // the engine ignores an empty PDU
            guard let pdu = try? ATTPDU.decode(octets) else {
                // The engine answers an undecodable request with Invalid PDU itself.
                if ATTOpcode(rawValue: first).kind == .request { engineAnswered += 1 }
                continue
            }
            switch pdu.kind {
            case .request where pdu.opcode == .exchangeMTURequest:
                engineAnswered += 1                             // the engine's own
            case .request:
                requests += 1
                let response = await server.respond(to: pdu, connection: connection.peer.connectionID)
                if let response, Self.answers(response, pdu.opcode, mtu: mtu) {
                    responses += 1
                    if case .errorResponse = response { errors += 1 }
                } else {
                    Issue.record("\(pdu) got \(response.map { "\($0)" } ?? "no response")")
                }
            case .unknown:
                engineAnswered += 1                             // Request Not Supported, from the engine
                let response = await server.respond(to: pdu, connection: connection.peer.connectionID)
                #expect(response == nil)
            case .command:
                commands += 1
                let response = await server.respond(to: pdu, connection: connection.peer.connectionID)
                #expect(response == nil)
            default:
                break                                           // responses, notifications...: not the server's
            }
            if i % 10_000 == 0 {
                let footprint = await server.footprint
                worst.preparedEntries = max(worst.preparedEntries, footprint.preparedEntries)
                worst.preparedOctets = max(worst.preparedOctets, footprint.preparedOctets)
                worst.configurations = max(worst.configurations, footprint.configurations)
                worst.featureOctets = max(worst.featureOctets, footprint.featureOctets)
                worst.values = max(worst.values, footprint.values)
                worst.valueOctets = max(worst.valueOctets, footprint.valueOctets)
            }
        }
        let elapsed = clock.now - start
        let residentAfter = Self.residentBytes()
        print("1,000,000 PDUs in \(elapsed): \(requests) requests answered by the server (\(errors) with an Error Response), "
              + "\(engineAnswered) answered by the engine, \(commands) commands; worst footprint \(worst); "
              + "resident \(residentBefore / 1_048_576) MiB -> \(residentAfter / 1_048_576) MiB")

        #expect(responses == requests)
        #expect(requests > 250_000 && engineAnswered > 250_000)
        #expect(commands > 20_000)
        // The bounds: the prepare queue's limit, the 3 CCCDs of the database, 512 octets of
        // Client Supported Features, one written value per writable fixed attribute (512 octets each).
        #expect(worst.preparedEntries <= limit.maximumEntries && worst.preparedOctets <= limit.maximumOctets)
        #expect(worst.preparedEntries == limit.maximumEntries || worst.preparedOctets > limit.maximumOctets - 512)
        #expect(worst.configurations <= 3)
        #expect(worst.featureOctets <= 512)
        #expect(worst.values <= 4 && worst.valueOctets <= 4 * 512)
        // Memory: the process grew by less than 64 MiB over the run (the server's own state is the
        // few kilobytes above; the rest is the test runtime's).
        #expect(residentAfter - residentBefore < 64 * 1_048_576)
        #expect(await server.connectionStateCount == 4)
        for (connection, _, _) in connections { await connection.engine.close() }
        for drain in drains { await drain.value }
    }

    @Test("20,000 random PDUs over the in-memory pair: exactly one answer per request, nothing else (seed 0xBEA4)")
    func overTheBearer() async throws {
        let server = try GATTServer(database: try ServerTest.database())
        var h = await ServerHarness.make(server)
        var rng = SplitMix64(seed: 0xBEA4)
        var answered = 0
        for _ in 0..<20_000 {
            let octets = Self.pdu(&rng, mtu: 23)
            guard let first = octets.first else { continue }
            let opcode = ATTOpcode(rawValue: first)
            try h.clientBearer.sendNow(octets)
            let expectsAnswer = opcode.kind == .request || opcode.kind == .unknown || opcode == .handleValueIndication
            guard expectsAnswer else { continue }
            let answer = try #require(await h.next().flatMap { Hex.decode($0) })
            answered += 1
            if opcode == .handleValueIndication {
                #expect(answer == [0x1E], "an indication is confirmed by the server's engine")
            } else if let response = try? ATTPDU.decode(answer) {
                #expect(Self.answers(response, opcode, mtu: h.connection.mtu), "\(Hex.encode(octets)) -> \(Hex.encode(answer))")
            } else {
                Issue.record("\(Hex.encode(octets)) -> undecodable \(Hex.encode(answer))")
            }
        }
        // Commands and other PDUs sent nothing: the next PDU answers the next request.
        await h.expect("0a 1c00", "0b 78")
        #expect(answered > 10_000)
        await h.close()
    }

    @Test("throughput on the in-memory pair: 10,000 Read Requests and 10,000 notifications (printed)")
    func throughput() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        let clock = ContinuousClock()
        var start = clock.now
        for _ in 0..<10_000 {
            try h.clientBearer.sendNow([0x0A, 0x03, 0x00])
            guard await h.next() == "0b68656c6c6f" else { Issue.record("wrong answer"); break }
        }
        let reads = clock.now - start
        await h.expect("12 1200 0100", "13")
        start = clock.now
        var received = 0
        for i in 0..<10_000 {
            _ = try await h.server.notify([UInt8(truncatingIfNeeded: i)], for: 0x0011)
            if await h.next() == "1b1100" + Hex.encode([UInt8(truncatingIfNeeded: i)]) { received += 1 }
        }
        let notifications = clock.now - start
        #expect(received == 10_000)
        func perSecond(_ duration: Duration) -> Int {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return seconds > 0 ? Int(10_000 / seconds) : 0
        }
        print("in-memory pair, this build: \(perSecond(reads)) Read Requests/s (lockstep), \(perSecond(notifications)) notifications/s")
        await h.close()
    }
}
