import Testing
@testable import ATT

@Suite("ATTOpcode: bit fields, kinds and names (Vol 3, Part F, 3.3, 3.4.8, 3.4.9)")
struct ATTOpcodeTests {
    @Test("bit fields of 3.3.1: Authentication Signature Flag, Command Flag, Method")
    func bitFields() {
        // 0xD2 = 1 1 010010: signed, command, method 0x12 (write)
        let signed = ATTOpcode.signedWriteCommand
        #expect(signed.hasAuthenticationSignature)
        #expect(signed.isCommand)
        #expect(signed.method == 0x12)
        #expect(signed.authenticationSignatureLength == 12)
        // 0x52 = 0 1 010010: command, method 0x12
        #expect(!ATTOpcode.writeCommand.hasAuthenticationSignature)
        #expect(ATTOpcode.writeCommand.isCommand)
        #expect(ATTOpcode.writeCommand.method == 0x12)
        #expect(ATTOpcode.writeCommand.authenticationSignatureLength == 0)
        // 0x12 = 0 0 010010: the request with the same method
        #expect(!ATTOpcode.writeRequest.isCommand)
        #expect(ATTOpcode.writeRequest.method == ATTOpcode.writeCommand.method)
        #expect(ATTOpcode.multipleHandleValueNotification.method == 0x23)
    }

    @Test("every defined opcode has the kind Table 3.1 gives it by its name's suffix")
    func kinds() throws {
        #expect(ATTOpcode.allDefined.count == 31)
        for opcode in ATTOpcode.allDefined {
            let pduName = try #require(opcode.pduName)
            let expected: ATTPDUKind
            switch pduName.split(separator: "_").last {
            case "REQ": expected = .request
            case "RSP": expected = .response
            case "CMD": expected = .command
            case "NTF": expected = .notification
            case "IND": expected = .indication
            case "CFM": expected = .confirmation
            default: expected = .unknown
            }
            #expect(opcode.kind == expected, "\(pduName)")
            #expect(opcode.kind.description == String(pduName.split(separator: "_").last ?? ""))
            #expect(opcode.isDefined)
        }
    }

    @Test("undefined opcodes: Command Flag set is a command, otherwise unknown (3.3)")
    func unknownKinds() {
        #expect(ATTOpcode(rawValue: 0x7F).kind == .command)
        #expect(ATTOpcode(rawValue: 0x53).kind == .command)
        #expect(ATTOpcode(rawValue: 0xFF).kind == .command)
        #expect(ATTOpcode(rawValue: 0x3F).kind == .unknown)
        #expect(ATTOpcode(rawValue: 0x14).kind == .unknown)
        #expect(ATTOpcode(rawValue: 0x00).kind == .unknown)
        // Signature flag without the command flag: not a shape the spec defines.
        #expect(ATTOpcode(rawValue: 0x92).kind == .unknown)
        #expect(ATTOpcode(rawValue: 0x92).authenticationSignatureLength == 12)
        #expect(!ATTOpcode(rawValue: 0x3F).isDefined)
        #expect(ATTOpcode(rawValue: 0x3F).pduName == nil)
        #expect(ATTOpcode.allDefined.count == (0...255).filter { ATTOpcode(rawValue: UInt8($0)).isDefined }.count)
    }

    @Test("names: descriptive name, Core v5.4 PDU name, description")
    func names() {
        #expect(ATTOpcode.readByGroupTypeRequest.name == "Read By Group Type Request")
        #expect(ATTOpcode.readByGroupTypeRequest.pduName == "ATT_READ_BY_GROUP_TYPE_REQ")
        #expect(ATTOpcode.exchangeMTURequest.description == "Exchange MTU Request (0x02)")
        #expect(ATTOpcode.signedWriteCommand.description == "Signed Write Command (0xd2)")
        #expect(ATTOpcode.multipleHandleValueNotification.pduName == "ATT_MULTIPLE_HANDLE_VALUE_NTF")
        #expect(ATTOpcode(rawValue: 0x3F).name == "Unknown Opcode (0x3f)")
        #expect(ATTOpcode(rawValue: 0x7F).name == "Unknown Command (0x7f)")
        #expect(ATTOpcode(rawValue: 0x7F).description == "Unknown Command (0x7f)")
    }

    @Test("successful responses (Table 3.44) and their inverse")
    func responses() {
        #expect(ATTOpcode.readByTypeRequest.successfulResponse == .readByTypeResponse)
        #expect(ATTOpcode.readMultipleVariableRequest.successfulResponse == .readMultipleVariableResponse)
        #expect(ATTOpcode.handleValueIndication.successfulResponse == .handleValueConfirmation)
        #expect(ATTOpcode.writeCommand.successfulResponse == nil)
        #expect(ATTOpcode.handleValueNotification.successfulResponse == nil)
        #expect(ATTOpcode.errorResponse.answeredRequest == nil)
        for opcode in ATTOpcode.allDefined {
            if opcode.kind == .request || opcode.kind == .indication {
                let response = opcode.successfulResponse
                #expect(response != nil, "\(opcode)")
                #expect(response?.answeredRequest == opcode, "\(opcode)")
            } else {
                #expect(opcode.successfulResponse == nil, "\(opcode)")
            }
        }
    }
}

@Suite("ATTErrorCode (Vol 3, Part F, 3.4.1.1, Table 3.4; Core Specification Supplement, Part B)")
struct ATTErrorCodeTests {
    @Test("every Attribute Protocol code 0x01...0x13 has its name")
    func protocolCodes() {
        let names = [
            "Invalid Handle", "Read Not Permitted", "Write Not Permitted", "Invalid PDU",
            "Insufficient Authentication", "Request Not Supported", "Invalid Offset",
            "Insufficient Authorization", "Prepare Queue Full", "Attribute Not Found",
            "Attribute Not Long", "Encryption Key Size Too Short", "Invalid Attribute Value Length",
            "Unlikely Error", "Insufficient Encryption", "Unsupported Group Type",
            "Insufficient Resources", "Database Out Of Sync", "Value Not Allowed",
        ]
        for (i, name) in names.enumerated() {
            let code = ATTErrorCode(rawValue: UInt8(i + 1))
            #expect(code.name == name)
            #expect(code.category == .attributeProtocol)
            #expect(!code.isReserved)
        }
        #expect(ATTErrorCode.databaseOutOfSync.rawValue == 0x12)
        #expect(ATTErrorCode.valueNotAllowed.rawValue == 0x13)
        #expect(ATTErrorCode.insufficientAuthentication.description == "Insufficient Authentication (0x05)")
    }

    @Test("Application Error range 0x80...0x9F")
    func applicationErrors() {
        #expect(ATTErrorCode(rawValue: 0x80).name == "Application Error")
        #expect(ATTErrorCode(rawValue: 0x9F).category == .application)
        #expect(ATTErrorCode(rawValue: 0x80).description == "Application Error (0x80)")
        #expect(ATTErrorCode.applicationError(0x85) == ATTErrorCode(rawValue: 0x85))
        #expect(ATTErrorCode.applicationError(0xA0) == nil)
        #expect(ATTErrorCode.applicationError(0x7F) == nil)
    }

    @Test("Common Profile and Service Error Codes 0xFC...0xFF")
    func commonProfileCodes() {
        #expect(ATTErrorCode.writeRequestRejected.rawValue == 0xFC)
        #expect(ATTErrorCode.writeRequestRejected.name == "Write Request Rejected")
        #expect(ATTErrorCode.cccdImproperlyConfigured.name == "Client Characteristic Configuration Descriptor Improperly Configured")
        #expect(ATTErrorCode.procedureAlreadyInProgress.name == "Procedure Already in Progress")
        #expect(ATTErrorCode.outOfRange.name == "Out of Range")
        #expect(ATTErrorCode.outOfRange.category == .commonProfileAndService)
    }

    @Test("reserved values keep their raw value and say reserved")
    func reserved() {
        for raw: UInt8 in [0x00, 0x14, 0x7F, 0xA0, 0xDF, 0xE0, 0xFB] {
            let code = ATTErrorCode(rawValue: raw)
            #expect(code.rawValue == raw)
            #expect(code.isReserved)
            #expect(code.name == "Reserved for future use")
        }
        #expect(ATTErrorCode(rawValue: 0x14).description == "Reserved for future use (0x14)")
    }
}
