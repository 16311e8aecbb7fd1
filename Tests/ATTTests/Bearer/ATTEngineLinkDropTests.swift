import Synchronization
import Testing
@testable import ATT
import BLETestSupport

/// A bearer whose link can drop as a host-mode link does: sends are refused from then on,
/// while the PDUs received before the drop stay queued for the reader, and then its input
/// ends. A test may have the peer answer a sent PDU at once (`answer`), inside `send`, so the
/// answer is queued before the engine takes in anything else.
final class DroppingBearer: ATTBearer {
    let maximumMTU: UInt16 = 23
    let received: AsyncStream<[UInt8]>
    private let input: AsyncStream<[UInt8]>.Continuation
    private let state = Mutex<(sent: [[UInt8]], refused: [[UInt8]], dropped: Bool, closes: Int)>(([], [], false, 0))
    private let answer: @Sendable ([UInt8], DroppingBearer) -> Void

    init(answer: @escaping @Sendable ([UInt8], DroppingBearer) -> Void = { _, _ in }) {
        (received, input) = AsyncStream.makeStream()
        self.answer = answer
    }

    var security: ATTSecurity { get async { .none } }
    /// The PDUs the bearer carried, and those it refused after the drop.
    var sent: [[UInt8]] { state.withLock { $0.sent } }
    var refused: [[UInt8]] { state.withLock { $0.refused } }
    var closes: Int { state.withLock { $0.closes } }

    /// The link drops after the peer sent `pdus`: later sends are refused; the reader takes
    /// what is queued, then nil. One critical section: the engine sees no send accepted, and
    /// closes nothing, between the PDUs.
    func drop(after pdus: [[UInt8]] = []) {
        state.withLock { state in
            state.dropped = true
            for pdu in pdus { input.yield(pdu) }
            input.finish()
        }
    }

    func send(_ pdu: [UInt8]) async throws(ATTBearerError) {
        try state.withLock { state throws(ATTBearerError) in
            guard !state.dropped else {
                state.refused.append(pdu)
                throw .closed
            }
            state.sent.append(pdu)
        }
        answer(pdu, self)
    }

    func close() async {
        state.withLock { state in
            state.closes += 1
            input.finish()
        }
    }
}

/// What the engine takes in after a send fails because the link dropped (Core v5.4, Vol 3,
/// Part F, 3.3): the PDUs the peer sent before the drop are the peer's data, not the failed
/// send's, and none is lost.
@Suite("ATTEngine: the link drops with PDUs still queued")
struct ATTEngineLinkDropTests {
    /// Every PDU the engine yields on serverInitiated until it finishes.
    private func serverInitiated(of engine: ATTEngine) async -> [[UInt8]] {
        var pdus: [[UInt8]] = []
        for await pdu in engine.serverInitiated { pdus.append(pdu.encoded) }
        return pdus
    }

    @Test("notifications after an indication whose confirmation is refused still arrive, and so does the indication")
    func indicationConfirmationRefused() async {
        let bearer = DroppingBearer()
        let queued: [[UInt8]] = [[0x1B, 0x03, 0x00, 0x01], [0x1D, 0x05, 0x00, 0x02], [0x1B, 0x03, 0x00, 0x03]]
        bearer.drop(after: queued)
        let engine = ATTEngine(bearer: bearer)
        #expect(await serverInitiated(of: engine) == queued)
        #expect(bearer.refused == [[0x1E]])
        await engine.waitUntilClosed()
        #expect(await engine.isShutDown)
        #expect(bearer.closes >= 1)
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("a response queued behind a refused confirmation completes its request; later calls throw closed")
    func responseAfterRefusedSend() async throws {
        let bearer = DroppingBearer { pdu, bearer in
            guard pdu.first == 0x0A else { return }
            bearer.drop(after: [[0x1D, 0x05, 0x00, 0x02], [0x0B, 0xAA]])     // an indication, then the read's response
        }
        let engine = ATTEngine(bearer: bearer)
        let response = try await engine.request(.readRequest(ATTReadRequest(handle: 3)))
        #expect(response.encoded == [0x0B, 0xAA])
        #expect(await serverInitiated(of: engine) == [[0x1D, 0x05, 0x00, 0x02]])
        #expect(bearer.refused == [[0x1E]])
        await #expect(throws: ATTError.closed) { try await engine.request(.readRequest(ATTReadRequest(handle: 4))) }
        await #expect(throws: ATTError.closed) { try await engine.send(.writeCommand(ATTWriteCommand(handle: 3, value: [1]))) }
        await engine.waitUntilClosed()
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("a refused request fails with closed at once, without the transaction timeout, and notifications queued before it still arrive")
    func refusedRequest() async throws {
        let clock = TestClock()
        let bearer = DroppingBearer()
        bearer.drop(after: [[0x1B, 0x03, 0x00, 0x01]])
        let engine = ATTEngine(bearer: bearer, clock: clock)
        await #expect(throws: ATTError.closed) { try await engine.request(.readRequest(ATTReadRequest(handle: 3))) }
        #expect(await serverInitiated(of: engine) == [[0x1B, 0x03, 0x00, 0x01]])
        await engine.waitUntilClosed()
        #expect(await engine.didTimeOut == false)
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("commands queued behind a refused response reach the server handler; requests, which cannot be answered, do not")
    func commandsAfterRefusedResponse() async {
        let served = Mutex<[[UInt8]]>([])
        let bearer = DroppingBearer()
        bearer.drop(after: [[0x0A, 0x01, 0x00], [0x52, 0x03, 0x00, 0x01], [0x0A, 0x02, 0x00], [0x52, 0x03, 0x00, 0x02]])
        let engine = ATTEngine(bearer: bearer) { pdu, _ in
            served.withLock { $0.append(pdu.encoded) }
            return .readResponse(ATTReadResponse(value: [0x11]))
        }
        await engine.waitUntilClosed()
        // The first request is served before the engine learns of the drop: its answer is refused.
        #expect(served.withLock { $0 } == [[0x0A, 0x01, 0x00], [0x52, 0x03, 0x00, 0x01], [0x52, 0x03, 0x00, 0x02]])
        #expect(bearer.refused == [[0x0B, 0x11]])
        #expect(bearer.sent.isEmpty)
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("callers waiting their turn behind an outstanding request throw closed when a send is refused; the outstanding one gets its queued response")
    func turnWaitersEnd() async throws {
        let bearer = DroppingBearer()
        let engine = ATTEngine(bearer: bearer)
        let first = Task { try await engine.request(.readRequest(ATTReadRequest(handle: 1))) }
        #expect(await eventually { bearer.sent.count == 1 })
        let second = Task { try await engine.request(.readRequest(ATTReadRequest(handle: 2))) }
        #expect(await eventually { await engine.waitingCount(.request) == 1 })
        bearer.drop(after: [[0x1D, 0x05, 0x00, 0x02], [0x0B, 0x01]])     // the confirmation is refused
        #expect(try await first.value.encoded == [0x0B, 0x01])
        await #expect(throws: ATTError.closed) { try await second.value }
        await engine.waitUntilClosed()
        #expect(bearer.sent == [[0x0A, 0x01, 0x00]])
        #expect(await engine.unresumedContinuations == 0)
    }
}
