import Testing
import BLECore
@testable import ATT

@Suite("ATT_ERROR_RSP (3.4.1.1)")
struct ErrorResponseTests {
    @Test("fixture: a Write Request refused for insufficient authentication")
    func fixture() throws {
        // Error Response (0x01)
        //   Request Opcode In Error: 0x12 (Write Request)
        //   Attribute Handle In Error: 0x003f
        //   Error Code: 0x05 (Insufficient Authentication)
        let bytes = hex("01 12 3f00 05")
        let pdu = try expectRoundTrip(ATTErrorResponse.self, bytes)
        #expect(pdu.requestOpcodeInError == .writeRequest)
        #expect(pdu.attributeHandleInError == 0x003F)
        #expect(pdu.errorCode == .insufficientAuthentication)
        #expect(try ATTPDU.decode(bytes).description
                == "Error Response Write Request handle 0x003f: Insufficient Authentication (0x05)")
    }

    @Test("fixture: end of primary service discovery, with unknown and reserved values kept raw")
    func attributeNotFound() throws {
        // Error Response (0x01)
        //   Request Opcode In Error: 0x10 (Read By Group Type Request)
        //   Attribute Handle In Error: 0x000f
        //   Error Code: 0x0a (Attribute Not Found)
        let found = try expectRoundTrip(ATTErrorResponse.self, hex("01 10 0f00 0a"))
        #expect(found.requestOpcodeInError == .readByGroupTypeRequest)
        #expect(found.attributeHandleInError == 0x000F)
        #expect(found.errorCode == .attributeNotFound)

        // Error Response to an opcode the spec does not define, reserved error code 0x42.
        let odd = try expectRoundTrip(ATTErrorResponse.self, hex("01 3f 0000 42"))
        #expect(odd.requestOpcodeInError.rawValue == 0x3F)
        #expect(odd.attributeHandleInError == 0x0000)
        #expect(odd.errorCode.rawValue == 0x42)
        #expect(odd.description == "Error Response Unknown Opcode (0x3f) handle 0x0000: Reserved for future use (0x42)")
    }

    @Test("round trip of a built value")
    func roundTrip() throws {
        let bytes = try expectRoundTrip(ATTErrorResponse(requestOpcodeInError: .readBlobRequest,
                                                         attributeHandleInError: 0x1234, errorCode: .attributeNotLong))
        #expect(bytes == hex("01 0c 3412 0b"))
    }

    @Test("truncated at every length, and trailing octets")
    func malformed() {
        expectTruncationsAndTrailing(ATTErrorResponse.self, hex("01 12 3f00 05")) { length in
            switch length {
            case 1: return short("Request Opcode In Error", at: 1, needs: 1, has: 0)
            case 2: return short("Attribute Handle In Error", at: 2, needs: 2, has: 0)
            case 3: return short("Attribute Handle In Error", at: 2, needs: 2, has: 1)
            default: return short("Error Code", at: 4, needs: 1, has: 0)
            }
        }
    }

    @Test("fields for JSON output")
    func fields() throws {
        let pdu = try ATTPDU.decode(hex("01 12 3f00 05"))
        #expect(pdu.fields == [
            ATTField("request_opcode", .integer(0x12)),
            ATTField("request", .text("Write Request")),
            ATTField("handle", .integer(0x3F)),
            ATTField("error_code", .integer(5)),
            ATTField("error", .text("Insufficient Authentication")),
        ])
    }
}

@Suite("ATT_EXCHANGE_MTU_REQ / ATT_EXCHANGE_MTU_RSP (3.4.2)")
struct ExchangeMTUTests {
    @Test("fixture: request, Client Rx MTU 517")
    func request() throws {
        // Exchange MTU Request (0x02)
        //   Client Rx MTU: 517 (0x0205)
        let pdu = try expectRoundTrip(ATTExchangeMTURequest.self, hex("02 0502"))
        #expect(pdu.clientRxMTU == 517)
        #expect(!pdu.isBelowDefault)
        #expect(pdu.description == "Exchange MTU Request Client Rx MTU 517")
        #expect(pdu.fields == [ATTField("client_rx_mtu", .integer(517))])
    }

    @Test("fixture: response, Server Rx MTU 247, and the resulting ATT_MTU")
    func response() throws {
        // Exchange MTU Response (0x03)
        //   Server Rx MTU: 247 (0x00f7)
        let pdu = try expectRoundTrip(ATTExchangeMTUResponse.self, hex("03 f700"))
        #expect(pdu.serverRxMTU == 247)
        #expect(pdu.effectiveMTU(clientRxMTU: 517) == 247)
        #expect(pdu.effectiveMTU(clientRxMTU: 100) == 100)
        // Either side below the default: the ATT_MTU stays 23 (3.4.2.2).
        #expect(pdu.effectiveMTU(clientRxMTU: 22) == 23)
        #expect(ATTExchangeMTUResponse(serverRxMTU: 5).effectiveMTU(clientRxMTU: 517) == 23)
    }

    @Test("a Client Rx MTU below 23 is well formed and kept")
    func belowDefault() throws {
        // Exchange MTU Request (0x02), Client Rx MTU: 22
        let pdu = try expectRoundTrip(ATTExchangeMTURequest.self, hex("02 1600"))
        #expect(pdu.clientRxMTU == 22)
        #expect(pdu.isBelowDefault)
    }

    @Test("round trip of built values")
    func roundTrip() throws {
        #expect(try expectRoundTrip(ATTExchangeMTURequest(clientRxMTU: 0xFFFF)) == [0x02, 0xFF, 0xFF])
        #expect(try expectRoundTrip(ATTExchangeMTUResponse(serverRxMTU: 23)) == [0x03, 0x17, 0x00])
    }

    @Test("bug report: `02` alone is a typed error naming Client Rx MTU at offset 1")
    func bugReport() throws {
        let error = try #require(throws: ATTDecodingError.self) { try ATTPDU.decode([0x02]) }
        #expect(error.opcode == .exchangeMTURequest)
        #expect(error.field == "Client Rx MTU")
        #expect(error.offset == 1)
        #expect(error.decodingError == .truncated(field: "Client Rx MTU", offset: 1, needed: 2, available: 0))
        #expect(error.description == "Exchange MTU Request (0x02): Client Rx MTU at offset 1 needs 2 octets, 0 available")
    }

    @Test("truncated at every length, and trailing octets")
    func malformed() {
        expectTruncationsAndTrailing(ATTExchangeMTURequest.self, hex("02 0502")) { length in
            short("Client Rx MTU", at: 1, needs: 2, has: length - 1)
        }
        expectTruncationsAndTrailing(ATTExchangeMTUResponse.self, hex("03 f700")) { length in
            short("Server Rx MTU", at: 1, needs: 2, has: length - 1)
        }
    }
}
