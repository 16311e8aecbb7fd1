import Testing
import BLECore
@testable import ATT
import BLETestSupport

@Suite("ATTEngine: the 30 s transaction timeout (Part F, 3.3.3) and closing", .timeLimit(.minutes(1)))
struct ATTEngineLifetimeTests {
    @Test("an unanswered request times out at 30 s, not before; the bearer closes; later calls throw closed")
    func requestTimeout() async throws {
        let clock = TestClock()
        let (engine, peerSide) = engineAndPeer(clock: clock)
        var peer = peerSide
        let read = Task { try await engine.request(readRequest(0x0003)) }
        await peer.expect("0a 0300")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(29) + .milliseconds(999))
        #expect(clock.sleeperCount == 1)
        #expect(await engine.isClosed == false)

        clock.advance(by: .milliseconds(1))
        await #expect(throws: ATTError.timeout) { try await read.value }
        #expect(await engine.isClosed)
        #expect(await engine.didTimeOut)
        await peer.expectEnd()                       // no further ATT PDU on this bearer
        await #expect(throws: ATTError.closed) { try await engine.request(readRequest(0x0003)) }
        await #expect(throws: ATTError.closed) { try await engine.send(.writeCommand(ATTWriteCommand(handle: 1, value: []))) }
        await #expect(throws: ATTError.closed) { try await engine.indicate(ATTHandleValueIndication(handle: 1, value: [])) }
        await #expect(throws: ATTError.closed) { try await engine.exchangeMTU() }
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("an unconfirmed indication times out at 30 s and ends the bearer")
    func indicationTimeout() async throws {
        let clock = TestClock()
        let (engine, peerSide) = engineAndPeer(clock: clock)
        var peer = peerSide
        let indication = Task { try await engine.indicate(ATTHandleValueIndication(handle: 0x0003, value: [])) }
        await peer.expect("1d 0300")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        await #expect(throws: ATTError.timeout) { try await indication.value }
        #expect(await engine.isClosed)
        await peer.expectEnd()
    }

    @Test("each request gets its own 30 s from its sending, though one timer serves the lane")
    func laterRequestKeepsItsOwnDeadline() async throws {
        let clock = TestClock()
        let (engine, peerSide) = engineAndPeer(clock: clock)
        var peer = peerSide
        let first = Task { try await engine.request(readRequest(0x0003)) }
        await peer.expect("0a 0300")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(20))
        try peer.inject("0b 01")
        #expect(try await first.value == readResponse([0x01]))

        let second = Task { try await engine.request(readRequest(0x0004)) }
        await peer.expect("0a 0400")                 // sent at 20 s: its deadline is 50 s
        clock.advance(by: .seconds(15))              // 35 s: past the first deadline only
        #expect(await eventually { clock.sleeperCount == 1 }, "the lane's timer sleeps on to the second deadline")
        #expect(await engine.isClosed == false)
        clock.advance(by: .seconds(15))              // 50 s
        await #expect(throws: ATTError.timeout) { try await second.value }
        #expect(await engine.isClosed)
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("an answer stops the timer: a later 30 s does nothing")
    func answeredInTime() async throws {
        let clock = TestClock()
        let (engine, peerSide) = engineAndPeer(clock: clock)
        var peer = peerSide
        let read = Task { try await engine.request(readRequest(0x0003)) }
        await peer.expect("0a 0300")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(29))
        try peer.inject("0b 01")
        #expect(try await read.value == readResponse([0x01]))
        clock.advance(by: .seconds(60))
        #expect(await eventually { clock.sleeperCount == 0 }, "the lane's timer woke, found nothing pending and ended")
        #expect(await engine.isClosed == false)
        await engine.close()
    }

    @Test("a timeout fails the waiting callers of both lanes with closed, each exactly once")
    func timeoutFailsWaiters() async throws {
        let clock = TestClock()
        let (engine, peerSide) = engineAndPeer(clock: clock)
        var peer = peerSide
        let outstanding = Task { try await engine.request(readRequest(1)) }
        await peer.expect("0a 0100")
        let queued = Task { try await engine.request(readRequest(2)) }
        let indication = Task { try await engine.indicate(ATTHandleValueIndication(handle: 1, value: [])) }
        await peer.expect("1d 0100")
        #expect(await eventually { await engine.waitingCount(.request) == 1 })
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(30))
        // Both transactions were armed together; whichever timer fires first ends the engine
        // and the other fails with closed.
        let results = [await Self.outcome(outstanding), await Self.outcome(indication)]
        #expect(results.contains(.timeout))
        #expect(results.filter { $0 == .closed || $0 == .timeout }.count == 2)
        await #expect(throws: ATTError.closed) { try await queued.value }
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("close resumes every pending request and indication exactly once")
    func closeResumesAll() async throws {
        let (engine, peerSide) = engineAndPeer()
        var peer = peerSide
        var requests: [Task<ATTPDU, any Error>] = []
        var indications: [Task<Void, any Error>] = []
        for handle in UInt16(1)...5 {
            requests.append(Task { try await engine.request(readRequest(handle)) })
        }
        for handle in UInt16(1)...3 {
            indications.append(Task { try await engine.indicate(ATTHandleValueIndication(handle: handle, value: [])) })
        }
        // One of each lane outstanding, the rest waiting their turn.
        #expect(await eventually {
            let requests = await engine.lane(.request)
            let indications = await engine.lane(.indication)
            return requests == (true, 4) && indications == (true, 2)
        })
        #expect(await engine.unresumedContinuations == 8, "1 + 4 request callers, 1 + 2 indication callers")
        _ = await peer.next()
        _ = await peer.next()

        await engine.close()
        var closedCount = 0
        for task in requests {
            await #expect(throws: ATTError.closed) { try await task.value }
            closedCount += 1
        }
        for task in indications {
            await #expect(throws: ATTError.closed) { try await task.value }
            closedCount += 1
        }
        #expect(closedCount == 8)
        #expect(await engine.unresumedContinuations == 0, "every continuation was resumed, none twice")
        #expect(await engine.continuationsMade == 8)
        await peer.expectEnd()
        await engine.close()                         // again: nothing more to resume
        #expect(await engine.continuationsResumed == 8)
    }

    @Test("the peer closing resumes every pending call with closed and finishes the streams")
    func peerCloses() async throws {
        let (engine, peer) = engineAndPeer()
        let first = Task { try await engine.request(readRequest(1)) }
        let second = Task { try await engine.request(readRequest(2)) }
        let indication = Task { try await engine.indicate(ATTHandleValueIndication(handle: 1, value: [])) }
        #expect(await eventually {
            let requests = await engine.lane(.request)
            let indications = await engine.lane(.indication)
            return requests == (true, 1) && indications == (true, 0)
        })
        await peer.bearer.close()
        await #expect(throws: ATTError.closed) { try await first.value }
        await #expect(throws: ATTError.closed) { try await second.value }
        await #expect(throws: ATTError.closed) { try await indication.value }
        #expect(await engine.isClosed)
        #expect(await engine.didTimeOut == false)
        var notifications = engine.serverInitiated.makeAsyncIterator()
        #expect(await notifications.next() == nil)
        #expect(await engine.unresumedContinuations == 0)
    }

    @Test("a send on a bearer the peer has closed throws closed and ends the engine")
    func sendAfterPeerClosed() async throws {
        let (engine, peer) = engineAndPeer()
        peer.bearer.closeNow()
        await #expect(throws: ATTError.closed) {
            try await engine.send(.writeCommand(ATTWriteCommand(handle: 1, value: [])))
        }
        #expect(await engine.isClosed)
    }

    @Test("calls made after close throw closed at once")
    func afterClose() async throws {
        let (engine, _) = engineAndPeer()
        await engine.close()
        await #expect(throws: ATTError.closed) { try await engine.request(readRequest(1)) }
        await #expect(throws: ATTError.closed) { try await engine.indicate(ATTHandleValueIndication(handle: 1, value: [])) }
        #expect(await engine.continuationsMade == 0)
    }

    /// The error a task ended with, as an ATTError (nil if it succeeded).
    static func outcome<T>(_ task: Task<T, any Error>) async -> ATTError? {
        do {
            _ = try await task.value
            return nil
        } catch {
            return error as? ATTError
        }
    }
}

@Suite("ATTEngine: stress", .timeLimit(.minutes(2)))
struct ATTEngineStressTests {
    @Test("10,000 request/response round trips between two engines on the in-memory pair")
    func roundTrips() async throws {
        let handler: ATTEngine.ServerHandler = { pdu, _ in
            guard case .readRequest(let read) = pdu else { return nil }
            return readResponse([UInt8(truncatingIfNeeded: read.handle), UInt8(truncatingIfNeeded: read.handle >> 8)])
        }
        let (first, second) = InMemoryATTBearer.pair()
        let client = ATTEngine(bearer: first)
        let server = ATTEngine(bearer: second, server: handler)
        let count = 10_000
        var answered = 0
        let start = ContinuousClock.now
        for index in 0..<count {
            let handle = UInt16(truncatingIfNeeded: index)
            let response = try await client.request(readRequest(handle))
            if response == readResponse([UInt8(truncatingIfNeeded: handle), UInt8(truncatingIfNeeded: handle >> 8)]) {
                answered += 1
            }
        }
        let elapsed = ContinuousClock.now - start
        #expect(answered == count)
        print("ATTEngine stress: \(count) round trips in \(elapsed) (\(Int(Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))) per second)")
        #expect(await client.unresumedContinuations == 0)
        await client.close()
        #expect(await eventually { await server.isClosed }, "the peer engine ends with the bearer")
    }
}
