import Testing
import BLECore
import Synchronization
@testable import ATT
import BLETestSupport

/// A handler that answers every Read Request with the handle's two octets and records every
/// PDU it is given.
final class RecordingHandler: Sendable {
    private let seen = Mutex<[ATTPDU]>([])
    var pdus: [ATTPDU] { seen.withLock { $0 } }

    var handler: ATTEngine.ServerHandler {
        { pdu, _ in
            self.seen.withLock { $0.append(pdu) }
            if case .readRequest(let read) = pdu {
                return readResponse([UInt8(truncatingIfNeeded: read.handle), UInt8(truncatingIfNeeded: read.handle >> 8)])
            }
            return nil
        }
    }
}

@Suite("ATTEngine, server role: requests, commands and indications (Part F, 3.3)", .timeLimit(.minutes(1)))
struct ATTEngineServerTests {
    @Test("the handler answers requests; a command reaches it and is never answered")
    func handler() async throws {
        let recorder = RecordingHandler()
        let (engine, peerSide) = engineAndPeer(server: recorder.handler)
        var peer = peerSide
        try peer.inject("52 1000 aa")                // Write Command, handle 0x0010, value aa
        try peer.inject("0a 3412")                   // Read Request, handle 0x1234
        await peer.expect("0b 3412")                 // Read Response, value 3412: the first PDU back
        #expect(recorder.pdus == [.writeCommand(ATTWriteCommand(handle: 0x0010, value: [0xAA])), readRequest(0x1234)])
        await engine.close()
    }

    @Test("a flood of commands while the handler is busy: at most inboundCapacity wait, the rest are dropped and counted")
    func inboundQueueBounded() async throws {
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let (started, didStart) = AsyncStream.makeStream(of: Void.self)
        let served = Mutex(0)
        let handler: ATTEngine.ServerHandler = { _, _ in
            let first = served.withLock { count -> Bool in
                count += 1
                return count == 1
            }
            if first {
                didStart.yield()
                for await _ in gate { break }          // the first command holds the handler
            }
            return nil
        }
        let (engine, peer) = engineAndPeer(server: handler)
        try peer.inject("52 1000 00")                // Write Command, handle 0x0010
        for await _ in started { break }
        for _ in 0..<(ATTEngine.inboundCapacity + 10) { try peer.inject("52 1000 01") }
        #expect(await eventually { await engine.droppedInboundPDUs == 10 })
        open.yield()
        #expect(await eventually { served.withLock { $0 } == 1 + ATTEngine.inboundCapacity })
        #expect(await engine.droppedInboundPDUs == 10)
        await engine.close()
    }

    @Test("unknown request 0x3f gets Error Response Request Not Supported naming 0x3f, with or without a handler")
    func unknownRequest() async throws {
        for handler in [nil, RecordingHandler().handler] {
            let (engine, peerSide) = engineAndPeer(server: handler)
            var peer = peerSide
            try peer.inject("3f 0102")               // Unknown Opcode (0x3f), parameters 0102
            // Error Response (0x01)
            //   Request Opcode In Error: 0x3f
            //   Attribute Handle In Error: 0x0000
            //   Error Code: 0x06 (Request Not Supported)
            await peer.expect("01 3f 0000 06")
            await engine.close()
        }
    }

    @Test("a known request the handler does not serve gets Request Not Supported")
    func unservedRequest() async throws {
        let (engine, peerSide) = engineAndPeer(server: RecordingHandler().handler)
        var peer = peerSide
        try peer.inject("12 0300 01")                // Write Request, handle 0x0003 (handler returns nil)
        await peer.expect("01 12 0000 06")           // Error Response: Write Request, 0x0000, Request Not Supported
        await engine.close()
    }

    @Test("unknown command 0x7f gets nothing: the next PDU back answers the next request")
    func unknownCommand() async throws {
        let recorder = RecordingHandler()
        let (engine, peerSide) = engineAndPeer(server: recorder.handler)
        var peer = peerSide
        try peer.inject("7f 0102")                   // Unknown Command (0x7f), parameters 0102
        try peer.inject("d3 00")                     // Unknown Command with the signature flag: also ignored
        try peer.inject("0a 0100")                   // Read Request, handle 0x0001
        await peer.expect("0b 0100")                 // its Read Response is the first PDU back
        #expect(peer.bearer.transcript.filter { $0.sender == .first }.count == 1)
        await engine.close()
    }

    @Test("a Read Request with one parameter octet gets Invalid PDU (0x04), handle 0x0000")
    func invalidRequest() async throws {
        let recorder = RecordingHandler()
        let (engine, peerSide) = engineAndPeer(server: recorder.handler)
        var peer = peerSide
        try peer.inject("0a 01")                     // Read Request cut inside its Attribute Handle
        // Error Response (0x01)
        //   Request Opcode In Error: 0x0a (Read Request)
        //   Attribute Handle In Error: 0x0000
        //   Error Code: 0x04 (Invalid PDU)
        await peer.expect("01 0a 0000 04")
        try peer.inject("02 17")                     // Exchange MTU Request cut: Invalid PDU too
        await peer.expect("01 02 0000 04")
        try peer.inject("52 10")                     // Write Command cut: ignored
        try peer.inject("")                          // empty PDU: no opcode to answer
        try peer.inject("0a 0200")
        await peer.expect("0b 0200")
        #expect(recorder.pdus == [readRequest(0x0002)], "the handler never sees a PDU that does not decode")
        await engine.close()
    }

    @Test("answers that do not answer the request, or exceed ATT_MTU, become Unlikely Error")
    func badAnswers() async throws {
        let handler: ATTEngine.ServerHandler = { pdu, _ in
            guard case .readRequest(let read) = pdu else { return nil }
            switch read.handle {
            case 1: return .writeResponse(ATTWriteResponse())                    // wrong response
            case 2: return .errorResponse(ATTErrorResponse(requestOpcodeInError: .writeRequest,
                                                           attributeHandleInError: 2, errorCode: .readNotPermitted))
            case 3: return readResponse([UInt8](repeating: 0, count: 22))        // 23 octets: fits
            case 4: return readResponse([UInt8](repeating: 0, count: 23))        // 24 octets: too long
            default: return .errorResponse(ATTErrorResponse(requestOpcodeInError: .readRequest,
                                                            attributeHandleInError: read.handle, errorCode: .readNotPermitted))
            }
        }
        let (engine, peerSide) = engineAndPeer(server: handler)
        var peer = peerSide
        try peer.inject("0a 0100")
        await peer.expect("01 0a 0000 0e")           // Error Response: Read Request, 0x0000, Unlikely Error
        try peer.inject("0a 0200")
        await peer.expect("01 0a 0000 0e")
        try peer.inject("0a 0300")
        await peer.expect("0b" + String(repeating: "00", count: 22))
        try peer.inject("0a 0400")
        await peer.expect("01 0a 0000 0e")
        try peer.inject("0a 0500")
        await peer.expect("01 0a 0500 02")           // the handler's own Error Response: Read Not Permitted
        await engine.close()
    }

    @Test("indication waits for its confirmation; a second one waits its turn")
    func indication() async throws {
        let (engine, peerSide) = engineAndPeer()
        var peer = peerSide
        let first = Task { try await engine.indicate(ATTHandleValueIndication(handle: 0x0003, value: [0x01, 0x00, 0xFF, 0xFF])) }
        await peer.expect("1d 0300 0100ffff")        // Handle Value Indication, handle 0x0003
        let second = Task { try await engine.indicate(ATTHandleValueIndication(handle: 0x0010, value: [0x02])) }
        #expect(await eventually { await engine.waitingCount(.indication) == 1 })
        #expect(await engine.isPending(.indication), "the first indication waits for its confirmation")

        // Notifications and requests flow while the indication is outstanding.
        try await engine.send(.handleValueNotification(ATTHandleValueNotification(handle: 0x000C, value: [0x48])))
        await peer.expect("1b 0c00 48")
        try peer.inject("0a 0300")                   // Read Request: no handler, Request Not Supported
        await peer.expect("01 0a 0000 06")
        #expect(peer.bearer.transcript.filter { $0.pdu.first == 0x1D }.count == 1, "the second indication is held back")

        try peer.inject("1e")                        // Handle Value Confirmation
        try await first.value
        await peer.expect("1d 1000 02")              // now the second indication
        try peer.inject("1e")
        try await second.value
        await engine.close()
    }

    @Test("the handler can call back into the engine: an indication sent while serving a request")
    func reentrantHandler() async throws {
        let handler: ATTEngine.ServerHandler = { pdu, engine in
            guard case .writeRequest(let write) = pdu else { return nil }
            do {
                try await engine.indicate(ATTHandleValueIndication(handle: write.handle, value: write.value))
            } catch {
                return .errorResponse(ATTErrorResponse(requestOpcodeInError: .writeRequest,
                                                       attributeHandleInError: write.handle, errorCode: .unlikelyError))
            }
            return .writeResponse(ATTWriteResponse())
        }
        let link = enginePair(server: handler)
        var indications = link.client.serverInitiated.makeAsyncIterator()
        let response = try await link.client.request(.writeRequest(ATTWriteRequest(handle: 0x0020, value: [0x42])))
        #expect(response == .writeResponse(ATTWriteResponse()))
        #expect(await indications.next() == .handleValueIndication(ATTHandleValueIndication(handle: 0x0020, value: [0x42])))
        #expect(link.link.transcript.map(\.pdu) == [
            hex("12 2000 42"),   // Write Request
            hex("1d 2000 42"),   // Handle Value Indication, sent while the write is served
            hex("1e"),           // Handle Value Confirmation, sent by the client engine
            hex("13"),           // Write Response
        ])
        await link.client.close()
        #expect(await eventually { await link.server.isClosed }, "the peer engine ends with the bearer")
    }

    @Test("setServer installs, replaces and removes the handler for requests not yet served")
    func setServer() async throws {
        let (engine, peerSide) = engineAndPeer()
        var peer = peerSide
        try peer.inject("0a 0100")
        await peer.expect("01 0a 0000 06")           // no handler: Request Not Supported
        await engine.setServer(RecordingHandler().handler)
        try peer.inject("0a 0100")
        await peer.expect("0b 0100")
        await engine.setServer(nil)
        try peer.inject("0a 0100")
        await peer.expect("01 0a 0000 06")
        await engine.close()
    }

    @Test("a serving-only engine (no buffering of server-initiated PDUs) still confirms indications")
    func servingOnly() async throws {
        let (local, remote) = InMemoryATTBearer.pair()
        let engine = ATTEngine(bearer: local, serverInitiatedBuffering: .bufferingNewest(0))
        var peer = RawPeer(remote)
        try peer.inject("1b 0c00 01")                // Handle Value Notification: nobody reads, dropped
        try peer.inject("1d 0300 02")                // Handle Value Indication
        await peer.expect("1e")                      // confirmed all the same
        await engine.close()
        var stored = engine.serverInitiated.makeAsyncIterator()
        #expect(await stored.next() == nil, "nothing was kept")
    }

    @Test("both roles on both engines at once: each side's request is served while its own is outstanding")
    func dualRole() async throws {
        let first = RecordingHandler()
        let (a, b) = InMemoryATTBearer.pair()
        let left = ATTEngine(bearer: a, server: first.handler)
        let right = ATTEngine(bearer: b, server: first.handler)
        async let fromLeft = left.request(readRequest(0x0102))
        async let fromRight = right.request(readRequest(0x0304))
        #expect(try await fromLeft == readResponse([0x02, 0x01]))
        #expect(try await fromRight == readResponse([0x04, 0x03]))
        await left.close()
        await right.close()
    }
}
