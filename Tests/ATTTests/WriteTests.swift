import Testing
import BLECore
@testable import ATT

@Suite("ATT_WRITE_REQ / RSP, ATT_WRITE_CMD, ATT_SIGNED_WRITE_CMD (3.4.5)")
struct WriteTests {
    @Test("fixture: Write Request, one octet")
    func writeRequest() throws {
        // Write Request (0x12)
        //   Attribute Handle: 0x0012
        //   Attribute Value: 01
        let pdu = try expectRoundTrip(ATTWriteRequest.self, hex("12 1200 01"))
        #expect(pdu.handle == 0x0012)
        #expect(pdu.value == [0x01])
        #expect(try ATTPDU.decode(hex("12 1200 01")).description == "Write Request handle 0x0012 value 01")
        #expect(pdu.fields == [ATTField("handle", .integer(0x12)), ATTField("value", .octets([0x01]))])
    }

    @Test("fixture: Write Request enabling notifications in a CCCD")
    func cccdWrite() throws {
        // Write Request (0x12)
        //   Attribute Handle: 0x000d (Client Characteristic Configuration of Heart Rate Measurement)
        //   Attribute Value: 0100 (notifications enabled)
        let pdu = try expectRoundTrip(ATTWriteRequest.self, hex("12 0d00 0100"))
        #expect(pdu.handle == 0x000D)
        #expect(pdu.value == [0x01, 0x00])
    }

    @Test("fixture: Write Request with an empty value (truncates a variable-length value)")
    func emptyWrite() throws {
        // Write Request (0x12), Attribute Handle: 0x0020, Attribute Value: (empty)
        let pdu = try expectRoundTrip(ATTWriteRequest.self, hex("12 2000"))
        #expect(pdu.handle == 0x0020)
        #expect(pdu.value.isEmpty)
        #expect(pdu.description == "Write Request handle 0x0020 value (empty)")
    }

    @Test("fixture: Write Response")
    func writeResponse() throws {
        // Write Response (0x13): no parameters
        let pdu = try expectRoundTrip(ATTWriteResponse.self, hex("13"))
        #expect(pdu == ATTWriteResponse())
        #expect(pdu.description == "Write Response")
        #expect(pdu.fields.isEmpty)
    }

    @Test("fixture: Write Command")
    func writeCommand() throws {
        // Write Command (0x52)
        //   Attribute Handle: 0x000e
        //   Attribute Value: 4869 ("Hi")
        let pdu = try expectRoundTrip(ATTWriteCommand.self, hex("52 0e00 4869"))
        #expect(pdu.handle == 0x000E)
        #expect(pdu.value == Array("Hi".utf8))
        #expect(pdu.description == "Write Command handle 0x000e value 4869")
        #expect(pdu.opcode.kind == .command)
    }

    @Test("fixture: the specification's Signed Write Command example (3.4.5.4)")
    func signedWrite() throws {
        // Signed Write Command (0xd2)
        //   Attribute Handle: 0x0012
        //   Attribute Value: 1337
        //   Authentication Signature:
        //     SignCounter: 1 (01000000)
        //     MAC: f1871e933c900ff2 (the CMAC's top 64 bits 0xF20F903C931E87F1, least significant octet first)
        let bytes = hex("d2 1200 1337 01000000 f1871e933c900ff2")
        let pdu = try expectRoundTrip(ATTSignedWriteCommand.self, bytes)
        #expect(pdu.handle == 0x0012)
        #expect(pdu.value == [0x13, 0x37])
        #expect(pdu.signature.signCounter == 1)
        #expect(pdu.signature.mac == 0xF20F_903C_931E_87F1)
        #expect(pdu.signature.octets == hex("01000000 f1871e933c900ff2"))
        // The message m the signature covers, as the specification gives it: 'D212001337'.
        #expect(pdu.signedMessage == hex("d2 1200 1337"))
        #expect(pdu.description == "Signed Write Command handle 0x0012 value 1337 sign counter 1 MAC f1871e933c900ff2")
        #expect(pdu.fields == [
            ATTField("handle", .integer(0x12)), ATTField("value", .octets([0x13, 0x37])),
            ATTField("sign_counter", .integer(1)), ATTField("mac", .octets(hex("f1871e933c900ff2"))),
        ])
    }

    @Test("fixture: Signed Write Command with an empty value")
    func signedWriteEmpty() throws {
        // Signed Write Command (0xd2), handle 0x0001, value (empty), SignCounter 0x01020304, MAC 0x1122334455667788
        let pdu = try expectRoundTrip(ATTSignedWriteCommand.self, hex("d2 0100 04030201 8877665544332211"))
        #expect(pdu.handle == 0x0001)
        #expect(pdu.value.isEmpty)
        #expect(pdu.signature.signCounter == 0x0102_0304)
        #expect(pdu.signature.mac == 0x1122_3344_5566_7788)
    }

    @Test("round trip of built values")
    func roundTrip() throws {
        #expect(try expectRoundTrip(ATTWriteRequest(handle: 3, value: [1, 2, 3])) == hex("12 0300 010203"))
        #expect(try expectRoundTrip(ATTWriteResponse()) == hex("13"))
        #expect(try expectRoundTrip(ATTWriteCommand(handle: 3, value: [])) == hex("52 0300"))
        let signed = ATTSignedWriteCommand(handle: 0x0012, value: [0x13, 0x37],
                                           signature: ATTAuthenticationSignature(signCounter: 1, mac: 0xF20F_903C_931E_87F1))
        #expect(try expectRoundTrip(signed) == hex("d2 1200 1337 01000000 f1871e933c900ff2"))
    }

    @Test("malformed: truncated handle, short signature, trailing octets after Write Response")
    func malformed() {
        expectDecodingError(ATTWriteRequest.self, hex("12"), short("Attribute Handle", at: 1, needs: 2, has: 0))
        expectDecodingError(ATTWriteRequest.self, hex("12 12"), short("Attribute Handle", at: 1, needs: 2, has: 1))
        expectDecodingError(ATTWriteCommand.self, hex("52 0e"), short("Attribute Handle", at: 1, needs: 2, has: 1))
        expectDecodingError(ATTWriteResponse.self, hex("13 00"), .unexpectedTrailingOctets(offset: 1, count: 1))
        let S = ATTSignedWriteCommand.self
        expectDecodingError(S, hex("d2"), short("Attribute Handle", at: 1, needs: 2, has: 0))
        expectDecodingError(S, hex("d2 1200"), short("Authentication Signature", at: 3, needs: 12, has: 0))
        // Every length that leaves fewer than 12 octets after the handle.
        let full = hex("d2 1200 01000000 f1871e933c900ff2")
        for cut in 3..<full.count {
            expectDecodingError(S, Array(full.prefix(cut)), short("Authentication Signature", at: 3, needs: 12, has: cut - 3))
        }
    }
}

@Suite("ATT_PREPARE_WRITE_REQ / RSP, ATT_EXECUTE_WRITE_REQ / RSP (3.4.6)")
struct QueuedWriteTests {
    @Test("fixture: Prepare Write Request, second part of a long value")
    func prepareRequest() throws {
        // Prepare Write Request (0x16)
        //   Attribute Handle: 0x0012
        //   Value Offset: 18 (0x0012)
        //   Part Attribute Value: 0102030405
        let pdu = try expectRoundTrip(ATTPrepareWriteRequest.self, hex("16 1200 1200 0102030405"))
        #expect(pdu.handle == 0x0012)
        #expect(pdu.valueOffset == 18)
        #expect(pdu.partAttributeValue == [1, 2, 3, 4, 5])
        #expect(pdu.description == "Prepare Write Request handle 0x0012 offset 18 value 0102030405")
        #expect(pdu.fields == [ATTField("handle", .integer(0x12)), ATTField("offset", .integer(18)),
                               ATTField("value", .octets([1, 2, 3, 4, 5]))])
    }

    @Test("fixture: Prepare Write Response echoes the request")
    func prepareResponse() throws {
        // Prepare Write Response (0x17)
        //   Attribute Handle: 0x0012
        //   Value Offset: 18
        //   Part Attribute Value: 0102030405
        let pdu = try expectRoundTrip(ATTPrepareWriteResponse.self, hex("17 1200 1200 0102030405"))
        #expect(pdu.handle == 0x0012)
        #expect(pdu.valueOffset == 18)
        #expect(pdu.partAttributeValue == [1, 2, 3, 4, 5])
        let request = try ATTPrepareWriteRequest(decoding: hex("16 1200 1200 0102030405"))
        #expect(pdu.echoes(request))
        #expect(ATTPrepareWriteResponse(echoing: request) == pdu)
        #expect(!ATTPrepareWriteResponse(handle: 0x12, valueOffset: 18, partAttributeValue: [1, 2, 3, 4]).echoes(request))
    }

    @Test("fixture: Execute Write Request, write and cancel")
    func executeRequest() throws {
        // Execute Write Request (0x18), Flags: 0x01 (immediately write all pending prepared values)
        let write = try expectRoundTrip(ATTExecuteWriteRequest.self, hex("18 01"))
        #expect(write.flags == .immediatelyWriteAllPendingPreparedValues)
        #expect(write.flags.isDefined)
        #expect(write.description == "Execute Write Request write all pending prepared values")
        // Execute Write Request (0x18), Flags: 0x00 (cancel all prepared writes)
        let cancel = try expectRoundTrip(ATTExecuteWriteRequest.self, hex("18 00"))
        #expect(cancel.flags == .cancelAllPreparedWrites)
        #expect(cancel.description == "Execute Write Request cancel all prepared writes")
    }

    @Test("fixture: undefined Execute Write flags are kept raw for the server to refuse")
    func executeUndefinedFlags() throws {
        // Execute Write Request (0x18), Flags: 0x02 (not defined by Table 3.36)
        let pdu = try expectRoundTrip(ATTExecuteWriteRequest.self, hex("18 02"))
        #expect(pdu.flags.rawValue == 0x02)
        #expect(!pdu.flags.isDefined)
        #expect(pdu.description == "Execute Write Request flags 0x02 (undefined)")
        #expect(pdu.fields == [ATTField("flags", .integer(2)), ATTField("action", .text("flags 0x02 (undefined)"))])
    }

    @Test("fixture: Execute Write Response")
    func executeResponse() throws {
        // Execute Write Response (0x19): no parameters
        let pdu = try expectRoundTrip(ATTExecuteWriteResponse.self, hex("19"))
        #expect(pdu == ATTExecuteWriteResponse())
        #expect(pdu.description == "Execute Write Response")
    }

    @Test("round trip of built values")
    func roundTrip() throws {
        #expect(try expectRoundTrip(ATTPrepareWriteRequest(handle: 1, valueOffset: 0, partAttributeValue: [])) == hex("16 0100 0000"))
        #expect(try expectRoundTrip(ATTPrepareWriteResponse(handle: 1, valueOffset: 0xFFFF, partAttributeValue: [9])) == hex("17 0100 ffff 09"))
        #expect(try expectRoundTrip(ATTExecuteWriteRequest(flags: ATTExecuteWriteRequest.Flags(rawValue: 0xFF))) == hex("18 ff"))
        #expect(try expectRoundTrip(ATTExecuteWriteResponse()) == hex("19"))
    }

    @Test("malformed: truncated at every fixed length, trailing octets")
    func malformed() {
        for P in [ATTPrepareWriteRequest.self, ATTPrepareWriteResponse.self] as [any ATTPDUCodable.Type] {
            checkPrepare(P)
        }
        expectTruncationsAndTrailing(ATTExecuteWriteRequest.self, hex("18 01")) { _ in short("Flags", at: 1, needs: 1, has: 0) }
        expectDecodingError(ATTExecuteWriteResponse.self, hex("19 01"), .unexpectedTrailingOctets(offset: 1, count: 1))
    }

    private func checkPrepare<P: ATTPDUCodable>(_ p: P.Type) {
        let op = P.opcode.rawValue
        expectDecodingError(p, [op], short("Attribute Handle", at: 1, needs: 2, has: 0))
        expectDecodingError(p, [op, 0x12], short("Attribute Handle", at: 1, needs: 2, has: 1))
        expectDecodingError(p, [op, 0x12, 0x00], short("Value Offset", at: 3, needs: 2, has: 0))
        expectDecodingError(p, [op, 0x12, 0x00, 0x12], short("Value Offset", at: 3, needs: 2, has: 1))
    }
}
