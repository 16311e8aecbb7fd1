import Testing
import BLECore
@testable import ATT

/// The declaration table itself (Core v5.4, Vol 3, Part F, 3.4.8, Table 3.43; 3.4.9, Table 3.44):
/// one declaration per opcode, pairs that agree with each other, and for one PDU of each type
/// the octets, the handles it names and the field names of its JSON, all from that declaration.
@Suite("ATT PDU declarations (3.4.8, Table 3.43)")
struct ATTPDUDeclarationTests {
    /// Table 3.43 as the specification prints it: opcode, PDU name, kind, and the PDU that
    /// answers it (Table 3.44).
    static let table: [(opcode: UInt8, pduName: String, kind: ATTPDUKind, response: UInt8?)] = [
        (0x01, "ATT_ERROR_RSP", .response, nil),
        (0x02, "ATT_EXCHANGE_MTU_REQ", .request, 0x03), (0x03, "ATT_EXCHANGE_MTU_RSP", .response, nil),
        (0x04, "ATT_FIND_INFORMATION_REQ", .request, 0x05), (0x05, "ATT_FIND_INFORMATION_RSP", .response, nil),
        (0x06, "ATT_FIND_BY_TYPE_VALUE_REQ", .request, 0x07), (0x07, "ATT_FIND_BY_TYPE_VALUE_RSP", .response, nil),
        (0x08, "ATT_READ_BY_TYPE_REQ", .request, 0x09), (0x09, "ATT_READ_BY_TYPE_RSP", .response, nil),
        (0x0A, "ATT_READ_REQ", .request, 0x0B), (0x0B, "ATT_READ_RSP", .response, nil),
        (0x0C, "ATT_READ_BLOB_REQ", .request, 0x0D), (0x0D, "ATT_READ_BLOB_RSP", .response, nil),
        (0x0E, "ATT_READ_MULTIPLE_REQ", .request, 0x0F), (0x0F, "ATT_READ_MULTIPLE_RSP", .response, nil),
        (0x10, "ATT_READ_BY_GROUP_TYPE_REQ", .request, 0x11), (0x11, "ATT_READ_BY_GROUP_TYPE_RSP", .response, nil),
        (0x12, "ATT_WRITE_REQ", .request, 0x13), (0x13, "ATT_WRITE_RSP", .response, nil),
        (0x16, "ATT_PREPARE_WRITE_REQ", .request, 0x17), (0x17, "ATT_PREPARE_WRITE_RSP", .response, nil),
        (0x18, "ATT_EXECUTE_WRITE_REQ", .request, 0x19), (0x19, "ATT_EXECUTE_WRITE_RSP", .response, nil),
        (0x1B, "ATT_HANDLE_VALUE_NTF", .notification, nil),
        (0x1D, "ATT_HANDLE_VALUE_IND", .indication, 0x1E), (0x1E, "ATT_HANDLE_VALUE_CFM", .confirmation, nil),
        (0x20, "ATT_READ_MULTIPLE_VARIABLE_REQ", .request, 0x21), (0x21, "ATT_READ_MULTIPLE_VARIABLE_RSP", .response, nil),
        (0x23, "ATT_MULTIPLE_HANDLE_VALUE_NTF", .notification, nil),
        (0x52, "ATT_WRITE_CMD", .command, nil),
        (0xD2, "ATT_SIGNED_WRITE_CMD", .command, nil),
    ]

    /// One PDU of each type with what its declaration makes of it: the octets, the Attribute
    /// Handles it names (in lists too), its own Attribute Handle, and its JSON field names.
    struct Sample: Sendable, CustomStringConvertible {
        let pdu: ATTPDU
        let octets: String
        let handles: [UInt16]
        let handle: UInt16?
        let keys: [String]
        var description: String { pdu.opcode.description }
    }

    static let samples: [Sample] = {
        let signature = ATTAuthenticationSignature(signCounter: 1, mac: 0x0807_0605_0403_0201)
        // The initializers that validate lists only throw for lists these are not.
        let findByTypeValue = try! ATTFindByTypeValueResponse(handlesInformation: [.init(foundAttributeHandle: 0x0001, groupEndHandle: 0x0005)])
        let information = try! ATTFindInformationResponse(format: .uuid16, information: [.init(handle: 0x0003, type: BluetoothUUID(0x2902))])
        let byType = try! ATTReadByTypeResponse(attributeData: [.init(handle: 0x0002, value: [0x02, 0x03, 0x00, 0x00, 0x2A])])
        let byGroup = try! ATTReadByGroupTypeResponse(attributeData: [.init(handle: 0x0001, endGroupHandle: 0x0005, value: [0x00, 0x18])])
        let multiple = try! ATTReadMultipleRequest(setOfHandles: [0x0003, 0x0005])
        let multipleVariable = try! ATTReadMultipleVariableRequest(setOfHandles: [0x0003, 0x0005])
        let tuples = try! ATTReadMultipleVariableResponse(tuples: [.init(attributeValue: [0x01]), .init(attributeValue: [0x02, 0x03])])
        let notifications = try! ATTMultipleHandleValueNotification(tuples: [.init(handle: 0x0003, value: [0x01]), .init(handle: 0x0005, value: [0x02])])
        return [
            Sample(pdu: .errorResponse(.init(requestOpcodeInError: .readRequest, attributeHandleInError: 0x0003, errorCode: .readNotPermitted)),
                   octets: "01 0a 0300 02", handles: [], handle: nil, keys: ["request_opcode", "request", "handle", "error_code", "error"]),
            Sample(pdu: .exchangeMTURequest(.init(clientRxMTU: 517)), octets: "02 0502", handles: [], handle: nil, keys: ["client_rx_mtu"]),
            Sample(pdu: .exchangeMTUResponse(.init(serverRxMTU: 247)), octets: "03 f700", handles: [], handle: nil, keys: ["server_rx_mtu"]),
            Sample(pdu: .findInformationRequest(.init(startingHandle: 0x0003, endingHandle: 0xFFFF)), octets: "04 0300 ffff",
                   handles: [], handle: nil, keys: ["starting_handle", "ending_handle"]),
            Sample(pdu: .findInformationResponse(information), octets: "05 01 0300 0229", handles: [], handle: nil, keys: ["format", "information"]),
            Sample(pdu: .findByTypeValueRequest(.init(startingHandle: 0x0001, endingHandle: 0xFFFF, attributeType: 0x2800, attributeValue: [0x0D, 0x18])),
                   octets: "06 0100 ffff 0028 0d18", handles: [], handle: nil, keys: ["starting_handle", "ending_handle", "type", "value"]),
            Sample(pdu: .findByTypeValueResponse(findByTypeValue), octets: "07 0100 0500", handles: [], handle: nil, keys: ["handles_information"]),
            Sample(pdu: .readByTypeRequest(.init(startingHandle: 0x0001, endingHandle: 0xFFFF, attributeType: BluetoothUUID(0x2803))),
                   octets: "08 0100 ffff 0328", handles: [], handle: nil, keys: ["starting_handle", "ending_handle", "type"]),
            Sample(pdu: .readByTypeResponse(byType), octets: "09 07 0200 020300002a", handles: [0x0002], handle: nil, keys: ["length", "attribute_data"]),
            Sample(pdu: .readRequest(.init(handle: 0x0003)), octets: "0a 0300", handles: [0x0003], handle: 0x0003, keys: ["handle"]),
            Sample(pdu: .readResponse(.init(value: [0x4C, 0x42])), octets: "0b 4c42", handles: [], handle: nil, keys: ["value"]),
            Sample(pdu: .readBlobRequest(.init(handle: 0x0003, valueOffset: 22)), octets: "0c 0300 1600",
                   handles: [0x0003], handle: 0x0003, keys: ["handle", "offset"]),
            Sample(pdu: .readBlobResponse(.init(partAttributeValue: [0x2D])), octets: "0d 2d", handles: [], handle: nil, keys: ["value"]),
            Sample(pdu: .readMultipleRequest(multiple), octets: "0e 0300 0500", handles: [0x0003, 0x0005], handle: nil, keys: ["handles"]),
            Sample(pdu: .readMultipleResponse(.init(setOfValues: [0x01, 0x02])), octets: "0f 0102", handles: [], handle: nil, keys: ["values"]),
            Sample(pdu: .readByGroupTypeRequest(.init(startingHandle: 0x0001, endingHandle: 0xFFFF, attributeGroupType: BluetoothUUID(0x2800))),
                   octets: "10 0100 ffff 0028", handles: [], handle: nil, keys: ["starting_handle", "ending_handle", "type"]),
            Sample(pdu: .readByGroupTypeResponse(byGroup), octets: "11 06 0100 0500 0018", handles: [0x0001], handle: nil,
                   keys: ["length", "attribute_data"]),
            Sample(pdu: .writeRequest(.init(handle: 0x0012, value: [0x01])), octets: "12 1200 01", handles: [0x0012], handle: 0x0012,
                   keys: ["handle", "value"]),
            Sample(pdu: .writeResponse(.init()), octets: "13", handles: [], handle: nil, keys: []),
            Sample(pdu: .prepareWriteRequest(.init(handle: 0x0012, valueOffset: 18, partAttributeValue: [0x01, 0x02])),
                   octets: "16 1200 1200 0102", handles: [0x0012], handle: 0x0012, keys: ["handle", "offset", "value"]),
            Sample(pdu: .prepareWriteResponse(.init(handle: 0x0012, valueOffset: 18, partAttributeValue: [0x01, 0x02])),
                   octets: "17 1200 1200 0102", handles: [0x0012], handle: 0x0012, keys: ["handle", "offset", "value"]),
            Sample(pdu: .executeWriteRequest(.init(flags: .immediatelyWriteAllPendingPreparedValues)), octets: "18 01",
                   handles: [], handle: nil, keys: ["flags", "action"]),
            Sample(pdu: .executeWriteResponse(.init()), octets: "19", handles: [], handle: nil, keys: []),
            Sample(pdu: .handleValueNotification(.init(handle: 0x0003, value: [0x00, 0x48])), octets: "1b 0300 0048",
                   handles: [0x0003], handle: 0x0003, keys: ["handle", "value"]),
            Sample(pdu: .handleValueIndication(.init(handle: 0x0003, value: [0x01])), octets: "1d 0300 01",
                   handles: [0x0003], handle: 0x0003, keys: ["handle", "value"]),
            Sample(pdu: .handleValueConfirmation(.init()), octets: "1e", handles: [], handle: nil, keys: []),
            Sample(pdu: .readMultipleVariableRequest(multipleVariable), octets: "20 0300 0500", handles: [0x0003, 0x0005], handle: nil,
                   keys: ["handles"]),
            Sample(pdu: .readMultipleVariableResponse(tuples), octets: "21 0100 01 0200 0203", handles: [], handle: nil,
                   keys: ["length_value_tuples"]),
            Sample(pdu: .multipleHandleValueNotification(notifications), octets: "23 0300 0100 01 0500 0100 02",
                   handles: [0x0003, 0x0005], handle: nil, keys: ["handle_length_value_tuples"]),
            Sample(pdu: .writeCommand(.init(handle: 0x0012, value: [0x01])), octets: "52 1200 01", handles: [0x0012], handle: 0x0012,
                   keys: ["handle", "value"]),
            Sample(pdu: .signedWriteCommand(.init(handle: 0x0012, value: [0x01], signature: signature)),
                   octets: "d2 1200 01 01000000 0102030405060708", handles: [0x0012], handle: 0x0012,
                   keys: ["handle", "value", "sign_counter", "mac"]),
        ]
    }()

    @Test("every opcode of Table 3.43 has exactly one declaration, with its name and kind")
    func oneDeclarationPerOpcode() {
        let declared = ATTPDURegistry.declared.map { $0.opcode.rawValue }
        #expect(declared.count == Set(declared).count, "an opcode is declared twice")
        #expect(declared.sorted() == Self.table.map(\.opcode))
        #expect(ATTOpcode.allDefined.map(\.rawValue) == Self.table.map(\.opcode))
        for row in Self.table {
            let opcode = ATTOpcode(rawValue: row.opcode)
            #expect(opcode.isDefined)
            #expect(opcode.pduName == row.pduName)
            #expect(opcode.kind == row.kind, "\(row.pduName)")
        }
        for raw in 0...255 where !Self.table.contains(where: { $0.opcode == UInt8(raw) }) {
            let opcode = ATTOpcode(rawValue: UInt8(raw))
            #expect(!opcode.isDefined)
            #expect(opcode.pduName == nil)
            #expect(ATTPDURegistry.bodies[raw] == nil)
        }
    }

    @Test("each declaration's paired response is the response's opcode, and the response answers it back")
    func pairedResponses() {
        for row in Self.table {
            let opcode = ATTOpcode(rawValue: row.opcode)
            #expect(opcode.successfulResponse?.rawValue == row.response, "\(row.pduName)")
            if let response = row.response {
                let answer = ATTOpcode(rawValue: response)
                #expect(answer.answeredRequest == opcode)
                #expect(answer.kind == (row.kind == .indication ? .confirmation : .response))
            } else {
                #expect(row.kind != .request && row.kind != .indication, "\(row.pduName) is never answered")
            }
        }
        // Every response but ATT_ERROR_RSP, and the confirmation, answers exactly one PDU.
        for row in Self.table where row.kind == .response || row.kind == .confirmation {
            let answered = Self.table.filter { $0.response == row.opcode }
            #expect(answered.count == (row.opcode == 0x01 ? 0 : 1), "\(row.pduName)")
        }
    }

    @Test("a PDU type's declaration names its own opcode and wraps it in its own ATTPDU case")
    func declarationsMatchTheirCases() {
        #expect(Self.samples.count == Self.table.count)
        for sample in Self.samples {
            let body = sample.pdu.body
            #expect(body != nil)
            guard let body else { continue }
            let type = Swift.type(of: body)
            #expect(type.opcode == sample.pdu.opcode)
            #expect(body.pdu == sample.pdu)
            #expect(ATTPDURegistry.bodies[Int(type.opcode.rawValue)].map { ObjectIdentifier($0) } == ObjectIdentifier(type))
        }
    }

    @Test("each PDU encodes to its octets and decodes back, through ATTPDU and through its own type", arguments: samples)
    func roundTrip(_ sample: Sample) throws {
        let octets = hex(sample.octets)
        #expect(sample.pdu.encoded == octets)
        #expect(sample.pdu.encodedLength == octets.count)
        #expect(try ATTPDU.decode(octets) == sample.pdu)
        let body = try #require(sample.pdu.body)
        #expect(body.encoded == octets)
        let type = Swift.type(of: body)
        #expect(try type.init(decoding: octets).pdu == sample.pdu)
        #expect(sample.pdu.description.hasPrefix(sample.pdu.opcode.name))
    }

    @Test("each PDU names the Attribute Handles its declaration marks, in lists and outside them", arguments: samples)
    func handles(_ sample: Sample) {
        #expect(sample.pdu.attributeHandles == sample.handles)
        #expect(sample.pdu.attributeHandle == sample.handle)
        #expect(sample.pdu.body?.attributeHandles == sample.handles)
    }

    @Test("each parameter has one JSON name, the one the summary prints", arguments: samples)
    func fieldNames(_ sample: Sample) {
        #expect(sample.pdu.fields.map(\.name) == sample.keys)
    }

    @Test("an undefined opcode has no declaration: it decodes raw, names no handles and is named by its flags")
    func undefinedOpcode() throws {
        let pdu = try ATTPDU.decode(hex("3f 0102"))
        #expect(pdu == .unknown(opcode: ATTOpcode(rawValue: 0x3F), parameters: [0x01, 0x02]))
        #expect(pdu.attributeHandles.isEmpty)
        #expect(pdu.attributeHandle == nil)
        #expect(pdu.fields == [ATTField("parameters", .octets([0x01, 0x02]))])
        #expect(ATTOpcode(rawValue: 0x7F).kind == .command)
        #expect(ATTOpcode(rawValue: 0x3F).kind == .unknown)
    }
}
