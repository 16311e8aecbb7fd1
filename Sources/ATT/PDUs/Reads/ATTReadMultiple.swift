import BLECore

/// ATT_READ_MULTIPLE_REQ, opcode 0x0E (Core v5.4, Vol 3, Part F, 3.4.4.7): read two or more
/// attributes whose values have known fixed sizes (the last may vary).
///
/// | Attribute Opcode | Set Of Handles |
/// |---|---|
/// | 1 octet (0x0E) | 4 to (ATT_MTU-1) octets: two or more handles, 2 octets each |
///
/// The handles are in the order the values are wanted, not necessarily handle order.
public struct ATTReadMultipleRequest: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/readMultipleRequest``.
    public static let opcode = ATTOpcode.readMultipleRequest

    /// Set Of Handles: two or more attribute handles.
    public private(set) var setOfHandles: [UInt16]

    /// A request to read the attributes at `setOfHandles`, in that order.
    ///
    /// - Throws: ``ATTEncodingError`` for fewer than two handles.
    public init(setOfHandles: [UInt16]) throws(ATTEncodingError) {
        try ATTLayouts.checkSetOfHandles(setOfHandles, opcode: Self.opcode)
        self.setOfHandles = setOfHandles
    }

    /// Reads the Set Of Handles: every remaining octet, in 2-octet handles.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for fewer than
    ///   two handles; ``BLEDecodingError/invalidValue(field:offset:reason:)`` for an odd length.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        setOfHandles = try ATTLayouts.readSetOfHandles(&r)
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        for handle in setOfHandles { w.writeUInt16(handle) }
    }

    /// set_of_handles (list of handle).
    public var fields: [ATTField] { [ATTField("set_of_handles", ATTLayouts.handleList(setOfHandles))] }

    /// "handles 0x0003, 0x0005".
    public var parameterSummary: String { "handles " + setOfHandles.map(Hex.hex16).joined(separator: ", ") }
}

/// ATT_READ_MULTIPLE_RSP, opcode 0x0F (Core v5.4, Vol 3, Part F, 3.4.4.8): the requested
/// values, concatenated.
///
/// | Attribute Opcode | Set Of Values |
/// |---|---|
/// | 1 octet (0x0F) | 0 to (ATT_MTU-1) octets |
///
/// The PDU carries no lengths: splitting the values needs the sizes a higher layer knows.
/// A set longer than ATT_MTU-1 arrives cut to ATT_MTU-1.
public struct ATTReadMultipleResponse: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/readMultipleResponse``.
    public static let opcode = ATTOpcode.readMultipleResponse

    /// Set Of Values: the values in request order, concatenated; never interpreted.
    public var setOfValues: [UInt8]

    /// A response carrying `setOfValues`.
    public init(setOfValues: [UInt8]) { self.setOfValues = setOfValues }

    /// Reads the Set Of Values: every remaining octet. Never throws for any length.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        setOfValues = r.readRemaining()
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) { w.writeBytes(setOfValues) }

    /// set_of_values (octets).
    public var fields: [ATTField] { [ATTField("set_of_values", .octets(setOfValues))] }

    /// "values 0102ff".
    public var parameterSummary: String { "values \(ATTText.octets(setOfValues))" }
}

/// ATT_READ_MULTIPLE_VARIABLE_REQ, opcode 0x20 (Core v5.4, Vol 3, Part F, 3.4.4.11): read
/// two or more attributes of variable or unknown length.
///
/// | Attribute Opcode | Set Of Handles |
/// |---|---|
/// | 1 octet (0x20) | 4 to (ATT_MTU-1) octets: two or more handles, 2 octets each |
public struct ATTReadMultipleVariableRequest: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/readMultipleVariableRequest``.
    public static let opcode = ATTOpcode.readMultipleVariableRequest

    /// Set Of Handles: two or more attribute handles, in the order the values are wanted.
    public private(set) var setOfHandles: [UInt16]

    /// A request to read the attributes at `setOfHandles`, in that order.
    ///
    /// - Throws: ``ATTEncodingError`` for fewer than two handles.
    public init(setOfHandles: [UInt16]) throws(ATTEncodingError) {
        try ATTLayouts.checkSetOfHandles(setOfHandles, opcode: Self.opcode)
        self.setOfHandles = setOfHandles
    }

    /// Reads the Set Of Handles: every remaining octet, in 2-octet handles.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for fewer than
    ///   two handles; ``BLEDecodingError/invalidValue(field:offset:reason:)`` for an odd length.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        setOfHandles = try ATTLayouts.readSetOfHandles(&r)
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        for handle in setOfHandles { w.writeUInt16(handle) }
    }

    /// set_of_handles (list of handle).
    public var fields: [ATTField] { [ATTField("set_of_handles", ATTLayouts.handleList(setOfHandles))] }

    /// "handles 0x0003, 0x0005".
    public var parameterSummary: String { "handles " + setOfHandles.map(Hex.hex16).joined(separator: ", ") }
}
