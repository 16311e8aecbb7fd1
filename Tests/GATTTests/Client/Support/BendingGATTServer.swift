import BLECore
@testable import ATT
@testable import GATT

/// A peer that bends the specification: it reads the client's PDUs off the raw end of an
/// in-memory pair and answers each from a ``FakeGATTServer``, except where `bend` says to send
/// other octets (a malformed PDU, a response of the wrong opcode, an answer for another type)
/// or nothing at all (the client's transaction then times out). Unlike a server ``ATTEngine``,
/// it lets any octets through.
final class BendingGATTServer: Sendable {
    /// What to send for one request.
    enum Answer: Sendable {
        /// The fake server's answer.
        case normal
        /// These octets instead.
        case raw([UInt8])
        /// Nothing: the request stays unanswered.
        case silence
    }

    let fake: FakeGATTServer
    private let reader: Task<Void, Never>

    /// Serves `table` on `bearer` (the second end of a pair, ATT_MTU 23), bending as `bend` says.
    init(_ table: FakeGATTTable, on bearer: InMemoryATTBearer, bend: @escaping @Sendable (ATTPDU) -> Answer) {
        let fake = FakeGATTServer(table)
        self.fake = fake
        reader = Task {
            for await octets in bearer.received {
                guard let pdu = try? ATTPDU.decode(octets), pdu.opcode.kind == .request else { continue }
                switch bend(pdu) {
                case .silence:
                    continue
                case .raw(let answer):
                    try? bearer.sendNow(answer)
                case .normal:
                    if let answer = fake.answer(pdu, mtu: ATTEngine.defaultMTU) { try? bearer.sendNow(answer.encoded) }
                }
            }
        }
    }

    /// Stops reading.
    func stop() { reader.cancel() }
}

/// A client on the first end of a pair whose second end a ``BendingGATTServer`` serves.
struct BentRig {
    let client: GATTClient
    let server: BendingGATTServer
    let link: InMemoryATTBearer
    let clock: TestClock

    init(_ table: FakeGATTTable, configuration: GATTClient.Configuration = .init(),
         bend: @escaping @Sendable (ATTPDU) -> BendingGATTServer.Answer) {
        let (first, second) = InMemoryATTBearer.pair(mtu: 23, recordsTranscript: true)
        clock = TestClock()
        client = GATTClient(engine: ATTEngine(bearer: first, clock: clock), configuration: configuration)
        server = BendingGATTServer(table, on: second, bend: bend)
        link = first
    }

    /// The conversation so far, one line per PDU: "> " for the client's, "< " for the server's.
    var transcript: [String] {
        link.transcript.map { ($0.sender == .first ? "> " : "< ") + Hex.encode($0.pdu) }
    }

    /// Closes the client and stops the server.
    func close() async {
        await client.close()
        server.stop()
    }
}
