import BLECore

/// ATT_READ_REQ, opcode 0x0A (Core v5.4, Vol 3, Part F, 3.4.4.3): read one attribute's value.
///
/// | Attribute Opcode | Attribute Handle |
/// |---|---|
/// | 1 octet (0x0A) | 2 octets |
public struct ATTReadRequest: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/readRequest``.
    public static let opcode = ATTOpcode.readRequest

    /// Attribute Handle: the attribute to read.
    public var handle: UInt16

    /// A request to read the attribute at `handle`.
    public init(handle: UInt16) { self.handle = handle }

    /// Reads Attribute Handle (2).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for "Attribute Handle".
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        handle = try r.readUInt16("Attribute Handle")
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) { w.writeUInt16(handle) }

    /// handle (integer).
    public var fields: [ATTField] { [ATTField("handle", .integer(Int(handle)))] }

    /// "handle 0x0003".
    public var parameterSummary: String { "handle \(Hex.hex16(handle))" }
}

/// ATT_READ_RSP, opcode 0x0B (Core v5.4, Vol 3, Part F, 3.4.4.4): the value read.
///
/// | Attribute Opcode | Attribute Value |
/// |---|---|
/// | 1 octet (0x0B) | 0 to (ATT_MTU-1) octets |
///
/// A value longer than ATT_MTU-1 octets arrives cut to ATT_MTU-1; the rest is read with
/// ATT_READ_BLOB_REQ.
public struct ATTReadResponse: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/readResponse``.
    public static let opcode = ATTOpcode.readResponse

    /// Attribute Value: octets as transmitted, never interpreted (possibly none).
    public var value: [UInt8]

    /// A response carrying `value`.
    public init(value: [UInt8]) { self.value = value }

    /// Reads the Attribute Value: every remaining octet. Never throws for any length.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        value = r.readRemaining()
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) { w.writeBytes(value) }

    /// value (octets).
    public var fields: [ATTField] { [ATTField("value", .octets(value))] }

    /// "value 4c696e7578".
    public var parameterSummary: String { "value \(ATTText.octets(value))" }
}

/// ATT_READ_BLOB_REQ, opcode 0x0C (Core v5.4, Vol 3, Part F, 3.4.4.5): read part of a long
/// attribute value from an offset.
///
/// | Attribute Opcode | Attribute Handle | Value Offset |
/// |---|---|---|
/// | 1 octet (0x0C) | 2 octets | 2 octets, in octets from the value's start |
public struct ATTReadBlobRequest: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/readBlobRequest``.
    public static let opcode = ATTOpcode.readBlobRequest

    /// Attribute Handle: the attribute to read.
    public var handle: UInt16
    /// Value Offset: the offset of the first octet to read, from zero.
    public var valueOffset: UInt16

    /// A request to read the attribute at `handle` from `valueOffset`.
    public init(handle: UInt16, valueOffset: UInt16) {
        self.handle = handle
        self.valueOffset = valueOffset
    }

    /// Reads Attribute Handle (2), Value Offset (2).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming the short field.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        handle = try r.readUInt16("Attribute Handle")
        valueOffset = try r.readUInt16("Value Offset")
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        w.writeUInt16(handle)
        w.writeUInt16(valueOffset)
    }

    /// handle, value_offset (integers).
    public var fields: [ATTField] {
        [ATTField("handle", .integer(Int(handle))), ATTField("value_offset", .integer(Int(valueOffset)))]
    }

    /// "handle 0x0003 offset 22".
    public var parameterSummary: String { "handle \(Hex.hex16(handle)) offset \(valueOffset)" }
}

/// ATT_READ_BLOB_RSP, opcode 0x0D (Core v5.4, Vol 3, Part F, 3.4.4.6): part of a value.
///
/// | Attribute Opcode | Part Attribute Value |
/// |---|---|
/// | 1 octet (0x0D) | 0 to (ATT_MTU-1) octets |
///
/// Empty when the request's offset equals the value's length; shorter than ATT_MTU-1 at the
/// end of the value.
public struct ATTReadBlobResponse: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/readBlobResponse``.
    public static let opcode = ATTOpcode.readBlobResponse

    /// Part Attribute Value: octets as transmitted, never interpreted (possibly none).
    public var partAttributeValue: [UInt8]

    /// A response carrying `partAttributeValue`.
    public init(partAttributeValue: [UInt8]) { self.partAttributeValue = partAttributeValue }

    /// Reads the Part Attribute Value: every remaining octet. Never throws for any length.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        partAttributeValue = r.readRemaining()
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) { w.writeBytes(partAttributeValue) }

    /// value (octets).
    public var fields: [ATTField] { [ATTField("value", .octets(partAttributeValue))] }

    /// "value 1122".
    public var parameterSummary: String { "value \(ATTText.octets(partAttributeValue))" }
}
