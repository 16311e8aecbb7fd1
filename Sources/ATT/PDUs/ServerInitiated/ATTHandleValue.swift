import BLECore

/// ATT_HANDLE_VALUE_NTF, opcode 0x1B (Core v5.4, Vol 3, Part F, 3.4.7.1): an attribute's
/// value, sent by the server at any time, unconfirmed.
///
/// | Attribute Opcode | Attribute Handle | Attribute Value |
/// |---|---|---|
/// | 1 octet (0x1B) | 2 octets | 0 to (ATT_MTU-3) octets |
///
/// A value longer than ATT_MTU-3 arrives cut to ATT_MTU-3; the rest is read with
/// ATT_READ_BLOB_REQ.
public struct ATTHandleValueNotification: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/handleValueNotification``.
    public static let opcode = ATTOpcode.handleValueNotification

    /// Attribute Handle: the attribute notified.
    public var handle: UInt16
    /// Attribute Value: its current value (or first part), octets as transmitted.
    public var value: [UInt8]

    /// A notification of `value` for the attribute at `handle`.
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

    /// "handle 0x002a value 0648".
    public var parameterSummary: String { "handle \(Hex.hex16(handle)) value \(ATTText.octets(value))" }
}

/// ATT_HANDLE_VALUE_IND, opcode 0x1D (Core v5.4, Vol 3, Part F, 3.4.7.2): an attribute's
/// value, which the client confirms with ATT_HANDLE_VALUE_CFM.
///
/// | Attribute Opcode | Attribute Handle | Attribute Value |
/// |---|---|---|
/// | 1 octet (0x1D) | 2 octets | 0 to (ATT_MTU-3) octets |
///
/// Only one indication is outstanding per bearer; the client confirms even an indication
/// whose handle or value it finds invalid.
public struct ATTHandleValueIndication: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/handleValueIndication``.
    public static let opcode = ATTOpcode.handleValueIndication

    /// Attribute Handle: the attribute indicated.
    public var handle: UInt16
    /// Attribute Value: its current value (or first part), octets as transmitted.
    public var value: [UInt8]

    /// An indication of `value` for the attribute at `handle`.
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

    /// "handle 0x0003 value 0100ffff".
    public var parameterSummary: String { "handle \(Hex.hex16(handle)) value \(ATTText.octets(value))" }
}

/// ATT_HANDLE_VALUE_CFM, opcode 0x1E (Core v5.4, Vol 3, Part F, 3.4.7.3): the client
/// received an indication.
///
/// | Attribute Opcode |
/// |---|
/// | 1 octet (0x1E) |
public struct ATTHandleValueConfirmation: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/handleValueConfirmation``.
    public static let opcode = ATTOpcode.handleValueConfirmation

    /// The confirmation; it has no parameters.
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
