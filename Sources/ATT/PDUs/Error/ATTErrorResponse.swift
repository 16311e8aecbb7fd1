import BLECore

/// ATT_ERROR_RSP, opcode 0x01 (Core v5.4, Vol 3, Part F, 3.4.1.1): a request cannot be
/// performed, and why.
///
/// | Attribute Opcode | Request Opcode In Error | Attribute Handle In Error | Error Code |
/// |---|---|---|---|
/// | 1 octet (0x01) | 1 octet | 2 octets | 1 octet |
///
/// Commands never cause this response. The handle is 0x0000 when the request had none or was
/// not supported (3.4.1.1); Invalid PDU, Insufficient Resources and Unlikely Error also carry
/// 0x0000 (3.3).
public struct ATTErrorResponse: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/errorResponse``.
    public static let opcode = ATTOpcode.errorResponse

    /// Request Opcode In Error: the opcode of the request that failed (kept raw).
    public var requestOpcodeInError: ATTOpcode
    /// Attribute Handle In Error: the handle that caused the error, or 0x0000.
    public var attributeHandleInError: UInt16
    /// Error Code: why the request failed (kept raw).
    public var errorCode: ATTErrorCode

    /// An error response to the request `requestOpcodeInError`.
    public init(requestOpcodeInError: ATTOpcode, attributeHandleInError: UInt16, errorCode: ATTErrorCode) {
        self.requestOpcodeInError = requestOpcodeInError
        self.attributeHandleInError = attributeHandleInError
        self.errorCode = errorCode
    }

    /// Reads Request Opcode In Error (1), Attribute Handle In Error (2), Error Code (1).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming the short field.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        requestOpcodeInError = ATTOpcode(rawValue: try r.readUInt8("Request Opcode In Error"))
        attributeHandleInError = try r.readUInt16("Attribute Handle In Error")
        errorCode = ATTErrorCode(rawValue: try r.readUInt8("Error Code"))
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        w.writeUInt8(requestOpcodeInError.rawValue)
        w.writeUInt16(attributeHandleInError)
        w.writeUInt8(errorCode.rawValue)
    }

    /// request_opcode (integer), request (text), handle (integer), error_code (integer), error (text).
    public var fields: [ATTField] {
        [ATTField("request_opcode", .integer(Int(requestOpcodeInError.rawValue))),
         ATTField("request", .text(requestOpcodeInError.name)),
         ATTField("handle", .integer(Int(attributeHandleInError))),
         ATTField("error_code", .integer(Int(errorCode.rawValue))),
         ATTField("error", .text(errorCode.name))]
    }

    /// "Write Request handle 0x003f: Insufficient Authentication (0x05)".
    public var parameterSummary: String {
        "\(requestOpcodeInError.name) handle \(Hex.hex16(attributeHandleInError)): \(errorCode)"
    }
}
