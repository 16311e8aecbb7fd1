import ATT
import BLECore
import Foundation
import GATT

/// The GATT benchmarks of `make bench`: the server's request rate and notification rate on the
/// in-memory bearer, and the ATT round trips of a cold discovery against a cached reconnection, all
/// on the reference database (Fixtures/gatt-databases/reference.json).
enum GATTBench {
    static let referenceDatabase = Corpus.packageRoot + "/Fixtures/gatt-databases/reference.json"

    /// A server on the reference database and one client connected to it over an in-memory pair.
    struct Link {
        let server: GATTServer
        let client: GATTClient
        let clientEnd: InMemoryATTBearer

        /// Requests the client has sent (kept only when the pair records its transcript).
        var requestsSent: Int {
            clientEnd.sentCount(.request)
        }
    }

    static func connect(_ server: GATTServer, cache: (any GATTClientCache)? = nil, transcript: Bool = false) async -> Link {
        let (serverEnd, clientEnd) = InMemoryATTBearer.pair(mtu: 247, recordsTranscript: transcript)
        _ = await server.connect(serverEnd, options: GATTConnectionOptions(isBonded: cache != nil))
        var configuration = GATTClient.Configuration(cache: cache, peer: GATTPeerIdentity("reference-server"))
        configuration.hasTrustedRelationship = cache != nil
        let client = GATTClient(engine: ATTEngine(bearer: clientEnd), configuration: configuration)
        return Link(server: server, client: client, clientEnd: clientEnd)
    }

    static func characteristic(_ uuid: String, in services: [RemoteService]) throws -> RemoteCharacteristic {
        guard let found = services.flatMap(\.characteristics).first(where: { $0.uuid == BluetoothUUID(uuid) }) else {
            throw BenchError("reference.json has no characteristic \(uuid)")
        }
        return found
    }

    /// Read Requests answered per second: `connections` clients, each with its one outstanding
    /// request (Core v5.4, Vol 3, Part F, 3.3.2), each sending `perConnection` requests in turn.
    static func requestRate(connections: Int, perConnection: Int) async throws -> Bench.Result {
        let server = try GATTServer(database: try GATTDatabase(jsonFile: referenceDatabase))
        var links: [Link] = []
        var handle: UInt16 = 0
        for _ in 0..<connections {
            let link = await connect(server)
            _ = try await link.client.exchangeMTU()
            let services = try await link.client.discoverDatabase()
            handle = try characteristic("2A38", in: services).valueHandle   // Body Sensor Location, 1 octet
            links.append(link)
        }
        let request = ATTPDU.readRequest(ATTReadRequest(handle: handle))
        let result = try await Bench.measure(
            "GATT server: Read Requests answered, \(connections) connection\(connections == 1 ? "" : "s")",
            unit: "requests/s", operations: connections * perConnection, rounds: 5) {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for link in links {
                    group.addTask {
                        var answered = 0
                        for _ in 0..<perConnection {
                            if case .readResponse = try await link.client.engine.request(request) { answered += 1 }
                        }
                        return answered
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        for link in links { await link.client.close() }
        return result
    }

    /// Notifications delivered per second: the server notifies `count` values to one subscribed
    /// client, which receives each on its subscription's stream (Part G, 4.10.1).
    static func notificationRate(count: Int) async throws -> Bench.Result {
        let server = try GATTServer(database: try GATTDatabase(jsonFile: referenceDatabase))
        let link = await connect(server)
        _ = try await link.client.exchangeMTU()
        let services = try await link.client.discoverDatabase()
        let notifying = try characteristic("A5F20005-6C1B-4B8E-9E3A-4C696E757842", in: services)
        let subscription = try await link.client.notifications(for: notifying, kind: .notification)
        let result = try await Bench.measure("GATT server: notifications sent and received by the client",
                                             unit: "notifications/s", operations: count, rounds: 5) {
            var iterator = subscription.makeAsyncIterator()
            let sender = Task {
                for n in 0..<count { try await server.notify([UInt8(truncatingIfNeeded: n), 0x01], for: notifying.valueHandle) }
            }
            var received = 0
            while received < count, await iterator.next() != nil { received += 1 }
            try await sender.value
            return received
        }
        await link.client.close()
        return result
    }

    /// The requests a client sends for a cold discovery (MTU exchange, then every service,
    /// characteristic and descriptor) and for a reconnection with a cached database whose
    /// Database Hash matches (Part G, 2.5.2.1), with the wall time of each, median of 5.
    static func roundTrips() async throws -> (cold: Int, cached: Int, coldSeconds: Double, cachedSeconds: Double) {
        var cold = 0, cached = 0
        var coldTimes: [Double] = [], cachedTimes: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<5 {
            let server = try GATTServer(database: try GATTDatabase(jsonFile: referenceDatabase))
            let cache = InMemoryGATTClientCache()
            var start = clock.now
            let first = await connect(server, cache: cache, transcript: true)
            _ = try await first.client.exchangeMTU()
            _ = try await first.client.discoverDatabase()
            coldTimes.append(Bench.seconds(clock.now - start))
            cold = first.requestsSent
            await first.client.close()

            start = clock.now
            let again = await connect(server, cache: cache, transcript: true)
            _ = try await again.client.discoverDatabase()
            guard await again.client.usedCachedDatabase else { throw BenchError("the reconnection did not use the cache") }
            cachedTimes.append(Bench.seconds(clock.now - start))
            cached = again.requestsSent
            await again.client.close()
        }
        return (cold, cached, coldTimes.sorted()[2], cachedTimes.sorted()[2])
    }
}

/// A benchmark that could not run as set up.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
