import BLECore

/// ATT_WRITE_REQ, opcode 0x12 (Core v5.4, Vol 3, Part F, 3.4.5.1): write a value and be told
/// it was written.
///
/// | Attribute Opcode | Attribute Handle | Attribute Value |
/// |---|---|---|
/// | 1 octet (0x12) | 2 octets | 0 to (ATT_MTU-3) octets |
public struct ATTWriteRequest: ATTPDUCodable {
    /// Answered by ATT_WRITE_RSP.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .writeRequest, name: "Write Request", pduName: "ATT_WRITE_REQ", kind: .request,
        response: .writeResponse, case: ATTPDU.writeRequest)

    /// Attribute Handle: the attribute to write.
    public var handle: UInt16
    /// Attribute Value: the new value, octets as transmitted (possibly none, which empties a
    /// variable-length value).
    public var value: [UInt8]

    /// A request to write `value` to the attribute at `handle`.
    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }
}

extension ATTWriteRequest: ATTPDUBody {
    init() { self.init(handle: 0, value: []) }

    /// "handle 0x0012 value 01".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .attributeHandle)
        try c.remaining(&value, .attributeValue)
    }
}

/// ATT_WRITE_RSP, opcode 0x13 (Core v5.4, Vol 3, Part F, 3.4.5.2): the value was written.
///
/// | Attribute Opcode |
/// |---|
/// | 1 octet (0x13) |
public struct ATTWriteResponse: ATTPDUCodable {
    /// Answers ATT_WRITE_REQ.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .writeResponse, name: "Write Response", pduName: "ATT_WRITE_RSP", kind: .response,
        case: ATTPDU.writeResponse)

    /// The response; it has no parameters.
    public init() {}
}

extension ATTWriteResponse: ATTPDUBody {
    /// No parameters.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {}
}

/// ATT_WRITE_CMD, opcode 0x52 (Core v5.4, Vol 3, Part F, 3.4.5.3): write a value without a
/// response ("Write Without Response" in GATT).
///
/// | Attribute Opcode | Attribute Handle | Attribute Value |
/// |---|---|---|
/// | 1 octet (0x52) | 2 octets | 0 to (ATT_MTU-3) octets |
///
/// The server never answers: a command it cannot carry out is ignored.
public struct ATTWriteCommand: ATTPDUCodable {
    /// Not answered.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .writeCommand, name: "Write Command", pduName: "ATT_WRITE_CMD", kind: .command,
        case: ATTPDU.writeCommand)

    /// Attribute Handle: the attribute to write.
    public var handle: UInt16
    /// Attribute Value: the new value, octets as transmitted (possibly none).
    public var value: [UInt8]

    /// A command writing `value` to the attribute at `handle`.
    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }
}

extension ATTWriteCommand: ATTPDUBody {
    init() { self.init(handle: 0, value: []) }

    /// "handle 0x0012 value 01".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .attributeHandle)
        try c.remaining(&value, .attributeValue)
    }
}
