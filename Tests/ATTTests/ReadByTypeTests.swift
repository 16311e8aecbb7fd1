import Testing
import BLECore
@testable import ATT

@Suite("ATT_READ_BY_TYPE_REQ / ATT_READ_BY_TYPE_RSP (3.4.4.1, 3.4.4.2)")
struct ReadByTypeTests {
    @Test("fixture: characteristic discovery request, 16-bit type")
    func request16() throws {
        // Read By Type Request (0x08)
        //   Starting Handle: 0x0001
        //   Ending Handle: 0xffff
        //   Attribute Type: 2803 (Characteristic)
        let pdu = try expectRoundTrip(ATTReadByTypeRequest.self, hex("08 0100 ffff 0328"))
        #expect(pdu.startingHandle == 0x0001)
        #expect(pdu.endingHandle == 0xFFFF)
        #expect(pdu.attributeType == BluetoothUUID(0x2803))
        #expect(pdu.attributeType.width == .bits16)
        #expect(pdu.description == "Read By Type Request 0x0001..0xffff type 2803 (Characteristic)")
        #expect(pdu.fields == [ATTField("starting_handle", .integer(1)), ATTField("ending_handle", .integer(0xFFFF)),
                               ATTField("type", .uuid(BluetoothUUID(0x2803)))])
    }

    @Test("fixture: read by characteristic UUID, 128-bit type")
    func request128() throws {
        // Read By Type Request (0x08)
        //   Starting Handle: 0x000e
        //   Ending Handle: 0x0010
        //   Attribute Type: 6E400003-B5A3-F393-E0A9-E50E24DCCA9E (least significant octet first)
        let pdu = try expectRoundTrip(ATTReadByTypeRequest.self, hex("08 0e00 1000 9ecadc240ee5a9e093f3a3b50300406e"))
        #expect(pdu.startingHandle == 0x000E)
        #expect(pdu.endingHandle == 0x0010)
        #expect(pdu.attributeType == BluetoothUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E"))
        #expect(pdu.attributeType.width == .bits128)
    }

    @Test("a 32-bit UUID is sent in its 128-bit form")
    func uuid32() throws {
        let pdu = ATTReadByTypeRequest(startingHandle: 1, endingHandle: 2, attributeType: BluetoothUUID(uuid32: 0x1234_5678))
        let bytes = try expectRoundTrip(pdu)
        #expect(bytes == hex("08 0100 0200 fb349b5f80000080 0010000078563412"))
    }

    @Test("fixture: response with two characteristic declarations")
    func response() throws {
        // Read By Type Response (0x09)
        //   Length: 7 (handle 2 + value 5)
        //   Handle 0x0002: 02 0300 002a  (Read; value handle 0x0003; 2A00 Device Name)
        //   Handle 0x0004: 02 0500 012a  (Read; value handle 0x0005; 2A01 Appearance)
        let pdu = try expectRoundTrip(ATTReadByTypeResponse.self, hex("09 07  0200 020300002a  0400 020500012a"))
        #expect(pdu.length == 7)
        #expect(pdu.attributeData.count == 2)
        #expect(pdu.attributeData[0].handle == 0x0002)
        #expect(pdu.attributeData[0].value == hex("02 0300 002a"))
        #expect(pdu.attributeData[1].handle == 0x0004)
        #expect(pdu.attributeData[1].value == hex("02 0500 012a"))
        #expect(pdu.description == "Read By Type Response 0x0002: 020300002a, 0x0004: 020500012a")
    }

    @Test("fixture: response with empty values (Length 2)")
    func emptyValues() throws {
        // Read By Type Response (0x09), Length 2: handle 0x0009 with an empty value
        let pdu = try expectRoundTrip(ATTReadByTypeResponse.self, hex("09 02 0900"))
        #expect(pdu.length == 2)
        #expect(pdu.attributeData == [.init(handle: 9, value: [])])
    }

    @Test("built values: lengths must agree and fit; the list must not be empty")
    func built() throws {
        let ok = try ATTReadByTypeResponse(attributeData: [.init(handle: 3, value: [0x64])])
        #expect(try expectRoundTrip(ok) == hex("09 03 0300 64"))
        let longest = try ATTReadByTypeResponse(attributeData: [.init(handle: 3, value: Array(repeating: 0xAB, count: 253))])
        #expect(longest.length == 255)
        #expect(try expectRoundTrip(longest).count == 257)
        #expect(throws: ATTEncodingError.self) { try ATTReadByTypeResponse(attributeData: []) }
        #expect(throws: ATTEncodingError.self) {
            try ATTReadByTypeResponse(attributeData: [.init(handle: 3, value: Array(repeating: 0, count: 254))])
        }
        let mixed = try #require(throws: ATTEncodingError.self) {
            try ATTReadByTypeResponse(attributeData: [.init(handle: 3, value: [1]), .init(handle: 5, value: [1, 2])])
        }
        #expect(mixed.field == "Attribute Data List")
        #expect(mixed.opcode == .readByTypeResponse)
    }

    @Test("malformed request: truncation, Attribute Type neither 2 nor 16 octets")
    func malformedRequest() {
        let Q = ATTReadByTypeRequest.self
        expectDecodingError(Q, hex("08 01"), short("Starting Handle", at: 1, needs: 2, has: 1))
        expectDecodingError(Q, hex("08 0100"), short("Ending Handle", at: 3, needs: 2, has: 0))
        expectDecodingError(Q, hex("08 0100 ffff"), short("Attribute Type", at: 5, needs: 2, has: 0))
        expectDecodingError(Q, hex("08 0100 ffff 03"), short("Attribute Type", at: 5, needs: 2, has: 1))
        let reason = { (n: Int) in "\(n) octets; a 16-bit (2-octet) or 128-bit (16-octet) UUID is required" }
        expectDecodingError(Q, hex("08 0100 ffff 0328 00"), .invalidValue(field: "Attribute Type", offset: 5, reason: reason(3)))
        // A 32-bit UUID is not allowed on ATT.
        expectDecodingError(Q, hex("08 0100 ffff 78563412"), .invalidValue(field: "Attribute Type", offset: 5, reason: reason(4)))
        expectDecodingError(Q, hex("08 0100 ffff 9ecadc240ee5a9e093f3a3b50300406e 00"),
                            .invalidValue(field: "Attribute Type", offset: 5, reason: reason(17)))
    }

    @Test("malformed response: Length below 2, no pair, Length not dividing the list")
    func malformedResponse() {
        let R = ATTReadByTypeResponse.self
        expectDecodingError(R, hex("09"), short("Length", at: 1, needs: 1, has: 0))
        expectDecodingError(R, hex("09 00"), .invalidValue(field: "Length", offset: 1,
                                                             reason: "0 is less than 2, the size of the Attribute Handle"))
        expectDecodingError(R, hex("09 01 0200"), .invalidValue(field: "Length", offset: 1,
                                                                  reason: "1 is less than 2, the size of the Attribute Handle"))
        expectDecodingError(R, hex("09 07"), short("Attribute Data List", at: 2, needs: 7, has: 0))
        expectDecodingError(R, hex("09 07 0200 0203"), short("Attribute Data List", at: 2, needs: 7, has: 4))
        expectDecodingError(R, hex("09 07 0200 020300002a 0400 02"), .invalidValue(
            field: "Attribute Data List", offset: 2, reason: "10 octets do not divide into 7-octet Attribute Data"))
    }
}

@Suite("ATT_READ_BY_GROUP_TYPE_REQ / ATT_READ_BY_GROUP_TYPE_RSP (3.4.4.9, 3.4.4.10)")
struct ReadByGroupTypeTests {
    @Test("fixture: primary service discovery request")
    func request() throws {
        // Read By Group Type Request (0x10)
        //   Starting Handle: 0x0001
        //   Ending Handle: 0xffff
        //   Attribute Group Type: 2800 (Primary Service)
        let pdu = try expectRoundTrip(ATTReadByGroupTypeRequest.self, hex("10 0100 ffff 0028"))
        #expect(pdu.startingHandle == 0x0001)
        #expect(pdu.endingHandle == 0xFFFF)
        #expect(pdu.attributeGroupType == BluetoothUUID(0x2800))
        #expect(pdu.description == "Read By Group Type Request 0x0001..0xffff type 2800 (Primary Service)")
    }

    @Test("fixture: three 16-bit services")
    func response16() throws {
        // Read By Group Type Response (0x11)
        //   Length: 6 (handle 2 + end group handle 2 + value 2)
        //   0x0001..0x0005: 0018 (service 1800 GAP)
        //   0x0006..0x0009: 0118 (service 1801 GATT)
        //   0x000a..0x000e: 0d18 (service 180D Heart Rate)
        let pdu = try expectRoundTrip(ATTReadByGroupTypeResponse.self,
                                      hex("11 06  0100 0500 0018  0600 0900 0118  0a00 0e00 0d18"))
        #expect(pdu.length == 6)
        #expect(pdu.attributeData.count == 3)
        #expect(pdu.attributeData[0].handle == 0x0001)
        #expect(pdu.attributeData[0].endGroupHandle == 0x0005)
        #expect(pdu.attributeData[0].value == [0x00, 0x18])
        #expect(pdu.attributeData[1].handle == 0x0006)
        #expect(pdu.attributeData[1].endGroupHandle == 0x0009)
        #expect(pdu.attributeData[1].value == [0x01, 0x18])
        #expect(pdu.attributeData[2].handle == 0x000A)
        #expect(pdu.attributeData[2].endGroupHandle == 0x000E)
        #expect(pdu.attributeData[2].value == [0x0D, 0x18])
        #expect(pdu.description == "Read By Group Type Response 0x0001..0x0005: 0018, 0x0006..0x0009: 0118, 0x000a..0x000e: 0d18")
    }

    @Test("fixture: one 128-bit service")
    func response128() throws {
        // Read By Group Type Response (0x11)
        //   Length: 20 (0x14)
        //   0x000c..0xffff: 9ecadc240ee5a9e093f3a3b50100406e (6E400001-B5A3-F393-E0A9-E50E24DCCA9E)
        let pdu = try expectRoundTrip(ATTReadByGroupTypeResponse.self, hex("11 14 0c00 ffff 9ecadc240ee5a9e093f3a3b50100406e"))
        #expect(pdu.length == 20)
        #expect(pdu.attributeData.count == 1)
        #expect(pdu.attributeData[0].handle == 0x000C)
        #expect(pdu.attributeData[0].endGroupHandle == 0xFFFF)
        #expect(pdu.attributeData[0].value == hex("9ecadc240ee5a9e093f3a3b50100406e"))
    }

    @Test("built values and their limits")
    func built() throws {
        let request = ATTReadByGroupTypeRequest(startingHandle: 0x10, endingHandle: 0xFFFF, attributeGroupType: BluetoothUUID(0x2801))
        #expect(try expectRoundTrip(request) == hex("10 1000 ffff 0128"))
        let response = try ATTReadByGroupTypeResponse(attributeData: [.init(handle: 1, endGroupHandle: 5, value: [0x00, 0x18])])
        #expect(try expectRoundTrip(response) == hex("11 06 0100 0500 0018"))
        let longest = try ATTReadByGroupTypeResponse(attributeData: [.init(handle: 1, endGroupHandle: 2, value: Array(repeating: 7, count: 251))])
        #expect(longest.length == 255)
        #expect(throws: ATTEncodingError.self) {
            try ATTReadByGroupTypeResponse(attributeData: [.init(handle: 1, endGroupHandle: 2, value: Array(repeating: 7, count: 252))])
        }
        #expect(throws: ATTEncodingError.self) { try ATTReadByGroupTypeResponse(attributeData: []) }
        #expect(throws: ATTEncodingError.self) {
            try ATTReadByGroupTypeResponse(attributeData: [.init(handle: 1, endGroupHandle: 2, value: [1, 2]),
                                                          .init(handle: 3, endGroupHandle: 4, value: [1])])
        }
    }

    @Test("malformed: Length below 4, no entry, Length not dividing the list, bad group type")
    func malformed() {
        let Q = ATTReadByGroupTypeRequest.self
        expectDecodingError(Q, hex("10 0100 ffff"), short("Attribute Group Type", at: 5, needs: 2, has: 0))
        expectDecodingError(Q, hex("10 0100 ffff 002800"), .invalidValue(
            field: "Attribute Group Type", offset: 5, reason: "3 octets; a 16-bit (2-octet) or 128-bit (16-octet) UUID is required"))
        let R = ATTReadByGroupTypeResponse.self
        expectDecodingError(R, hex("11"), short("Length", at: 1, needs: 1, has: 0))
        expectDecodingError(R, hex("11 03 010005"), .invalidValue(
            field: "Length", offset: 1, reason: "3 is less than 4, the size of the Attribute Handle and End Group Handle"))
        expectDecodingError(R, hex("11 06"), short("Attribute Data List", at: 2, needs: 6, has: 0))
        expectDecodingError(R, hex("11 06 0100 0500 00"), short("Attribute Data List", at: 2, needs: 6, has: 5))
        expectDecodingError(R, hex("11 06 0100 0500 0018 0600"), .invalidValue(
            field: "Attribute Data List", offset: 2, reason: "8 octets do not divide into 6-octet Attribute Data"))
    }
}
