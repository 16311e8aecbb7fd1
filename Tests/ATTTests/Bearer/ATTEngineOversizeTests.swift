import Testing
import BLECore
@testable import ATT

/// ATT_MTU bounds every PDU, in both directions (Core v5.4, Vol 3, Part F, 3.2.8).
@Suite("ATTEngine: PDUs from the peer longer than ATT_MTU", .timeLimit(.minutes(1)))
struct ATTEngineOversizeTests {
    @Test("a response longer than ATT_MTU fails the request with responseTooLarge")
    func response() async throws {
        var (engine, peer) = engineAndPeer()
        let read = Task { try await engine.request(readRequest(3)) }
        await peer.expect("0a 0300")
        try peer.inject("0b" + String(repeating: "55", count: 23))        // 24 octets at ATT_MTU 23
        await #expect(throws: ATTError.responseTooLarge(size: 24, mtu: 23)) { try await read.value }
        // The engine goes on: the next request is answered normally.
        let next = Task { try await engine.request(readRequest(4)) }
        await peer.expect("0a 0400")
        try peer.inject("0b" + String(repeating: "55", count: 22))
        #expect(try await next.value == readResponse([UInt8](repeating: 0x55, count: 22)))
        await engine.close()
    }

    @Test("a request longer than ATT_MTU is answered Invalid PDU; a command is ignored; an indication is confirmed, not delivered")
    func requestAndOthers() async throws {
        var (engine, peer) = engineAndPeer(server: { pdu, _ in
            if case .writeRequest = pdu { return .writeResponse(ATTWriteResponse()) }
            return nil
        })
        try peer.inject("12 0300" + String(repeating: "aa", count: 21))     // Write Request of 24 octets
        await peer.expect("01 12 0000 04")                                   // Invalid PDU
        try peer.inject("52 0300" + String(repeating: "aa", count: 21))     // Write Command of 24 octets: nothing
        try peer.inject("1d 0300" + String(repeating: "aa", count: 21))     // Indication of 24 octets
        await peer.expect("1e")                                              // confirmed
        try peer.inject("12 0300" + String(repeating: "aa", count: 20))     // 23 octets: served
        await peer.expect("13")
        var delivered = engine.serverInitiated.makeAsyncIterator()
        await engine.close()
        #expect(await delivered.next() == nil, "the long indication was not delivered")
    }

    @Test("PDUs of the exchanged size are taken in from the first one after the MTU exchange")
    func afterExchange() async throws {
        var (engine, peer) = engineAndPeer(mtu: (100, 100), server: { pdu, _ in
            if case .writeRequest = pdu { return .writeResponse(ATTWriteResponse()) }
            return nil
        })
        // The peer as client: it exchanges, then at once writes 100 octets.
        try peer.inject("02 6400")
        await peer.expect("03 6400")
        try peer.inject("12 0300" + String(repeating: "aa", count: 97))
        await peer.expect("13")
        // This end as client: a notification of 100 octets right behind the response is delivered.
        let exchange = Task { try await engine.exchangeMTU() }
        await peer.expect("02 6400")
        try peer.inject("03 6400")
        try peer.inject("1b 0300" + String(repeating: "bb", count: 97))
        #expect(try await exchange.value == 100)
        var delivered = engine.serverInitiated.makeAsyncIterator()
        #expect(await delivered.next() == .handleValueNotification(ATTHandleValueNotification(handle: 3, value: [UInt8](repeating: 0xbb, count: 97))))
        await engine.close()
    }
}
