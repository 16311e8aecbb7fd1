/// Why a PDU value could not be built: its parameters break a rule of the PDU's format, so
/// the PDU could not be encoded, or would not decode back to the same value.
///
/// Thrown by the validating initializers of PDUs whose lists carry lengths or minimum counts
/// (for example ``ATTReadByTypeResponse/init(attributeData:)``, whose entries must all have
/// values of one length that fits the one-octet Length parameter). PDUs without such rules
/// have non-throwing initializers.
public struct ATTEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The PDU being built.
    public var opcode: ATTOpcode
    /// The parameter at fault, in the specification's terms ("Attribute Data List").
    public var field: String
    /// What is wrong with it.
    public var reason: String

    /// An error for `field` of the PDU `opcode`.
    public init(opcode: ATTOpcode, field: String, reason: String) {
        self.opcode = opcode
        self.field = field
        self.reason = reason
    }

    /// "Read By Type Response (0x09): Attribute Data List: ..."
    public var description: String { "\(opcode): \(field): \(reason)" }
}

extension ATTEncodingError {
    /// An error for `parameter` of the PDU `opcode`, named as the specification names it.
    init(opcode: ATTOpcode, _ parameter: ATTParameter, _ reason: String) {
        self.init(opcode: opcode, field: parameter.name, reason: reason)
    }

    /// Checks a Set Of Handles for encoding: two or more (3.4.4.7, 3.4.4.11).
    static func checkSetOfHandles(_ handles: [UInt16], opcode: ATTOpcode) throws(ATTEncodingError) {
        guard handles.count >= 2 else {
            throw ATTEncodingError(opcode: opcode, .setOfHandles,
                                   "holds \(handles.count) handle\(handles.count == 1 ? "" : "s"); two or more are required")
        }
    }
}
