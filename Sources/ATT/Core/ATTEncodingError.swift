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
