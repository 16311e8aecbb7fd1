import Synchronization
import Testing
@testable import ATT

/// A bearer that offers an ``ATTBearerInbox``, as host mode's L2CAP channel does; its
/// `received` stream must then never be read.
final class InboxBearer: ATTBearer {
    let maximumMTU: UInt16 = 23
    let pdus = ATTBearerInbox(capacity: 8)
    private let state = Mutex<[[UInt8]]>([])

    var inbox: ATTBearerInbox? { pdus }
    var received: AsyncStream<[UInt8]> {
        Issue.record("an engine on a bearer with an inbox read received")
        return AsyncStream { $0.finish() }
    }
    var security: ATTSecurity { get async { .none } }
    var sent: [[UInt8]] { state.withLock { $0 } }

    func send(_ pdu: [UInt8]) async throws(ATTBearerError) { state.withLock { $0.append(pdu) } }
    func close() async { pdus.finish() }
}

/// The bounded queue a bearer offers its engine (``ATTBearer/inbox``).
@Suite("ATT bearer inbox")
struct ATTBearerInboxTests {
    @Test("PDUs come out in order; past its capacity newer PDUs are refused, and after finish nothing more goes in")
    func orderCapacityFinish() async {
        let inbox = ATTBearerInbox(capacity: 2)
        #expect(inbox.yield([1]) == .enqueued)
        #expect(inbox.yield([2]) == .enqueued)
        #expect(inbox.yield([3]) == .dropped)
        #expect(await inbox.next() == [1])
        #expect(inbox.yield([4]) == .enqueued)
        inbox.finish()
        #expect(inbox.yield([5]) == .finished)
        var rest: [[UInt8]] = []
        for await pdu in inbox { rest.append(pdu) }
        #expect(rest == [[2], [4]])
        #expect(await inbox.next() == nil)
    }

    @Test("a reader waiting on an empty inbox gets the next PDU, then nil when the inbox finishes")
    func waitingReader() async {
        let inbox = ATTBearerInbox(capacity: 4)
        let reader = Task { () -> [[UInt8]] in
            var taken: [[UInt8]] = []
            while let pdu = await inbox.next() { taken.append(pdu) }
            return taken
        }
        for octet: UInt8 in 1...3 {
            await Task.yield()
            inbox.yield([octet])
        }
        inbox.finish()
        #expect(await reader.value == [[1], [2], [3]])
    }

    @Test("finish wakes a waiting reader with nil")
    func finishWakesReader() async {
        let inbox = ATTBearerInbox(capacity: 1)
        let reader = Task { await inbox.next() }
        await Task.yield()
        inbox.finish()
        #expect(await reader.value == nil)
    }

    @Test("a reader whose task is cancelled gets nil, waiting or not, and the inbox then refuses PDUs")
    func cancelledReader() async {
        let inbox = ATTBearerInbox(capacity: 1)
        let reader = Task { await inbox.next() }
        await Task.yield()
        reader.cancel()
        #expect(await reader.value == nil)
        #expect(inbox.yield([1]) == .finished)
    }

    @Test("an engine on a bearer with an inbox reads its requests there and answers them")
    func engineReadsInbox() async throws {
        let bearer = InboxBearer()
        let engine = ATTEngine(bearer: bearer, server: { pdu, _ in
            guard case .readRequest = pdu else { return nil }
            return .readResponse(ATTReadResponse(value: [0x2A]))
        })
        bearer.pdus.yield([0x0A, 0x03, 0x00])                        // ATT_READ_REQ, handle 0x0003
        for _ in 0..<100_000 where bearer.sent.isEmpty { await Task.yield() }
        #expect(bearer.sent == [[0x0B, 0x2A]])                      // ATT_READ_RSP
        await engine.close()
    }
}
