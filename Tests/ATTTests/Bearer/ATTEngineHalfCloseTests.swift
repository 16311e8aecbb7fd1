import Synchronization
import Testing
@testable import ATT
import BLETestSupport

/// A bearer whose input ends while its output stays open, as standard input and output do.
final class HalfClosedBearer: ATTBearer {
    let maximumMTU: UInt16 = 23
    let received: AsyncStream<[UInt8]>
    private let input: AsyncStream<[UInt8]>.Continuation
    private let state = Mutex<(sent: [[UInt8]], closed: Bool)>(([], false))

    init() { (received, input) = AsyncStream.makeStream() }

    var security: ATTSecurity { get async { .none } }
    var sent: [[UInt8]] { state.withLock { $0.sent } }
    var isClosed: Bool { state.withLock { $0.closed } }

    func deliver(_ pdu: [UInt8]) { input.yield(pdu) }
    func endInput() { input.finish() }

    func send(_ pdu: [UInt8]) async throws(ATTBearerError) {
        try state.withLock { state throws(ATTBearerError) in
            guard !state.closed else { throw .closed }
            state.sent.append(pdu)
        }
    }

    func close() async {
        state.withLock { $0.closed = true }
        input.finish()
    }
}

@Suite("ATTEngine: the peer's input ends")
struct ATTEngineHalfCloseTests {
    @Test("requests received before the end are all answered, in order; then the engine shuts down")
    func drains() async throws {
        let bearer = HalfClosedBearer()
        let engine = ATTEngine(bearer: bearer) { pdu, _ in
            guard case .readRequest(let read) = pdu else { return nil }
            await Task.yield()
            return .readResponse(ATTReadResponse(value: [UInt8(read.handle)]))
        }
        for handle: UInt8 in 1...20 { bearer.deliver([0x0A, handle, 0x00]) }
        bearer.deliver([0x52, 0x01, 0x00, 0xFF])     // a Write Command: served, never answered
        bearer.deliver([0x0A, 0x15])                 // a Read Request cut short: Invalid PDU
        bearer.endInput()
        await engine.waitUntilClosed()
        #expect(bearer.sent == (1...20).map { [0x0B, $0] } + [[0x01, 0x0A, 0x00, 0x00, 0x04]])
        #expect(bearer.isClosed)
        #expect(await engine.isShutDown)
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("the client role ends at once: an outstanding request fails with closed; new calls too")
    func clientEnds() async throws {
        let bearer = HalfClosedBearer()
        let engine = ATTEngine(bearer: bearer)
        let pending = Task { try await engine.request(.readRequest(ATTReadRequest(handle: 3))) }
        #expect(await eventually { !bearer.sent.isEmpty })
        bearer.endInput()
        await #expect(throws: ATTError.closed) { try await pending.value }
        await #expect(throws: ATTError.closed) { try await engine.request(.readRequest(ATTReadRequest(handle: 4))) }
        await engine.waitUntilClosed()
        #expect(bearer.sent == [[0x0A, 0x03, 0x00]])
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("waitUntilClosed returns after close, and at once when already closed")
    func waitAfterClose() async {
        let bearer = HalfClosedBearer()
        let engine = ATTEngine(bearer: bearer)
        let waiter = Task { await engine.waitUntilClosed() }
        await engine.close()
        await waiter.value
        await engine.waitUntilClosed()
        #expect(bearer.isClosed)
        #expect(await engine.unresumedContinuations == 0)
    }
}

@Suite("ATTEngine: indicate(_:whenConfirmed:)")
struct ATTEngineConfirmationHookTests {
    @Test("the hook runs when the confirmation arrives, before the request the peer sent after it is served")
    func ordering() async throws {
        final class Flags: Sendable {
            let confirmed = Mutex(false)
            let seen = Mutex<[Bool]>([])
        }
        let flags = Flags()
        var (engine, peer) = engineAndPeer(server: { _, _ in
            flags.seen.withLock { $0.append(flags.confirmed.withLock { $0 }) }
            return .readResponse(ATTReadResponse(value: []))
        })
        for _ in 0..<50 {
            flags.confirmed.withLock { $0 = false }
            let indication = Task {
                try await engine.indicate(ATTHandleValueIndication(handle: 3, value: [1])) { flags.confirmed.withLock { $0 = true } }
            }
            await peer.expect("1d 0300 01")
            try peer.inject("1e")
            try peer.inject("0a 0300")
            await peer.expect("0b")
            try await indication.value
        }
        #expect(flags.seen.withLock { $0 } == Array(repeating: true, count: 50))
        await engine.close()
    }
}
