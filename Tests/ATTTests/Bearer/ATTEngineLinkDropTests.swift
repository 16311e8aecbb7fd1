import Synchronization
import Testing
@testable import ATT
import BLETestSupport

/// What the engine takes in after a send fails because the link dropped (Core v5.4, Vol 3,
/// Part F, 3.3): the PDUs the peer sent before the drop are the peer's data, not the failed
/// send's, and none is lost.
@Suite("ATTEngine: the link drops with PDUs still queued", .timeLimit(.minutes(1)))
struct ATTEngineLinkDropTests {
    /// Every PDU the engine yields on serverInitiated until it finishes.
    private func serverInitiated(of engine: ATTEngine) async -> [[UInt8]] {
        var pdus: [[UInt8]] = []
        for await pdu in engine.serverInitiated { pdus.append(pdu.encoded) }
        return pdus
    }

    @Test("notifications after an indication whose confirmation is refused still arrive, and so does the indication")
    func indicationConfirmationRefused() async {
        let bearer = DroppingATTBearer()
        let queued: [[UInt8]] = [[0x1B, 0x03, 0x00, 0x01], [0x1D, 0x05, 0x00, 0x02], [0x1B, 0x03, 0x00, 0x03]]
        bearer.drop(after: queued)
        let engine = ATTEngine(bearer: bearer, clock: TestClock())     // no real 30 s timer on a loaded machine
        #expect(await serverInitiated(of: engine) == queued)
        #expect(bearer.refused == [[0x1E]])
        await engine.waitUntilClosed()
        #expect(await engine.isShutDown)
        #expect(bearer.closes >= 1)
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("a response queued behind a refused confirmation completes its request; later calls throw closed")
    func responseAfterRefusedSend() async throws {
        let bearer = DroppingATTBearer { pdu, bearer in
            guard pdu.first == 0x0A else { return }
            bearer.drop(after: [[0x1D, 0x05, 0x00, 0x02], [0x0B, 0xAA]])     // an indication, then the read's response
        }
        let engine = ATTEngine(bearer: bearer, clock: TestClock())     // no real 30 s timer on a loaded machine
        let response = try await engine.request(.readRequest(ATTReadRequest(handle: 3)))
        #expect(response.encoded == [0x0B, 0xAA])
        #expect(await serverInitiated(of: engine) == [[0x1D, 0x05, 0x00, 0x02]])
        #expect(bearer.refused == [[0x1E]])
        await #expect(throws: ATTError.closed) { try await engine.request(.readRequest(ATTReadRequest(handle: 4))) }
        await #expect(throws: ATTError.closed) { try await engine.send(.writeCommand(ATTWriteCommand(handle: 3, value: [1]))) }
        await engine.waitUntilClosed()
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("a refused request fails with closed at once, without the transaction timeout; the engine closes the bearer, whose queued notification still arrives")
    func refusedRequest() async throws {
        let clock = TestClock()
        let bearer = DroppingATTBearer()
        bearer.drop(after: [[0x1B, 0x03, 0x00, 0x01]], endingInput: false)
        let engine = ATTEngine(bearer: bearer, clock: clock)
        await #expect(throws: ATTError.closed) { try await engine.request(.readRequest(ATTReadRequest(handle: 3))) }
        #expect(bearer.refused == [[0x0A, 0x03, 0x00]])
        // The input ends only because the engine closed the bearer.
        #expect(await serverInitiated(of: engine) == [[0x1B, 0x03, 0x00, 0x01]])
        await engine.waitUntilClosed()
        #expect(bearer.closes >= 1)
        #expect(await engine.didTimeOut == false)
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("commands queued behind a refused response reach the server handler; requests, which cannot be answered, do not")
    func commandsAfterRefusedResponse() async {
        let served = Mutex<[[UInt8]]>([])
        let bearer = DroppingATTBearer()
        bearer.drop(after: [[0x0A, 0x01, 0x00], [0x52, 0x03, 0x00, 0x01], [0x0A, 0x02, 0x00], [0x52, 0x03, 0x00, 0x02]])
        let engine = ATTEngine(bearer: bearer, clock: TestClock()) { pdu, _ in
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
        let bearer = DroppingATTBearer()
        let engine = ATTEngine(bearer: bearer, clock: TestClock())     // no real 30 s timer on a loaded machine
        let first = Task { try await engine.request(.readRequest(ATTReadRequest(handle: 1))) }
        #expect(await eventually { bearer.sent.count == 1 })
        let second = Task { try await engine.request(.readRequest(ATTReadRequest(handle: 2))) }
        #expect(await eventually { await engine.waitingCount(.request) == 1 })
        bearer.drop(after: [[0x1D, 0x05, 0x00, 0x02], [0x0B, 0x01]])     // the confirmation is refused
        #expect(try await first.value.encoded == [0x0B, 0x01])
        await #expect(throws: ATTError.closed) { try await second.value }
        await engine.waitUntilClosed()
        #expect(bearer.sent == [[0x0A, 0x01, 0x00]])
        #expect(bearer.refused == [[0x1E]], "the second request was woken, not sent and refused")
        #expect(await engine.unresumedContinuations == 0)
    }
}
