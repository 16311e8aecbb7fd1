import BLECore

/// ATT_WRITE_REQ, opcode 0x12 (Core v5.4, Vol 3, Part F, 3.4.5.1): write a value and be told
/// it was written.
///
/// | Attribute Opcode | Attribute Handle | Attribute Value |
/// |---|---|---|
/// | 1 octet (0x12) | 2 octets | 0 to (ATT_MTU-3) octets |
public struct ATTWriteRequest: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/writeRequest``.
    public static let opcode = ATTOpcode.writeRequest

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

    /// Reads Attribute Handle (2), then the Attribute Value: every remaining octet.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for "Attribute Handle".
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        handle = try r.readUInt16("Attribute Handle")
        value = r.readRemaining()
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        w.writeUInt16(handle)
        w.writeBytes(value)
    }

    /// handle (integer), value (octets).
    public var fields: [ATTField] {
        [ATTField("handle", .integer(Int(handle))), ATTField("value", .octets(value))]
    }

    /// "handle 0x0012 value 01".
    public var parameterSummary: String { "handle \(Hex.hex16(handle)) value \(ATTText.octets(value))" }
}

/// ATT_WRITE_RSP, opcode 0x13 (Core v5.4, Vol 3, Part F, 3.4.5.2): the value was written.
///
/// | Attribute Opcode |
/// |---|
/// | 1 octet (0x13) |
public struct ATTWriteResponse: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/writeResponse``.
    public static let opcode = ATTOpcode.writeResponse

    /// The response; it has no parameters.
    public init() {}

    /// Reads nothing: the PDU has no parameters (the caller rejects trailing octets).
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {}

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {}

    /// No fields.
    public var fields: [ATTField] { [] }

    /// Empty: the PDU has no parameters.
    public var parameterSummary: String { "" }
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
    /// The Attribute Opcode of this PDU, ``ATTOpcode/writeCommand``.
    public static let opcode = ATTOpcode.writeCommand

    /// Attribute Handle: the attribute to write.
    public var handle: UInt16
    /// Attribute Value: the new value, octets as transmitted (possibly none).
    public var value: [UInt8]

    /// A command writing `value` to the attribute at `handle`.
    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }

    /// Reads Attribute Handle (2), then the Attribute Value: every remaining octet.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for "Attribute Handle".
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        handle = try r.readUInt16("Attribute Handle")
        value = r.readRemaining()
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        w.writeUInt16(handle)
        w.writeBytes(value)
    }

    /// handle (integer), value (octets).
    public var fields: [ATTField] {
        [ATTField("handle", .integer(Int(handle))), ATTField("value", .octets(value))]
    }

    /// "handle 0x0012 value 01".
    public var parameterSummary: String { "handle \(Hex.hex16(handle)) value \(ATTText.octets(value))" }
}
