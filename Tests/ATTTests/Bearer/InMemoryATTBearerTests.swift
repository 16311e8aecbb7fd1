import Testing
import BLECore
@testable import ATT

@Suite("InMemoryATTBearer: a connected pair", .timeLimit(.minutes(1)))
struct InMemoryATTBearerTests {
    @Test("PDUs arrive whole and in order, both ways, and the transcript keeps who sent what")
    func delivery() async throws {
        let (first, second) = InMemoryATTBearer.pair(recordsTranscript: true)
        var firstPeer = RawPeer(first)
        var secondPeer = RawPeer(second)

        try await first.send(hex("0a 0300"))       // Read Request, handle 0x0003
        try await first.send(hex("52 0500 01"))    // Write Command, handle 0x0005, value 01
        try await second.send(hex("0b 4142"))      // Read Response, value "AB"

        await secondPeer.expect("0a 0300")
        await secondPeer.expect("52 0500 01")
        await firstPeer.expect("0b 4142")
        #expect(first.transcript == second.transcript)
        #expect(first.transcript == [
            .init(sender: .first, pdu: hex("0a 0300")),
            .init(sender: .first, pdu: hex("52 0500 01")),
            .init(sender: .second, pdu: hex("0b 4142")),
        ])
        #expect(first.transcript.map(\.description) == [
            "first -> second 0a0300", "first -> second 52050001", "second -> first 0b4142",
        ])
        #expect((first.sentCount(.request), first.sentCount(.command), first.sentCount(.response)) == (1, 1, 0))
        #expect((second.sentCount(.request), second.sentCount(.response)) == (0, 1))
        first.clearTranscript()
        #expect(first.sentCount(.request) == 0)
        #expect(second.transcript.isEmpty)
    }

    @Test("without recording the transcript stays empty")
    func noTranscript() async throws {
        let (first, second) = InMemoryATTBearer.pair()
        try await first.send([0x1E])
        var peer = RawPeer(second)
        await peer.expect("1e")
        #expect(first.transcript.isEmpty)
    }

    @Test("closing one end finishes both streams, after what was already delivered")
    func closing() async throws {
        let (first, second) = InMemoryATTBearer.pair()
        var firstPeer = RawPeer(first)
        var secondPeer = RawPeer(second)
        try await first.send(hex("1e"))
        await second.close()
        #expect(first.isClosed && second.isClosed)
        await secondPeer.expect("1e")
        await secondPeer.expectEnd()
        await firstPeer.expectEnd()
        await #expect(throws: ATTBearerError.closed) { try await first.send([0x1E]) }
        await #expect(throws: ATTBearerError.closed) { try await second.send([0x1E]) }
        await first.close()   // again: nothing more happens
        #expect(first.isClosed)
    }

    @Test("each end has its own maximum MTU and security, and security can change at any time")
    func perEnd() async {
        // Read through the protocol, as an engine does.
        func security(_ bearer: any ATTBearer) async -> ATTSecurity { await bearer.security }
        let encrypted = ATTSecurity(isEncrypted: true, isAuthenticated: true, encryptionKeySize: 16)
        let (first, second) = InMemoryATTBearer.pair(maximumMTU: (247, 65), security: (.none, encrypted))
        #expect(first.maximumMTU == 247 && second.maximumMTU == 65)
        #expect(first.end == .first && second.end == .second)
        #expect(await security(first) == .none)
        #expect(await security(second) == encrypted)
        first.security.isAuthorized = true
        #expect(await security(first) == ATTSecurity(isAuthorized: true))
        #expect(await security(second) == encrypted)
        #expect(encrypted.description == "encrypted (16 octets), authenticated")
        #expect(ATTSecurity.none.description == "none")
    }
}

@Suite("TestClock", .timeLimit(.minutes(1)))
struct TestClockTests {
    @Test("a sleeper wakes when the clock reaches its deadline, not before")
    func deadline() async throws {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(30)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(29))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == TestClock.Instant(offset: .seconds(30)))
    }

    @Test("a past deadline returns at once; time never goes back")
    func past() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(5))
        clock.advance(by: .seconds(-3))
        clock.advance(to: TestClock.Instant(offset: .seconds(1)))
        #expect(clock.now.offset == .seconds(5))
        try await clock.sleep(until: TestClock.Instant(offset: .seconds(4)))
    }

    @Test("cancelling a sleeper throws CancellationError and removes it")
    func cancellation() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(30)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("sleepers wake in deadline order")
    func order() async throws {
        let clock = TestClock()
        let early = Task { try await clock.sleep(for: .seconds(1)); return clock.now }
        let late = Task { try await clock.sleep(for: .seconds(2)); return clock.now }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(1))
        #expect(try await early.value.offset == .seconds(1))
        #expect(clock.sleeperCount == 1)
        clock.advance(to: TestClock.Instant(offset: .seconds(10)))
        #expect(try await late.value.offset == .seconds(10))
    }
}
