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
    /// Answers any request that failed (the request is named in Request Opcode In Error).
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .errorResponse, name: "Error Response", pduName: "ATT_ERROR_RSP", kind: .response,
        case: ATTPDU.errorResponse)

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
}

extension ATTErrorResponse: ATTPDUBody {
    init() { self.init(requestOpcodeInError: ATTOpcode(rawValue: 0), attributeHandleInError: 0, errorCode: ATTErrorCode(rawValue: 0)) }

    /// "Write Request handle 0x003f: Insufficient Authentication (0x05)".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.code(&requestOpcodeInError, .requestOpcodeInError)
        try c.handle(&attributeHandleInError, .attributeHandleInError)
        try c.code(&errorCode, .errorCode)
    }
}
