import BLECore

/// The PDUs the Attribute Protocol defines (Core v5.4, Vol 3, Part F, 3.4.8, Table 3.43), by
/// opcode, made from their declarations: the one list of PDU types in the stack. ``ATTPDU``
/// decodes through it, and ``ATTOpcode`` takes its names, kinds and pairs from it.
enum ATTPDURegistry {
    /// What ``ATTOpcode`` needs of one declaration.
    struct Entry: Sendable {
        let opcode: ATTOpcode
        let name: String
        let pduName: String
        let kind: ATTPDUKind
        let response: ATTOpcode?

        init<PDU: ATTPDUBody>(_ type: PDU.Type) {
            let declaration = PDU.declaration
            opcode = declaration.opcode
            name = declaration.name
            pduName = declaration.pduName
            kind = declaration.kind
            response = declaration.response
        }
    }

    /// Every defined PDU, in opcode order.
    static let declared: [any ATTPDUBody.Type] = [
        ATTErrorResponse.self,
        ATTExchangeMTURequest.self, ATTExchangeMTUResponse.self,
        ATTFindInformationRequest.self, ATTFindInformationResponse.self,
        ATTFindByTypeValueRequest.self, ATTFindByTypeValueResponse.self,
        ATTReadByTypeRequest.self, ATTReadByTypeResponse.self,
        ATTReadRequest.self, ATTReadResponse.self, ATTReadBlobRequest.self, ATTReadBlobResponse.self,
        ATTReadMultipleRequest.self, ATTReadMultipleResponse.self,
        ATTReadByGroupTypeRequest.self, ATTReadByGroupTypeResponse.self,
        ATTWriteRequest.self, ATTWriteResponse.self,
        ATTPrepareWriteRequest.self, ATTPrepareWriteResponse.self,
        ATTExecuteWriteRequest.self, ATTExecuteWriteResponse.self,
        ATTHandleValueNotification.self, ATTHandleValueIndication.self, ATTHandleValueConfirmation.self,
        ATTReadMultipleVariableRequest.self, ATTReadMultipleVariableResponse.self,
        ATTMultipleHandleValueNotification.self,
        ATTWriteCommand.self, ATTSignedWriteCommand.self,
    ]

    /// The PDU types by opcode octet; nil for an opcode the specification does not define.
    static let bodies: [(any ATTPDUBody.Type)?] = {
        var table = [(any ATTPDUBody.Type)?](repeating: nil, count: 256)
        for body in declared { table[Int(body.opcode.rawValue)] = body }
        return table
    }()

    /// The declarations by opcode octet; nil for an opcode the specification does not define.
    static let entries: [Entry?] = bodies.map { $0.map { Entry($0) } }

    /// The kinds by opcode octet; nil for an opcode the specification does not define.
    static let kinds: [ATTPDUKind?] = entries.map { $0?.kind }

    /// The request (or indication) each response (or confirmation) answers, by its opcode octet:
    /// the declarations' pairs read backwards.
    static let answeredRequests: [ATTOpcode?] = {
        var table = [ATTOpcode?](repeating: nil, count: 256)
        for case let entry? in entries {
            if let response = entry.response { table[Int(response.rawValue)] = entry.opcode }
        }
        return table
    }()
}
