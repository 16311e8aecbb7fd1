import Testing
import BLECore
@testable import ATT

@Suite("ATTPDU: dispatch, unknown opcodes, errors, descriptions")
struct ATTPDUTests {
    /// One capture-like exchange: MTU exchange, primary service discovery, a read, a CCCD
    /// write and a notification, each PDU with the case it must decode to.
    @Test("a GATT session decodes case by case and re-encodes byte for byte")
    func session() throws {
        let session: [(String, String)] = [
            ("02 0502", "Exchange MTU Request Client Rx MTU 517"),
            ("03 f700", "Exchange MTU Response Server Rx MTU 247"),
            ("10 0100 ffff 0028", "Read By Group Type Request 0x0001..0xffff type 2800 (Primary Service)"),
            ("11 06 0100 0500 0018", "Read By Group Type Response 0x0001..0x0005: 0018"),
            ("10 0600 ffff 0028", "Read By Group Type Request 0x0006..0xffff type 2800 (Primary Service)"),
            ("01 10 0600 0a", "Error Response Read By Group Type Request handle 0x0006: Attribute Not Found (0x0a)"),
            ("08 0100 0500 0328", "Read By Type Request 0x0001..0x0005 type 2803 (Characteristic)"),
            ("09 07 0200 020300002a", "Read By Type Response 0x0002: 020300002a"),
            ("0a 0300", "Read Request handle 0x0003"),
            ("0b 4c696e7578", "Read Response value 4c696e7578"),
            ("12 0d00 0100", "Write Request handle 0x000d value 0100"),
            ("13", "Write Response"),
            ("1b 0c00 0648", "Handle Value Notification handle 0x000c value 0648"),
        ]
        for (text, description) in session {
            let bytes = hex(text)
            let pdu = try ATTPDU.decode(bytes)
            #expect(pdu.description == description)
            #expect(pdu.encoded == bytes)
            #expect(pdu.opcode.rawValue == bytes[0])
            #expect(pdu.kind == pdu.opcode.kind)
        }
        guard case .readByTypeResponse(let r) = try ATTPDU.decode(hex("09 07 0200 020300002a")) else {
            Issue.record("wrong case"); return
        }
        #expect(r.attributeData.first?.handle == 0x0002)
    }

    @Test("every defined opcode decodes to its own case")
    func everyOpcode() throws {
        // The shortest well-formed PDU for each opcode.
        let shortest: [UInt8: String] = [
            0x01: "01 00 0000 00", 0x02: "02 1700", 0x03: "03 1700", 0x04: "04 0100 ffff", 0x05: "05 01 0100 0028",
            0x06: "06 0100 ffff 0028", 0x07: "07 0100 0100", 0x08: "08 0100 ffff 0328", 0x09: "09 02 0100",
            0x0A: "0a 0100", 0x0B: "0b", 0x0C: "0c 0100 0000", 0x0D: "0d", 0x0E: "0e 0100 0200", 0x0F: "0f",
            0x10: "10 0100 ffff 0028", 0x11: "11 04 0100 0200", 0x12: "12 0100", 0x13: "13",
            0x16: "16 0100 0000", 0x17: "17 0100 0000", 0x18: "18 00", 0x19: "19", 0x1B: "1b 0100",
            0x1D: "1d 0100", 0x1E: "1e", 0x20: "20 0100 0200", 0x21: "21 0000 0000",
            0x23: "23 0100 0000 0200 0000", 0x52: "52 0100", 0xD2: "d2 0100 000000000000000000000000",
        ]
        #expect(shortest.count == ATTOpcode.allDefined.count)
        for opcode in ATTOpcode.allDefined {
            let bytes = hex(shortest[opcode.rawValue] ?? "")
            let pdu = try ATTPDU.decode(bytes)
            #expect(pdu.opcode == opcode)
            let body = try #require(pdu.body, "\(opcode) decoded as unknown")
            #expect(type(of: body).opcode == opcode)
            #expect(pdu.encoded == bytes)
            #expect(pdu.description.hasPrefix(opcode.name))
        }
    }

    @Test("undefined opcodes are kept raw, not errors (3.3)")
    func unknownOpcodes() throws {
        // Opcode 0x3f, not defined; parameters 0102 kept.
        let request = try ATTPDU.decode(hex("3f 0102"))
        #expect(request == .unknown(opcode: ATTOpcode(rawValue: 0x3F), parameters: [0x01, 0x02]))
        #expect(request.kind == .unknown)
        #expect(request.body == nil)
        #expect(request.encoded == hex("3f 0102"))
        #expect(request.description == "Unknown Opcode (0x3f) parameters 0102")
        #expect(request.fields == [ATTField("parameters", .octets([0x01, 0x02]))])

        // Opcode 0x7f: Command Flag set, so a command the server ignores.
        let command = try ATTPDU.decode(hex("7f"))
        #expect(command == .unknown(opcode: ATTOpcode(rawValue: 0x7F), parameters: []))
        #expect(command.kind == .command)
        #expect(command.description == "Unknown Command (0x7f)")

        // 0x14, 0x15, 0x1a, 0x1c, 0x1f, 0x22 are gaps in the opcode table.
        for raw: UInt8 in [0x00, 0x14, 0x15, 0x1A, 0x1C, 0x1F, 0x22, 0x24, 0x92, 0xFF] {
            let pdu = try ATTPDU.decode([raw, 0xAA])
            #expect(pdu == .unknown(opcode: ATTOpcode(rawValue: raw), parameters: [0xAA]))
        }
    }

    @Test("an empty PDU is an error with no opcode")
    func empty() {
        #expect(throws: ATTDecodingError.emptyPDU) { try ATTPDU.decode([]) }
        #expect(throws: ATTDecodingError.emptyPDU) { try ATTReadRequest(decoding: []) }
        #expect(ATTDecodingError.emptyPDU.opcode == nil)
        #expect(ATTDecodingError.emptyPDU.description == "ATT PDU: Attribute Opcode at offset 0 needs 1 octet, 0 available")
    }

    @Test("decoding a PDU as the wrong type names the opcode")
    func wrongOpcode() {
        let error = ATTDecodingError(opcode: .readResponse, decodingError: .invalidValue(
            field: "Attribute Opcode", offset: 0, reason: "expected Read Request (0x0a)"))
        #expect(throws: error) { try ATTReadRequest(decoding: hex("0b 0300")) }
        #expect(error.description == "Read Response (0x0b): Attribute Opcode at offset 0: expected Read Request (0x0a)")
    }

    @Test("offsets count from the opcode even inside a larger buffer")
    func sliceOffsets() throws {
        // An L2CAP B-frame: length 0x0001, CID 0x0004, then ATT 02 (Exchange MTU Request, no MTU).
        let frame = hex("0100 0400 02")
        let error = try #require(throws: ATTDecodingError.self) { try ATTPDU.decode(frame[4...]) }
        #expect(error.decodingError == .truncated(field: "Client Rx MTU", offset: 1, needed: 2, available: 0))
        // And a well-formed PDU in a slice decodes and re-encodes.
        let good = hex("0700 0400 12 0d00 0100")
        #expect(try ATTPDU.decode(good[4...]).encoded == Array(good[4...]))
    }

    @Test("the decoding error carries what a server needs for Invalid PDU")
    func errorForServer() throws {
        let error = try #require(throws: ATTDecodingError.self) { try ATTPDU.decode(hex("0a 03")) }
        #expect(error.opcode == .readRequest)
        #expect(error.opcode?.kind == .request)
        let answer = ATTErrorResponse(requestOpcodeInError: try #require(error.opcode), attributeHandleInError: 0,
                                      errorCode: .invalidPDU)
        #expect(answer.encoded == hex("01 0a 0000 04"))
        #expect(ATTDecodingError(opcode: .writeResponse, decodingError: .unexpectedTrailingOctets(offset: 1, count: 2)).field == nil)
    }

    @Test("field values print compactly")
    func fieldText() {
        let list = ATTFieldValue.list([[ATTField("handle", .integer(3)), ATTField("value", .octets([0xAB]))]])
        #expect(list.description == "[{handle=3 value=ab}]")
        #expect(ATTFieldValue.uuid(BluetoothUUID(0x2A37)).description == "2A37")
        #expect(ATTFieldValue.text("x").description == "x")
    }
}
