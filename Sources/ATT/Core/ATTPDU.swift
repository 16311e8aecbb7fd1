import BLECore

/// Any ATT PDU (Core v5.4, Vol 3, Part F, 3.4): one case per PDU the specification defines,
/// and ``unknown(opcode:parameters:)`` for any other opcode.
///
/// ```swift
/// let pdu = try ATTPDU.decode([0x12, 0x12, 0x00, 0x01])
/// pdu.description   // "Write Request handle 0x0012 value 01"
/// pdu.encoded       // [0x12, 0x12, 0x00, 0x01]
/// ```
///
/// Decoding is strict for the defined PDUs: wrong lengths, malformed lists and trailing
/// octets throw ``ATTDecodingError`` with the field and its offset from the opcode. An
/// undefined opcode is not an error (a server answers an unknown request with Request Not
/// Supported and ignores an unknown command, 3.3): it decodes to ``unknown(opcode:parameters:)``
/// with every octet after the opcode kept.
public enum ATTPDU: Hashable, Sendable {
    /// 0x01 ATT_ERROR_RSP.
    case errorResponse(ATTErrorResponse)
    /// 0x02 ATT_EXCHANGE_MTU_REQ.
    case exchangeMTURequest(ATTExchangeMTURequest)
    /// 0x03 ATT_EXCHANGE_MTU_RSP.
    case exchangeMTUResponse(ATTExchangeMTUResponse)
    /// 0x04 ATT_FIND_INFORMATION_REQ.
    case findInformationRequest(ATTFindInformationRequest)
    /// 0x05 ATT_FIND_INFORMATION_RSP.
    case findInformationResponse(ATTFindInformationResponse)
    /// 0x06 ATT_FIND_BY_TYPE_VALUE_REQ.
    case findByTypeValueRequest(ATTFindByTypeValueRequest)
    /// 0x07 ATT_FIND_BY_TYPE_VALUE_RSP.
    case findByTypeValueResponse(ATTFindByTypeValueResponse)
    /// 0x08 ATT_READ_BY_TYPE_REQ.
    case readByTypeRequest(ATTReadByTypeRequest)
    /// 0x09 ATT_READ_BY_TYPE_RSP.
    case readByTypeResponse(ATTReadByTypeResponse)
    /// 0x0A ATT_READ_REQ.
    case readRequest(ATTReadRequest)
    /// 0x0B ATT_READ_RSP.
    case readResponse(ATTReadResponse)
    /// 0x0C ATT_READ_BLOB_REQ.
    case readBlobRequest(ATTReadBlobRequest)
    /// 0x0D ATT_READ_BLOB_RSP.
    case readBlobResponse(ATTReadBlobResponse)
    /// 0x0E ATT_READ_MULTIPLE_REQ.
    case readMultipleRequest(ATTReadMultipleRequest)
    /// 0x0F ATT_READ_MULTIPLE_RSP.
    case readMultipleResponse(ATTReadMultipleResponse)
    /// 0x10 ATT_READ_BY_GROUP_TYPE_REQ.
    case readByGroupTypeRequest(ATTReadByGroupTypeRequest)
    /// 0x11 ATT_READ_BY_GROUP_TYPE_RSP.
    case readByGroupTypeResponse(ATTReadByGroupTypeResponse)
    /// 0x12 ATT_WRITE_REQ.
    case writeRequest(ATTWriteRequest)
    /// 0x13 ATT_WRITE_RSP.
    case writeResponse(ATTWriteResponse)
    /// 0x16 ATT_PREPARE_WRITE_REQ.
    case prepareWriteRequest(ATTPrepareWriteRequest)
    /// 0x17 ATT_PREPARE_WRITE_RSP.
    case prepareWriteResponse(ATTPrepareWriteResponse)
    /// 0x18 ATT_EXECUTE_WRITE_REQ.
    case executeWriteRequest(ATTExecuteWriteRequest)
    /// 0x19 ATT_EXECUTE_WRITE_RSP.
    case executeWriteResponse(ATTExecuteWriteResponse)
    /// 0x1B ATT_HANDLE_VALUE_NTF.
    case handleValueNotification(ATTHandleValueNotification)
    /// 0x1D ATT_HANDLE_VALUE_IND.
    case handleValueIndication(ATTHandleValueIndication)
    /// 0x1E ATT_HANDLE_VALUE_CFM.
    case handleValueConfirmation(ATTHandleValueConfirmation)
    /// 0x20 ATT_READ_MULTIPLE_VARIABLE_REQ.
    case readMultipleVariableRequest(ATTReadMultipleVariableRequest)
    /// 0x21 ATT_READ_MULTIPLE_VARIABLE_RSP.
    case readMultipleVariableResponse(ATTReadMultipleVariableResponse)
    /// 0x23 ATT_MULTIPLE_HANDLE_VALUE_NTF.
    case multipleHandleValueNotification(ATTMultipleHandleValueNotification)
    /// 0x52 ATT_WRITE_CMD.
    case writeCommand(ATTWriteCommand)
    /// 0xD2 ATT_SIGNED_WRITE_CMD.
    case signedWriteCommand(ATTSignedWriteCommand)
    /// An opcode the specification does not define, with every octet after it, raw (including
    /// a trailing Authentication Signature if the opcode's flag says there is one). Build it
    /// only with such opcodes: one that is defined encodes fine but decodes to its own case.
    case unknown(opcode: ATTOpcode, parameters: [UInt8])

    // MARK: Decoding

    /// Decodes one ATT PDU: the Attribute Opcode, then that PDU's parameters, which must fill
    /// `bytes` exactly. Offsets in errors count from `bytes.startIndex` (the opcode octet).
    ///
    /// - Throws: ``ATTDecodingError``: ``ATTDecodingError/emptyPDU`` for no octets; otherwise
    ///   the opcode and the field that was short, malformed, or followed by trailing octets.
    ///   Never throws for an opcode the specification does not define.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(ATTDecodingError) -> ATTPDU {
        var decoder = ATTFieldDecoder(reader: ByteReader(bytes))
        guard let raw = decoder.reader.peekUInt8() else { throw .emptyPDU }
        do throws(BLEDecodingError) {
            try decoder.reader.skip(1, "Attribute Opcode")
            let pdu: ATTPDU
            if let body = ATTPDURegistry.bodies[Int(raw)] {
                pdu = try body.decodePDU(from: &decoder)
            } else {
                pdu = .unknown(opcode: ATTOpcode(rawValue: raw), parameters: decoder.reader.readRemaining())
            }
            try decoder.reader.expectEnd()
            return pdu
        } catch {
            throw ATTDecodingError(opcode: ATTOpcode(rawValue: raw), decodingError: error)
        }
    }

    /// Decodes one ATT PDU; see ``decode(_:)-(ArraySlice<UInt8>)``.
    public static func decode(_ bytes: [UInt8]) throws(ATTDecodingError) -> ATTPDU {
        try decode(bytes[...])
    }

    // MARK: Views

    /// The PDU's opcode (for ``unknown(opcode:parameters:)``, the raw one).
    public var opcode: ATTOpcode {
        switch payload {
        case .defined(let body): return Swift.type(of: body).opcode
        case .unknown(let opcode, _): return opcode
        }
    }

    /// The PDU type (request, response, command, ...), from the opcode.
    public var kind: ATTPDUKind { opcode.kind }

    /// The PDU struct inside the case; nil for ``unknown(opcode:parameters:)``.
    public var body: (any ATTPDUCodable)? {
        if case .defined(let body) = payload { return body }
        return nil
    }

    /// The case's contents: a defined PDU's struct, or an unknown opcode and its octets.
    enum Payload {
        /// A PDU the specification defines.
        case defined(any ATTPDUBody)
        /// An undefined opcode and the octets after it.
        case unknown(ATTOpcode, [UInt8])
    }

    var payload: Payload {
        switch self {
        case .errorResponse(let p): return .defined(p)
        case .exchangeMTURequest(let p): return .defined(p)
        case .exchangeMTUResponse(let p): return .defined(p)
        case .findInformationRequest(let p): return .defined(p)
        case .findInformationResponse(let p): return .defined(p)
        case .findByTypeValueRequest(let p): return .defined(p)
        case .findByTypeValueResponse(let p): return .defined(p)
        case .readByTypeRequest(let p): return .defined(p)
        case .readByTypeResponse(let p): return .defined(p)
        case .readRequest(let p): return .defined(p)
        case .readResponse(let p): return .defined(p)
        case .readBlobRequest(let p): return .defined(p)
        case .readBlobResponse(let p): return .defined(p)
        case .readMultipleRequest(let p): return .defined(p)
        case .readMultipleResponse(let p): return .defined(p)
        case .readByGroupTypeRequest(let p): return .defined(p)
        case .readByGroupTypeResponse(let p): return .defined(p)
        case .writeRequest(let p): return .defined(p)
        case .writeResponse(let p): return .defined(p)
        case .prepareWriteRequest(let p): return .defined(p)
        case .prepareWriteResponse(let p): return .defined(p)
        case .executeWriteRequest(let p): return .defined(p)
        case .executeWriteResponse(let p): return .defined(p)
        case .handleValueNotification(let p): return .defined(p)
        case .handleValueIndication(let p): return .defined(p)
        case .handleValueConfirmation(let p): return .defined(p)
        case .readMultipleVariableRequest(let p): return .defined(p)
        case .readMultipleVariableResponse(let p): return .defined(p)
        case .multipleHandleValueNotification(let p): return .defined(p)
        case .writeCommand(let p): return .defined(p)
        case .signedWriteCommand(let p): return .defined(p)
        case .unknown(let opcode, let parameters): return .unknown(opcode, parameters)
        }
    }

    /// The parameters in one line, without the PDU name: "handle 0x0012 value 01"; empty for a
    /// PDU without parameters, and "parameters 0102" for an unknown one with parameters.
    public var parameterSummary: String {
        switch payload {
        case .defined(let body): return body.summary
        case .unknown(_, let parameters): return parameters.isEmpty ? "" : "parameters " + Hex.encode(parameters)
        }
    }

    // MARK: Handles and answers

    /// The Attribute Handles the PDU carries, in order: the attribute it reads, writes or
    /// notifies, and the attributes its lists name (a Set Of Handles, the handles of Attribute
    /// Data, of Handle Length Value Tuples). Range bounds, found and group handles, the handle
    /// of ATT_ERROR_RSP and anything in an unknown PDU are not among them. A client's request
    /// targets these attributes (a server's Database Out Of Sync names the first, Core v5.4,
    /// Vol 3, Part G, 2.5.2.1).
    public var attributeHandles: [UInt16] {
        if case .defined(let body) = payload { return body.attributeHandles(includesLists: true) }
        return []
    }

    /// The PDU's own Attribute Handle, outside any list: the attribute a Read, Read Blob,
    /// Write, Prepare Write, notification or indication names; nil for the others.
    public var attributeHandle: UInt16? {
        if case .defined(let body) = payload { return body.attributeHandles(includesLists: false).first }
        return nil
    }

    /// Whether this PDU answers the request (or indication) `request`: its successful response
    /// (3.4.9, Table 3.44), or ATT_ERROR_RSP naming it in Request Opcode In Error (3.4.1.1).
    public func answers(_ request: ATTOpcode) -> Bool {
        if case .errorResponse(let error) = self { return error.requestOpcodeInError == request }
        return opcode.answeredRequest == request
    }

    // MARK: Encoding

    /// Appends the whole PDU: the opcode octet, then the parameters.
    public func encode(to writer: inout ByteWriter) {
        switch payload {
        case .defined(let body):
            body.encodePDU(to: &writer)
        case .unknown(let opcode, let parameters):
            writer.writeUInt8(opcode.rawValue)
            writer.writeBytes(parameters)
        }
    }

    /// The whole PDU: the opcode octet, then the parameters. For a decoded PDU these are the
    /// octets it was decoded from.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 32)
        encode(to: &writer)
        return writer.bytes
    }

    /// The length of ``encoded`` in octets, without encoding.
    public var encodedLength: Int {
        switch payload {
        case .defined(let body): return body.pduLength
        case .unknown(_, let parameters): return 1 &+ parameters.count
        }
    }
}

extension ATTPDU: CustomStringConvertible {
    /// One line: the PDU's name and its parameters, such as
    /// "Write Request handle 0x0012 value 01",
    /// "Read By Type Request 0x0001..0xffff type 2803 (Characteristic)",
    /// "Error Response Write Request handle 0x003f: Insufficient Authentication (0x05)",
    /// "Unknown Opcode (0x3f) parameters 0102".
    public var description: String {
        let summary = parameterSummary
        return summary.isEmpty ? opcode.name : opcode.name + " " + summary
    }

    /// The parameters as named fields for structured output (JSON), without the opcode, which
    /// ``opcode`` gives: for example `[handle: 18, value: 01]` for a Write Request. An unknown
    /// PDU has one field, "parameters" (octets). Each PDU type's `fields` lists its names.
    public var fields: [ATTField] {
        switch payload {
        case .defined(let body): return body.fieldList
        case .unknown(_, let parameters): return [ATTField("parameters", .octets(parameters))]
        }
    }
}
