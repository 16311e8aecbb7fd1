import Testing
import BLECore
@testable import ATT

@Suite("ATT_READ_REQ / RSP and ATT_READ_BLOB_REQ / RSP (3.4.4.3 to 3.4.4.6)")
struct ReadTests {
    @Test("fixture: Read Request for handle 0x0003")
    func readRequest() throws {
        // Read Request (0x0a)
        //   Attribute Handle: 0x0003
        let pdu = try expectRoundTrip(ATTReadRequest.self, hex("0a 0300"))
        #expect(pdu.handle == 0x0003)
        #expect(pdu.description == "Read Request handle 0x0003")
        #expect(pdu.fields == [ATTField("handle", .integer(3))])
    }

    @Test("fixture: Read Response with a device name")
    func readResponse() throws {
        // Read Response (0x0b)
        //   Attribute Value: 4c696e7578424c45 ("LinuxBLE", never interpreted by ATT)
        let pdu = try expectRoundTrip(ATTReadResponse.self, hex("0b 4c696e7578424c45"))
        #expect(pdu.value == Array("LinuxBLE".utf8))
        #expect(pdu.description == "Read Response value 4c696e7578424c45")
    }

    @Test("fixture: empty Read Response")
    func emptyReadResponse() throws {
        // Read Response (0x0b), Attribute Value: (empty)
        let pdu = try expectRoundTrip(ATTReadResponse.self, hex("0b"))
        #expect(pdu.value.isEmpty)
        #expect(pdu.description == "Read Response value (empty)")
    }

    @Test("fixture: Read Blob Request at offset 22")
    func blobRequest() throws {
        // Read Blob Request (0x0c)
        //   Attribute Handle: 0x0003
        //   Value Offset: 22 (0x0016)
        let pdu = try expectRoundTrip(ATTReadBlobRequest.self, hex("0c 0300 1600"))
        #expect(pdu.handle == 0x0003)
        #expect(pdu.valueOffset == 22)
        #expect(pdu.description == "Read Blob Request handle 0x0003 offset 22")
        #expect(pdu.fields == [ATTField("handle", .integer(3)), ATTField("offset", .integer(22))])
    }

    @Test("fixture: Read Blob Response with the value's tail")
    func blobResponse() throws {
        // Read Blob Response (0x0d)
        //   Part Attribute Value: 2d6c6f6e67 ("-long")
        let pdu = try expectRoundTrip(ATTReadBlobResponse.self, hex("0d 2d6c6f6e67"))
        #expect(pdu.partAttributeValue == Array("-long".utf8))
        #expect(pdu.fields == [ATTField("value", .octets(Array("-long".utf8)))])
    }

    @Test("round trip of built values")
    func roundTrip() throws {
        #expect(try expectRoundTrip(ATTReadRequest(handle: 0xFFFF)) == hex("0a ffff"))
        #expect(try expectRoundTrip(ATTReadResponse(value: Array(repeating: 0x5A, count: 512))).count == 513)
        #expect(try expectRoundTrip(ATTReadBlobRequest(handle: 0x20, valueOffset: 0x1FF)) == hex("0c 2000 ff01"))
        #expect(try expectRoundTrip(ATTReadBlobResponse(partAttributeValue: [])) == hex("0d"))
    }

    @Test("malformed: truncated at every length, trailing octets")
    func malformed() {
        expectTruncationsAndTrailing(ATTReadRequest.self, hex("0a 0300")) { length in
            short("Attribute Handle", at: 1, needs: 2, has: length - 1)
        }
        expectTruncationsAndTrailing(ATTReadBlobRequest.self, hex("0c 0300 1600")) { length in
            length < 3 ? short("Attribute Handle", at: 1, needs: 2, has: length - 1)
                       : short("Value Offset", at: 3, needs: 2, has: length - 3)
        }
    }
}

@Suite("ATT_READ_MULTIPLE_REQ / RSP and ATT_READ_MULTIPLE_VARIABLE_REQ / RSP (3.4.4.7, 3.4.4.8, 3.4.4.11, 3.4.4.12)")
struct ReadMultipleTests {
    @Test("fixture: Read Multiple Request for two handles")
    func request() throws {
        // Read Multiple Request (0x0e)
        //   Set Of Handles: 0x0003, 0x0005
        let pdu = try expectRoundTrip(ATTReadMultipleRequest.self, hex("0e 0300 0500"))
        #expect(pdu.setOfHandles == [0x0003, 0x0005])
        #expect(pdu.description == "Read Multiple Request handles 0x0003, 0x0005")
        #expect(pdu.fields == [ATTField("handles", .list([[ATTField("handle", .integer(3))],
                                                          [ATTField("handle", .integer(5))]]))])
    }

    @Test("fixture: Read Multiple Response, values concatenated")
    func response() throws {
        // Read Multiple Response (0x0f)
        //   Set Of Values: 64 c103 (Battery Level 100 %, then Appearance 0x03c1; ATT does not split them)
        let pdu = try expectRoundTrip(ATTReadMultipleResponse.self, hex("0f 64 c103"))
        #expect(pdu.setOfValues == [0x64, 0xC1, 0x03])
        #expect(pdu.description == "Read Multiple Response values 64c103")
    }

    @Test("fixture: Read Multiple Variable Request for three handles")
    func variableRequest() throws {
        // Read Multiple Variable Request (0x20)
        //   Set Of Handles: 0x0003, 0x0005, 0x0010
        let pdu = try expectRoundTrip(ATTReadMultipleVariableRequest.self, hex("20 0300 0500 1000"))
        #expect(pdu.setOfHandles == [0x0003, 0x0005, 0x0010])
    }

    @Test("fixture: Read Multiple Variable Response, two complete tuples")
    func variableResponse() throws {
        // Read Multiple Variable Response (0x21)
        //   Value Length 1: 64
        //   Value Length 2: c103
        let pdu = try expectRoundTrip(ATTReadMultipleVariableResponse.self, hex("21 0100 64 0200 c103"))
        #expect(pdu.tuples.count == 2)
        #expect(pdu.tuples[0].valueLength == 1)
        #expect(pdu.tuples[0].attributeValue == [0x64])
        #expect(!pdu.tuples[0].isTruncated)
        #expect(pdu.tuples[1].valueLength == 2)
        #expect(pdu.tuples[1].attributeValue == [0xC1, 0x03])
        #expect(!pdu.tuples[1].isTruncated)
        #expect(pdu.description == "Read Multiple Variable Response 64, c103")
    }

    @Test("fixture: the last tuple truncated by the end of the PDU (3.4.4.12)")
    func variableResponseTruncated() throws {
        // Read Multiple Variable Response (0x21)
        //   Value Length 3: 414243 ("ABC")
        //   Value Length 8: 4445 (only 2 of 8 octets fit; read the rest with Read Blob)
        let pdu = try expectRoundTrip(ATTReadMultipleVariableResponse.self, hex("21 0300 414243 0800 4445"))
        #expect(pdu.tuples.count == 2)
        #expect(pdu.tuples[0].valueLength == 3)
        #expect(pdu.tuples[0].attributeValue == Array("ABC".utf8))
        #expect(!pdu.tuples[0].isTruncated)
        #expect(pdu.tuples[1].valueLength == 8)
        #expect(pdu.tuples[1].attributeValue == [0x44, 0x45])
        #expect(pdu.tuples[1].isTruncated)
        #expect(pdu.description == "Read Multiple Variable Response 414243, 4445 (truncated, Value Length 8)")
        #expect(pdu.fields == [ATTField("length_value_tuples", .list([
            [ATTField("value_length", .integer(3)), ATTField("value", .octets(Array("ABC".utf8)))],
            [ATTField("value_length", .integer(8)), ATTField("value", .octets([0x44, 0x45]))],
        ]))])
    }

    @Test("fixture: two empty values make the shortest list, 4 octets")
    func variableResponseEmpty() throws {
        // Read Multiple Variable Response (0x21), Value Length 0: (empty), Value Length 0: (empty)
        let pdu = try expectRoundTrip(ATTReadMultipleVariableResponse.self, hex("21 0000 0000"))
        #expect(pdu.tuples == [.init(attributeValue: []), .init(attributeValue: [])])
    }

    @Test("built values and the rules the initializers check")
    func built() throws {
        #expect(try expectRoundTrip(ATTReadMultipleRequest(setOfHandles: [1, 2, 3])) == hex("0e 0100 0200 0300"))
        #expect(try expectRoundTrip(ATTReadMultipleResponse(setOfValues: [])) == hex("0f"))
        #expect(try expectRoundTrip(ATTReadMultipleVariableRequest(setOfHandles: [0x10, 0x20])) == hex("20 1000 2000"))
        #expect(throws: ATTEncodingError(opcode: .readMultipleRequest, field: "Set Of Handles",
                                         reason: "holds 1 handle; two or more are required")) {
            try ATTReadMultipleRequest(setOfHandles: [1])
        }
        #expect(throws: ATTEncodingError.self) { try ATTReadMultipleVariableRequest(setOfHandles: []) }

        let truncatedLast = try ATTReadMultipleVariableResponse(tuples: [
            .init(attributeValue: [1, 2]), .init(valueLength: 300, includedValue: [3, 4, 5]),
        ])
        #expect(try expectRoundTrip(truncatedLast) == hex("21 0200 0102 2c01 030405"))
        // Only the last tuple may be truncated.
        #expect(throws: ATTEncodingError.self) {
            try ATTReadMultipleVariableResponse(tuples: [.init(valueLength: 5, includedValue: [1]), .init(attributeValue: [2])])
        }
        // A tuple cannot carry more than its Value Length.
        #expect(throws: ATTEncodingError.self) {
            try ATTReadMultipleVariableResponse(tuples: [.init(valueLength: 1, includedValue: [1, 2, 3])])
        }
        // Fewer than 4 octets.
        #expect(throws: ATTEncodingError.self) { try ATTReadMultipleVariableResponse(tuples: [.init(attributeValue: [1])]) }
        #expect(throws: ATTEncodingError.self) { try ATTReadMultipleVariableResponse(tuples: []) }
        // A value too long for Value Length.
        #expect(throws: ATTEncodingError.self) {
            try ATTReadMultipleVariableResponse(tuples: [.init(attributeValue: Array(repeating: 0, count: 65536))])
        }
    }

    @Test("malformed Set Of Handles: fewer than two handles, odd length")
    func malformedRequests() {
        checkSetOfHandles(ATTReadMultipleRequest.self)
        checkSetOfHandles(ATTReadMultipleVariableRequest.self)
    }

    private func checkSetOfHandles<P: ATTPDUCodable>(_ p: P.Type, sourceLocation: SourceLocation = #_sourceLocation) {
        let op = P.opcode.rawValue
        expectDecodingError(p, [op], short("Set Of Handles", at: 1, needs: 4, has: 0), sourceLocation: sourceLocation)
        expectDecodingError(p, [op, 0x03, 0x00], short("Set Of Handles", at: 1, needs: 4, has: 2), sourceLocation: sourceLocation)
        expectDecodingError(p, [op, 0x03, 0x00, 0x05], short("Set Of Handles", at: 1, needs: 4, has: 3), sourceLocation: sourceLocation)
        expectDecodingError(p, [op, 0x03, 0x00, 0x05, 0x00, 0x07], .invalidValue(
            field: "Set Of Handles", offset: 1, reason: "5 octets do not divide into 2-octet attribute handles"),
            sourceLocation: sourceLocation)
    }

    @Test("malformed Length Value Tuple List: under 4 octets, a split Value Length field")
    func malformedVariableResponse() {
        let R = ATTReadMultipleVariableResponse.self
        expectDecodingError(R, hex("21"), short("Length Value Tuple List", at: 1, needs: 4, has: 0))
        expectDecodingError(R, hex("21 0100 64"), short("Length Value Tuple List", at: 1, needs: 4, has: 3))
        // The list is cut at the start of a tuple, never inside its Value Length (3.4.4.12).
        expectDecodingError(R, hex("21 0100 64 00"), short("Value Length", at: 4, needs: 2, has: 1))
        expectDecodingError(R, hex("21 0200 c103 0100 64 02"), short("Value Length", at: 8, needs: 2, has: 1))
    }
}
