import BLECore

/// A PDU of the Attribute Protocol (Core v5.4, Vol 3, Part F, 3.4): one struct per PDU, with one
/// ``declaration`` that names its opcode, names, kind and paired response and lists its fields.
///
/// Decoding (``init(decoding:)-(ArraySlice<UInt8>)``), encoding (``encoded``), the one-line
/// ``description``, the named ``fields`` and the ``attributeHandles`` all run from that
/// declaration, so they cannot disagree.
///
/// ```swift
/// let request = try ATTExchangeMTURequest(decoding: [0x02, 0x05, 0x02])   // Client Rx MTU 517
/// request.encoded                                                        // [0x02, 0x05, 0x02]
/// request.description                                                    // "Exchange MTU Request Client Rx MTU 517"
/// ```
public protocol ATTPDUCodable: Hashable, Sendable, CustomStringConvertible {
    /// The PDU's declaration: opcode, names, kind, paired response and field layout.
    static var declaration: ATTPDUDeclaration<Self> { get }

    /// The Attribute Opcode of this PDU (3.4.8, Table 3.43): the declaration's.
    static var opcode: ATTOpcode { get }
}

extension ATTPDUCodable {
    /// The Attribute Opcode of this PDU: the declaration's.
    public static var opcode: ATTOpcode { declaration.opcode }

    /// Decodes a whole PDU: the opcode octet, which must be ``opcode``, then the parameters,
    /// which must fill the PDU exactly.
    ///
    /// - Throws: ``ATTDecodingError`` with the field and offset (counted from the opcode):
    ///   a missing or different opcode, a short or malformed parameter, or trailing octets.
    public init(decoding pdu: ArraySlice<UInt8>) throws(ATTDecodingError) {
        guard let raw = pdu.first else { throw .emptyPDU }
        // ATTPDU decodes the opcode's PDU, which is this type's.
        guard raw == Self.opcode.rawValue, let decoded = try ATTPDU.decode(pdu).body as? Self else {
            throw ATTDecodingError(
                opcode: ATTOpcode(rawValue: raw),
                decodingError: .invalidValue(field: "Attribute Opcode", offset: 0,
                                             reason: "expected \(Self.opcode)"))
        }
        self = decoded
    }

    /// Decodes a whole PDU; see ``init(decoding:)-(ArraySlice<UInt8>)``.
    public init(decoding pdu: [UInt8]) throws(ATTDecodingError) {
        try self.init(decoding: pdu[...])
    }

    /// The opcode of this PDU, ``opcode``.
    public var opcode: ATTOpcode { Self.opcode }

    /// This PDU in its ``ATTPDU`` case.
    public var pdu: ATTPDU { Self.declaration.embed(self) }

    /// Appends the whole PDU: the opcode octet, then the parameters.
    public func encode(to writer: inout ByteWriter) { pdu.encode(to: &writer) }

    /// The whole PDU: the opcode octet, then the parameters.
    public var encoded: [UInt8] { pdu.encoded }

    /// The length of the whole PDU in octets, opcode included, without encoding it.
    public var encodedLength: Int { pdu.encodedLength }

    /// The parameters in one line, without the PDU name: "handle 0x0012 value 01"; empty for a
    /// PDU without parameters. Each parameter shows under its printed name.
    public var parameterSummary: String { pdu.parameterSummary }

    /// The PDU's name and its ``parameterSummary``: "Write Request handle 0x0012 value 01".
    public var description: String { pdu.description }

    /// The parameters as named fields, for structured output (see ``ATTPDU/fields``).
    public var fields: [ATTField] { pdu.fields }

    /// The Attribute Handles the PDU carries, in order (see ``ATTPDU/attributeHandles``).
    public var attributeHandles: [UInt16] { pdu.attributeHandles }

    /// The PDU's own Attribute Handle, outside any list (see ``ATTPDU/attributeHandle``).
    public var attributeHandle: UInt16? { pdu.attributeHandle }
}
