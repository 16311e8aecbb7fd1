import Testing
import BLECore
@testable import ATT
@testable import GATT

/// Helpers of the client tests, in one namespace so they cannot collide with other suites'.
enum ClientTest {
    /// Octets from hexadecimal text with spaces and `#` comments; fails the test on bad text.
    static func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
        guard let bytes = Hex.decode(text) else {
            Issue.record("bad hex fixture: \(text)", sourceLocation: sourceLocation)
            return []
        }
        return bytes
    }
}

/// A client wired to a ``FakeGATTServer`` over an in-memory pair that records every PDU.
struct ClientRig {
    let client: GATTClient
    let server: FakeGATTServer
    let serverEngine: ATTEngine
    /// The client's end of the pair (its transcript is the whole conversation).
    let link: InMemoryATTBearer
    /// The server's end.
    let serverLink: InMemoryATTBearer

    init(_ table: FakeGATTTable, maximumMTU: (client: UInt16, server: UInt16) = (517, 517),
         configuration: GATTClient.Configuration = .init(), signingKey: GATTSigningKey? = nil, signCounter: UInt32 = 0,
         clock: TestClock? = nil) {
        let (first, second) = InMemoryATTBearer.pair(maximumMTU: (maximumMTU.client, maximumMTU.server),
                                                      recordsTranscript: true)
        let fake = FakeGATTServer(table)
        server = fake
        serverEngine = ATTEngine(bearer: second, server: fake.handler)
        let engine = clock.map { ATTEngine(bearer: first, clock: $0) } ?? ATTEngine(bearer: first)
        client = GATTClient(engine: engine, configuration: configuration, signingKey: signingKey, signCounter: signCounter)
        link = first
        serverLink = second
    }

    /// The conversation so far, one line per PDU: "> " for the client's, "< " for the server's,
    /// then the octets in hexadecimal.
    var transcript: [String] {
        link.transcript.map { ($0.sender == .first ? "> " : "< ") + Hex.encode($0.pdu) }
    }

    /// The requests the client sent (each costs one round trip).
    var requestCount: Int {
        link.sentCount(.request)
    }

    /// Forgets the conversation so far.
    func clearTranscript() { link.clearTranscript() }

    /// Expects the conversation to be `lines`, each "> hex" or "< hex" with optional `#` comments.
    func expectTranscript(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = lines.map { line -> String in
            let direction = line.prefix(2)
            return String(direction) + Hex.encode(ClientTest.hex(String(line.dropFirst(2)), sourceLocation: sourceLocation))
        }
        #expect(transcript == expected, sourceLocation: sourceLocation)
    }

    /// Closes everything.
    func close() async {
        await client.close()
        await serverEngine.close()
    }
}

/// The server end of a pair, driven PDU by PDU by the test: it expects what the client sends
/// and injects raw answers, including ones no real server would send.
struct ScriptedServer {
    let bearer: InMemoryATTBearer
    private var iterator: AsyncStream<[UInt8]>.Iterator

    init(_ bearer: InMemoryATTBearer) {
        self.bearer = bearer
        iterator = bearer.received.makeAsyncIterator()
    }

    /// The next PDU the client sent; nil once the pair is closed.
    mutating func next() async -> [UInt8]? { await iterator.next() }

    /// Expects the next PDU from the client to be `expected` (hex with comments).
    mutating func expect(_ expected: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let octets = await next()
        #expect(octets.map { Hex.encode($0) } == Hex.encode(ClientTest.hex(expected, sourceLocation: sourceLocation)),
                sourceLocation: sourceLocation)
    }

    /// Sends `octets` (hex with comments) to the client.
    func inject(_ octets: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try bearer.sendNow(ClientTest.hex(octets, sourceLocation: sourceLocation))
    }

    /// A client on the first end of a fresh pair and the scripted second end.
    static func make(maximumMTU: UInt16 = 517, clock: TestClock? = nil,
                     configuration: GATTClient.Configuration = .init()) -> (GATTClient, ScriptedServer) {
        let (first, second) = InMemoryATTBearer.pair(mtu: maximumMTU, recordsTranscript: true)
        let engine = clock.map { ATTEngine(bearer: first, clock: $0) } ?? ATTEngine(bearer: first)
        return (GATTClient(engine: engine, configuration: configuration), ScriptedServer(second))
    }

    /// Runs `call` on a fresh client against a scripted server that expects each request of
    /// `exchanges` and answers it with its response (both hex with comments), then closes.
    ///
    /// - Returns: how `call` ended.
    static func run<T: Sendable>(_ exchanges: [(request: String, response: String)],
                                 sourceLocation: SourceLocation = #_sourceLocation,
                                 _ call: @escaping @Sendable (GATTClient) async throws -> T) async -> Result<T, any Error> {
        let (client, server) = make()
        var peer = server
        let task = Task { try await call(client) }
        for exchange in exchanges {
            await peer.expect(exchange.request, sourceLocation: sourceLocation)
            try? peer.inject(exchange.response, sourceLocation: sourceLocation)
        }
        let result = await task.result
        await client.close()
        return result
    }
}
