import Testing
import BLECore
@testable import ATT
import BLETestSupport

@Suite("ATTEngine: MTU exchange (Part F, 3.4.2)", .timeLimit(.minutes(1)))
struct ATTEngineMTUTests {
    @Test("client and server agree on min(client Rx, server Rx); the server learns it too")
    func minimum() async throws {
        let link = enginePair(mtu: (517, 247))
        #expect(link.client.mtu == 23)
        #expect(try await link.client.exchangeMTU() == 247)
        #expect(link.client.mtu == 247)
        var serverUpdates = link.server.mtuUpdates.makeAsyncIterator()
        #expect(await serverUpdates.next() == 247)
        #expect(link.server.mtu == 247)
        #expect(link.link.transcript.map(\.pdu) == [
            hex("02 0502"),   // Exchange MTU Request, Client Rx MTU 517
            hex("03 f700"),   // Exchange MTU Response, Server Rx MTU 247
        ])
        var clientUpdates = link.client.mtuUpdates.makeAsyncIterator()
        #expect(await clientUpdates.next() == 247)
        await link.client.close()
        #expect(await serverUpdates.next() == nil, "mtuUpdates finishes on close")
    }

    @Test("a second exchange throws mtuAlreadyExchanged and sends nothing")
    func once() async throws {
        let link = enginePair(mtu: (100, 517))
        #expect(try await link.client.exchangeMTU() == 100)
        await #expect(throws: ATTError.mtuAlreadyExchanged) { try await link.client.exchangeMTU() }
        await #expect(throws: ATTError.mtuAlreadyExchanged) {
            try await link.client.request(.exchangeMTURequest(ATTExchangeMTURequest(clientRxMTU: 50)))
        }
        #expect(link.link.transcript.count == 2)
        #expect(await link.client.hasExchangedMTU)
        await link.client.close()
    }

    @Test("never below 23: a peer's Rx MTU under the default leaves ATT_MTU at 23")
    func floor() async throws {
        let (engine, peerSide) = engineAndPeer(mtu: (517, 517))
        var peer = peerSide
        try peer.inject("02 1000")                   // Exchange MTU Request, Client Rx MTU 16 (below 23)
        await peer.expect("03 0502")                 // Exchange MTU Response, Server Rx MTU 517
        var updates = engine.mtuUpdates.makeAsyncIterator()
        #expect(await updates.next() == 23)

        let exchange = Task { try await engine.exchangeMTU() }
        await peer.expect("02 0502")                 // the engine's own request, as client
        try peer.inject("03 1400")                   // Exchange MTU Response, Server Rx MTU 20 (below 23)
        #expect(try await exchange.value == 23)
        await engine.close()
    }

    @Test("a bearer offering less than 23 still announces 23")
    func smallBearer() async throws {
        let link = enginePair(mtu: (20, 20))
        #expect(link.client.localRxMTU == 23)
        #expect(try await link.client.exchangeMTU() == 23)
        #expect(link.link.transcript.map(\.pdu) == [hex("02 1700"), hex("03 1700")])
        await link.client.close()
    }

    @Test("a server without Exchange MTU (Error Response) leaves 23")
    func notSupported() async throws {
        let (engine, peerSide) = engineAndPeer()
        var peer = peerSide
        let exchange = Task { try await engine.exchangeMTU() }
        await peer.expect("02 0502")
        try peer.inject("01 02 0000 06")             // Error Response: Exchange MTU Request, Request Not Supported
        #expect(try await exchange.value == 23)
        await #expect(throws: ATTError.mtuAlreadyExchanged) { try await engine.exchangeMTU() }
        await engine.close()
    }

    @Test("the server applies the new MTU after sending its response; a client asking again is answered again")
    func serverSide() async throws {
        let (engine, peerSide) = engineAndPeer(mtu: (247, 517))
        var peer = peerSide
        try peer.inject("02 0502")                   // Client Rx MTU 517
        await peer.expect("03 f700")                 // Server Rx MTU 247
        #expect(await eventually { engine.mtu == 247 })
        try peer.inject("02 4000")                   // again (a misbehaving client): Client Rx MTU 64
        await peer.expect("03 f700")                 // the same Server Rx MTU
        #expect(await eventually { engine.mtu == 64 })
        // A notification of ATT_MTU octets passes now, one more does not.
        try await engine.send(.handleValueNotification(ATTHandleValueNotification(handle: 1, value: [UInt8](repeating: 7, count: 61))))
        await #expect(throws: ATTError.pduTooLarge(size: 65, mtu: 64)) {
            try await engine.send(.handleValueNotification(ATTHandleValueNotification(handle: 1, value: [UInt8](repeating: 7, count: 62))))
        }
        await engine.close()
    }

    @Test("the larger MTU lets larger requests through once exchanged")
    func largerAfterExchange() async throws {
        let handler: ATTEngine.ServerHandler = { pdu, _ in
            guard case .writeRequest = pdu else { return nil }
            return .writeResponse(ATTWriteResponse())
        }
        let link = enginePair(mtu: (64, 64), server: handler)
        let write = ATTPDU.writeRequest(ATTWriteRequest(handle: 0x0010, value: [UInt8](repeating: 1, count: 40)))
        await #expect(throws: ATTError.pduTooLarge(size: 43, mtu: 23)) { try await link.client.request(write) }
        _ = try await link.client.exchangeMTU()
        #expect(try await link.client.request(write) == .writeResponse(ATTWriteResponse()))
        await link.client.close()
    }
}
