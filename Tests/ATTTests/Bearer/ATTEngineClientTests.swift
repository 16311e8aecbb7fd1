import Testing
import BLECore
@testable import ATT
import BLETestSupport

@Suite("ATTEngine, client role: one outstanding request (Part F, 3.3.2)", .timeLimit(.minutes(1)))
struct ATTEngineClientTests {
    @Test("a request gets its response; an Error Response is returned, not thrown")
    func requestAndResponse() async throws {
        let (engine, peerSide) = engineAndPeer()
        var peer = peerSide
        let read = Task { try await engine.request(readRequest(0x0003)) }
        await peer.expect("0a 0300")                 // Read Request, handle 0x0003
        try peer.inject("0b 48656c6c6f")             // Read Response, value "Hello"
        #expect(try await read.value == readResponse(Array("Hello".utf8)))

        let write = Task { try await engine.request(.writeRequest(ATTWriteRequest(handle: 0x003F, value: [1]))) }
        await peer.expect("12 3f00 01")              // Write Request, handle 0x003f, value 01
        // Error Response (0x01)
        //   Request Opcode In Error: 0x12 (Write Request)
        //   Attribute Handle In Error: 0x003f
        //   Error Code: 0x05 (Insufficient Authentication)
        try peer.inject("01 12 3f00 05")
        let answer = try await write.value
        guard case .errorResponse(let error) = answer else {
            Issue.record("expected an Error Response, got \(answer)")
            return
        }
        #expect(error.requestOpcodeInError == .writeRequest)
        #expect(error.attributeHandleInError == 0x003F)
        #expect(error.errorCode == .insufficientAuthentication)
        #expect(await engine.isClosed == false)
        await engine.close()
    }

    @Test("requests from two tasks serialise: the second is sent only after the first's response")
    func serialise() async throws {
        let (engine, peerSide) = engineAndPeer()
        var peer = peerSide
        let first = Task { try await engine.request(readRequest(0x0003)) }
        await peer.expect("0a 0300")
        let second = Task { try await engine.request(readRequest(0x0005)) }
        #expect(await eventually { await engine.waitingCount(.request) == 1 })
        #expect(peer.bearer.transcript.count == 1, "the second request is held back")

        try peer.inject("0b 11")                     // Read Response, value 11: answers the first
        await peer.expect("0a 0500")                 // only now the second request
        try peer.inject("0b 22")
        #expect(try await first.value == readResponse([0x11]))
        #expect(try await second.value == readResponse([0x22]))
        #expect(peer.bearer.transcript.map(\.pdu) == [hex("0a 0300"), hex("0b 11"), hex("0a 0500"), hex("0b 22")])
        await engine.close()
    }

    @Test("many queued callers are served in call order")
    func fifo() async throws {
        let (engine, peerSide) = engineAndPeer()
        var peer = peerSide
        var tasks: [Task<ATTPDU, any Error>] = []
        for handle in UInt16(1)...8 {
            tasks.append(Task { try await engine.request(readRequest(handle)) })
            // Each caller is in line before the next one starts, so call order is known.
            #expect(await eventually { await engine.lane(.request) == (true, Int(handle) - 1) })
        }
        for handle in UInt8(1)...8 {
            await peer.expect("0a \(Hex.encode([handle])) 00")
            try peer.inject("0b \(Hex.encode([handle]))")
        }
        for (index, task) in tasks.enumerated() {
            #expect(try await task.value == readResponse([UInt8(index + 1)]))
        }
        await engine.close()
    }

    @Test("a command and a notification pass while a request is outstanding")
    func flowDuringRequest() async throws {
        let (engine, peerSide) = engineAndPeer()
        var peer = peerSide
        var notifications = engine.serverInitiated.makeAsyncIterator()
        let read = Task { try await engine.request(readRequest(0x0003)) }
        await peer.expect("0a 0300")

        // The client's Write Command goes out at once, while the read is outstanding.
        try await engine.send(.writeCommand(ATTWriteCommand(handle: 0x0010, value: [0xAA])))
        await peer.expect("52 1000 aa")              // Write Command, handle 0x0010, value aa

        // The server's notification comes in while the read is outstanding.
        try peer.inject("1b 0c00 0648")              // Handle Value Notification, handle 0x000c, value 0648
        #expect(await notifications.next() == .handleValueNotification(ATTHandleValueNotification(handle: 0x000C, value: [0x06, 0x48])))
        #expect(await engine.isPending(.request))

        try peer.inject("0b 01")
        #expect(try await read.value == readResponse([0x01]))
        await engine.close()
    }

    @Test("indications are delivered, then confirmed; a malformed one is confirmed, not delivered")
    func autoConfirm() async throws {
        let (engine, peerSide) = engineAndPeer()
        var peer = peerSide
        var received = engine.serverInitiated.makeAsyncIterator()
        // Handle Value Indication (0x1d)
        //   Attribute Handle: 0x0003 (Service Changed)
        //   Attribute Value: 0100 ffff
        try peer.inject("1d 0300 0100ffff")
        #expect(await received.next() == .handleValueIndication(ATTHandleValueIndication(handle: 0x0003, value: [0x01, 0x00, 0xFF, 0xFF])))
        await peer.expect("1e")                      // Handle Value Confirmation
        try peer.inject("1d 03")                     // Handle Value Indication cut inside its handle
        await peer.expect("1e")
        try peer.inject("1b 0c")                     // malformed notification: dropped
        // Multiple Handle Value Notification (0x23)
        //   Handle 0x000c, Length 1, Value 07
        //   Handle 0x000f, Length 2, Value 0809
        try peer.inject("23 0c00 0100 07 0f00 0200 0809")
        let multiple = try ATTMultipleHandleValueNotification(tuples: [.init(handle: 0x000C, value: [0x07]),
                                                                      .init(handle: 0x000F, value: [0x08, 0x09])])
        #expect(await received.next() == .multipleHandleValueNotification(multiple))
        await engine.close()
        #expect(await received.next() == nil, "serverInitiated finishes on close")
    }

    @Test("a response that answers another request fails the request with unexpectedResponse")
    func unexpectedResponse() async throws {
        let (engine, peerSide) = engineAndPeer()
        var peer = peerSide
        let read = Task { try await engine.request(readRequest(0x0003)) }
        await peer.expect("0a 0300")
        try peer.inject("13")                        // Write Response: not an answer to a Read Request
        await #expect(throws: ATTError.unexpectedResponse(.writeResponse(ATTWriteResponse()))) { try await read.value }

        let again = Task { try await engine.request(readRequest(0x0003)) }
        await peer.expect("0a 0300")
        try peer.inject("01 12 0300 01")             // Error Response naming a Write Request
        let wrong = ATTErrorResponse(requestOpcodeInError: .writeRequest, attributeHandleInError: 3, errorCode: .invalidHandle)
        await #expect(throws: ATTError.unexpectedResponse(.errorResponse(wrong))) { try await again.value }
        #expect(await engine.isClosed == false, "the bearer stays usable")
        await engine.close()
    }

    @Test("a response that does not decode fails the request with invalidPDU (field and offset)")
    func invalidResponse() async throws {
        let (engine, peerSide) = engineAndPeer()
        var peer = peerSide
        let request = Task { try await engine.request(.exchangeMTURequest(ATTExchangeMTURequest(clientRxMTU: 517))) }
        await peer.expect("02 0502")                 // Exchange MTU Request, Client Rx MTU 517
        try peer.inject("03 f7")                     // Exchange MTU Response cut inside Server Rx MTU
        let expected = ATTDecodingError(opcode: .exchangeMTUResponse,
                                        decodingError: .truncated(field: "Server Rx MTU", offset: 1, needed: 2, available: 1))
        await #expect(throws: ATTError.invalidPDU(expected)) { try await request.value }
        #expect(engine.mtu == 23)
        await engine.close()
    }

    @Test("a response or confirmation with nothing outstanding is ignored")
    func unsolicited() async throws {
        let (engine, peerSide) = engineAndPeer()
        var peer = peerSide
        try peer.inject("0b 99")                     // Read Response nobody asked for
        try peer.inject("1e")                        // Confirmation with no indication outstanding
        try peer.inject("1b 0300 aa")                // a notification: once it is delivered, the two before it were handled
        var delivered = engine.serverInitiated.makeAsyncIterator()
        #expect(await delivered.next() == .handleValueNotification(ATTHandleValueNotification(handle: 0x0003, value: [0xaa])))
        let read = Task { try await engine.request(readRequest(0x0003)) }
        await peer.expect("0a 0300")
        try peer.inject("0b 01")
        #expect(try await read.value == readResponse([0x01]))
        await engine.close()
    }

    @Test("the wrong PDU type for the call is refused and nothing is sent")
    func wrongKind() async throws {
        let (engine, peer) = engineAndPeer()
        await #expect(throws: ATTError.wrongPDUKind(.writeCommand)) {
            try await engine.request(.writeCommand(ATTWriteCommand(handle: 1, value: [])))
        }
        await #expect(throws: ATTError.wrongPDUKind(.readResponse)) { try await engine.request(readResponse([])) }
        await #expect(throws: ATTError.wrongPDUKind(.readRequest)) { try await engine.send(readRequest(1)) }
        await #expect(throws: ATTError.wrongPDUKind(.handleValueIndication)) {
            try await engine.send(.handleValueIndication(ATTHandleValueIndication(handle: 1, value: [])))
        }
        await #expect(throws: ATTError.wrongPDUKind(.handleValueConfirmation)) {
            try await engine.send(.handleValueConfirmation(ATTHandleValueConfirmation()))
        }
        #expect(peer.bearer.transcript.isEmpty)
        await engine.close()
    }

    @Test("a PDU longer than ATT_MTU throws pduTooLarge at the call and sends nothing")
    func tooLarge() async throws {
        let (engine, peer) = engineAndPeer()
        let value = [UInt8](repeating: 0x55, count: 21)       // 1 + 2 + 21 = 24 octets > 23
        await #expect(throws: ATTError.pduTooLarge(size: 24, mtu: 23)) {
            try await engine.request(.writeRequest(ATTWriteRequest(handle: 0x0010, value: value)))
        }
        await #expect(throws: ATTError.pduTooLarge(size: 24, mtu: 23)) {
            try await engine.send(.writeCommand(ATTWriteCommand(handle: 0x0010, value: value)))
        }
        await #expect(throws: ATTError.pduTooLarge(size: 24, mtu: 23)) {
            try await engine.send(.handleValueNotification(ATTHandleValueNotification(handle: 0x0010, value: value)))
        }
        await #expect(throws: ATTError.pduTooLarge(size: 24, mtu: 23)) {
            try await engine.indicate(ATTHandleValueIndication(handle: 0x0010, value: value))
        }
        #expect(peer.bearer.transcript.isEmpty, "nothing was sent, nothing truncated")
        // Exactly ATT_MTU octets is fine.
        try await engine.send(.writeCommand(ATTWriteCommand(handle: 0x0010, value: Array(value.dropLast()))))
        #expect(peer.bearer.transcript.map(\.pdu.count) == [23])
        #expect(await engine.isClosed == false)
        await engine.close()
    }
}
