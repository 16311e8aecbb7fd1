import Testing
import BLECore
@testable import ATT

@Suite("ATT_FIND_INFORMATION_REQ / ATT_FIND_INFORMATION_RSP (3.4.3.1, 3.4.3.2)")
struct FindInformationTests {
    @Test("fixture: request for descriptors 0x0004...0x0005")
    func request() throws {
        // Find Information Request (0x04)
        //   Starting Handle: 0x0004
        //   Ending Handle: 0x0005
        let pdu = try expectRoundTrip(ATTFindInformationRequest.self, hex("04 0400 0500"))
        #expect(pdu.startingHandle == 0x0004)
        #expect(pdu.endingHandle == 0x0005)
        #expect(pdu.description == "Find Information Request 0x0004..0x0005")
    }

    @Test("fixture: response, format 0x01, two 16-bit UUIDs")
    func response16() throws {
        // Find Information Response (0x05)
        //   Format: 0x01 (handles and 16-bit UUIDs)
        //   Handle 0x0004: 2902 (Client Characteristic Configuration)
        //   Handle 0x0005: 2901 (Characteristic User Description)
        let pdu = try expectRoundTrip(ATTFindInformationResponse.self, hex("05 01  0400 0229  0500 0129"))
        #expect(pdu.format == .uuid16)
        #expect(pdu.information.count == 2)
        #expect(pdu.information[0].handle == 0x0004)
        #expect(pdu.information[0].type == BluetoothUUID(0x2902))
        #expect(pdu.information[0].type.width == .bits16)
        #expect(pdu.information[1].handle == 0x0005)
        #expect(pdu.information[1].type == BluetoothUUID(0x2901))
        #expect(pdu.description == "Find Information Response 16-bit 0x0004 2902 (Client Characteristic Configuration), "
                + "0x0005 2901 (Characteristic User Description)")
    }

    @Test("fixture: response, format 0x02, one 128-bit UUID")
    func response128() throws {
        // Find Information Response (0x05)
        //   Format: 0x02 (handles and 128-bit UUIDs)
        //   Handle 0x000e: 6E400002-B5A3-F393-E0A9-E50E24DCCA9E (sent least significant octet first)
        let bytes = hex("05 02  0e00 9ecadc240ee5a9e093f3a3b50200406e")
        let pdu = try expectRoundTrip(ATTFindInformationResponse.self, bytes)
        #expect(pdu.format == .uuid128)
        #expect(pdu.information.count == 1)
        #expect(pdu.information[0].handle == 0x000E)
        #expect(pdu.information[0].type == BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E"))
        #expect(pdu.information[0].type.width == .bits128)
    }

    @Test("built values: 16-bit format takes short forms; 128-bit format widens them")
    func built() throws {
        let long = try #require(BluetoothUUID("00002902-0000-1000-8000-00805F9B34FB"))
        let short16 = try ATTFindInformationResponse(format: .uuid16, information: [.init(handle: 4, type: long)])
        #expect(try expectRoundTrip(short16) == hex("05 01 0400 0229"))
        let wide = try ATTFindInformationResponse(format: .uuid128, information: [.init(handle: 4, type: BluetoothUUID(0x2902))])
        #expect(try expectRoundTrip(wide) == hex("05 02 0400 fb349b5f80000080 0010000002290000"))
        #expect(try expectRoundTrip(ATTFindInformationRequest(startingHandle: 1, endingHandle: 0xFFFF)) == hex("04 0100 ffff"))
    }

    @Test("building an unencodable response throws ATTEncodingError")
    func encodingErrors() throws {
        #expect(throws: ATTEncodingError(opcode: .findInformationResponse, field: "Information Data",
                                         reason: "needs at least one handle-UUID pair")) {
            try ATTFindInformationResponse(format: .uuid16, information: [])
        }
        let custom = try #require(BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E"))
        let error = try #require(throws: ATTEncodingError.self) {
            try ATTFindInformationResponse(format: .uuid16, information: [.init(handle: 1, type: custom)])
        }
        #expect(error.field == "Information Data")
    }

    @Test("malformed: truncation, bad Format, empty and ragged Information Data, trailing")
    func malformed() {
        expectTruncationsAndTrailing(ATTFindInformationRequest.self, hex("04 0400 0500")) { length in
            length < 3 ? short("Starting Handle", at: 1, needs: 2, has: length - 1)
                       : short("Ending Handle", at: 3, needs: 2, has: length - 3)
        }
        let R = ATTFindInformationResponse.self
        expectDecodingError(R, hex("05"), short("Format", at: 1, needs: 1, has: 0))
        expectDecodingError(R, hex("05 03 0400 0229"), .invalidValue(
            field: "Format", offset: 1, reason: "0x03 is not 0x01 (16-bit UUIDs) or 0x02 (128-bit UUIDs)"))
        expectDecodingError(R, hex("05 00 0400 0229"), .invalidValue(
            field: "Format", offset: 1, reason: "0x00 is not 0x01 (16-bit UUIDs) or 0x02 (128-bit UUIDs)"))
        // No pair at all: the list needs at least one.
        expectDecodingError(R, hex("05 01"), short("Information Data", at: 2, needs: 4, has: 0))
        expectDecodingError(R, hex("05 01 0400 02"), short("Information Data", at: 2, needs: 4, has: 3))
        // One and a half pairs.
        expectDecodingError(R, hex("05 01 0400 0229 0500"), .invalidValue(
            field: "Information Data", offset: 2, reason: "6 octets do not divide into 4-octet handle-UUID pairs"))
        // A 16-bit pair under format 0x02.
        expectDecodingError(R, hex("05 02 0400 0229"), short("Information Data", at: 2, needs: 18, has: 4))
        // A 128-bit pair and two extra octets.
        expectDecodingError(R, hex("05 02 0e00 9ecadc240ee5a9e093f3a3b50200406e 0f00"), .invalidValue(
            field: "Information Data", offset: 2, reason: "20 octets do not divide into 18-octet handle-UUID pairs"))
    }
}

@Suite("ATT_FIND_BY_TYPE_VALUE_REQ / ATT_FIND_BY_TYPE_VALUE_RSP (3.4.3.3, 3.4.3.4)")
struct FindByTypeValueTests {
    @Test("fixture: request for the Heart Rate primary service")
    func request() throws {
        // Find By Type Value Request (0x06)
        //   Starting Handle: 0x0001
        //   Ending Handle: 0xffff
        //   Attribute Type: 2800 (Primary Service)
        //   Attribute Value: 0d18 (the service UUID 180D, Heart Rate, least significant octet first)
        let pdu = try expectRoundTrip(ATTFindByTypeValueRequest.self, hex("06 0100 ffff 0028 0d18"))
        #expect(pdu.startingHandle == 0x0001)
        #expect(pdu.endingHandle == 0xFFFF)
        #expect(pdu.attributeType == 0x2800)
        #expect(pdu.attributeTypeUUID == BluetoothUUID(0x2800))
        #expect(pdu.attributeValue == [0x0D, 0x18])
        #expect(pdu.description == "Find By Type Value Request 0x0001..0xffff type 2800 (Primary Service) value 0d18")
    }

    @Test("fixture: request with an empty Attribute Value")
    func emptyValue() throws {
        // Find By Type Value Request (0x06), 0x0001..0x00ff, type 2800, value (empty)
        let pdu = try expectRoundTrip(ATTFindByTypeValueRequest.self, hex("06 0100 ff00 0028"))
        #expect(pdu.startingHandle == 0x0001)
        #expect(pdu.endingHandle == 0x00FF)
        #expect(pdu.attributeType == 0x2800)
        #expect(pdu.attributeValue.isEmpty)
        #expect(pdu.description.hasSuffix("value (empty)"))
    }

    @Test("fixture: response with two handle ranges")
    func response() throws {
        // Find By Type Value Response (0x07)
        //   Found Attribute Handle 0x0010, Group End Handle 0x0015
        //   Found Attribute Handle 0x0020, Group End Handle 0xffff
        let pdu = try expectRoundTrip(ATTFindByTypeValueResponse.self, hex("07 1000 1500 2000 ffff"))
        #expect(pdu.handlesInformation.count == 2)
        #expect(pdu.handlesInformation[0].foundAttributeHandle == 0x0010)
        #expect(pdu.handlesInformation[0].groupEndHandle == 0x0015)
        #expect(pdu.handlesInformation[1].foundAttributeHandle == 0x0020)
        #expect(pdu.handlesInformation[1].groupEndHandle == 0xFFFF)
        #expect(pdu.description == "Find By Type Value Response 0x0010..0x0015, 0x0020..0xffff")
    }

    @Test("round trip of built values; an empty list cannot be built")
    func roundTrip() throws {
        let request = ATTFindByTypeValueRequest(startingHandle: 1, endingHandle: 0xFFFF, attributeType: 0x2800,
                                                attributeValue: hex("9ecadc240ee5a9e093f3a3b50100406e"))
        #expect(try expectRoundTrip(request).count == 23)
        let response = try ATTFindByTypeValueResponse(handlesInformation: [.init(foundAttributeHandle: 0x0C, groupEndHandle: 0x0C)])
        #expect(try expectRoundTrip(response) == hex("07 0c00 0c00"))
        #expect(throws: ATTEncodingError.self) { try ATTFindByTypeValueResponse(handlesInformation: []) }
    }

    @Test("malformed: truncation, empty and ragged Handles Information List")
    func malformed() {
        let Q = ATTFindByTypeValueRequest.self
        expectDecodingError(Q, hex("06"), short("Starting Handle", at: 1, needs: 2, has: 0))
        expectDecodingError(Q, hex("06 0100 ff"), short("Ending Handle", at: 3, needs: 2, has: 1))
        expectDecodingError(Q, hex("06 0100 ffff"), short("Attribute Type", at: 5, needs: 2, has: 0))
        expectDecodingError(Q, hex("06 0100 ffff 00"), short("Attribute Type", at: 5, needs: 2, has: 1))
        let R = ATTFindByTypeValueResponse.self
        expectDecodingError(R, hex("07"), short("Handles Information List", at: 1, needs: 4, has: 0))
        expectDecodingError(R, hex("07 1000 15"), short("Handles Information List", at: 1, needs: 4, has: 3))
        expectDecodingError(R, hex("07 1000 1500 20"), .invalidValue(
            field: "Handles Information List", offset: 1, reason: "5 octets do not divide into 4-octet Handles Information"))
    }
}
