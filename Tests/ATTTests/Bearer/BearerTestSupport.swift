import Testing
import BLECore
@testable import ATT

/// The scripted side of an in-memory pair: reads what the engine under test sends and injects
/// what a peer would send, as raw octets. Used by one test task only.
struct RawPeer {
    let bearer: InMemoryATTBearer
    private var iterator: AsyncStream<[UInt8]>.Iterator

    init(_ bearer: InMemoryATTBearer) {
        self.bearer = bearer
        iterator = bearer.received.makeAsyncIterator()
    }

    /// The next PDU the engine sent; nil once the pair is closed and drained.
    mutating func next() async -> [UInt8]? {
        await iterator.next()
    }

    /// Expects the next PDU the engine sends to be `expected` (hex text with comments).
    mutating func expect(_ expected: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        let octets = await next()
        #expect(octets.map { Hex.encode($0) } == Hex.encode(hex(expected, sourceLocation: sourceLocation)),
                sourceLocation: sourceLocation)
    }

    /// Expects the engine's side to have closed: no more PDUs.
    mutating func expectEnd(sourceLocation: SourceLocation = #_sourceLocation) async {
        let octets = await next()
        #expect(octets == nil, "the pair should be closed", sourceLocation: sourceLocation)
    }

    /// Sends `octets` (hex text with comments) to the engine.
    func inject(_ octets: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try bearer.sendNow(hex(octets, sourceLocation: sourceLocation))
    }
}

/// An engine on the first end of a fresh pair, and the raw second end.
func engineAndPeer(mtu: (UInt16, UInt16) = (517, 517), clock: TestClock? = nil,
                   server: ATTEngine.ServerHandler? = nil) -> (ATTEngine, RawPeer) {
    let (local, remote) = InMemoryATTBearer.pair(maximumMTU: (mtu.0, mtu.1), recordsTranscript: true)
    let engine = clock.map { ATTEngine(bearer: local, clock: $0, server: server) }
        ?? ATTEngine(bearer: local, server: server)
    return (engine, RawPeer(remote))
}

/// Two engines on the two ends of a fresh pair.
func enginePair(mtu: (UInt16, UInt16) = (517, 517),
                server: ATTEngine.ServerHandler? = nil) -> (client: ATTEngine, server: ATTEngine, link: InMemoryATTBearer) {
    let (first, second) = InMemoryATTBearer.pair(maximumMTU: (mtu.0, mtu.1), recordsTranscript: true)
    return (ATTEngine(bearer: first), ATTEngine(bearer: second, server: server), first)
}

/// A Read Request PDU for `handle`.
func readRequest(_ handle: UInt16) -> ATTPDU { .readRequest(ATTReadRequest(handle: handle)) }

/// A Read Response PDU with `value`.
func readResponse(_ value: [UInt8]) -> ATTPDU { .readResponse(ATTReadResponse(value: value)) }
