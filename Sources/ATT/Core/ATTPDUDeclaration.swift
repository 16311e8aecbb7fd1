import BLECore

/// The one declaration of an ATT PDU: its opcode, names, kind and paired response (Core v5.4,
/// Vol 3, Part F, 3.4.8, Table 3.43; 3.4.9, Table 3.44), the ``ATTPDU`` case that carries it,
/// and its field layout. Everything about the PDU runs from it: decoding and encoding, the
/// summary (``ATTPDUCodable/description``), the named fields (``ATTPDUCodable/fields``), the
/// attribute handles it names, and ``ATTOpcode``'s ``ATTOpcode/name``, ``ATTOpcode/kind``,
/// ``ATTOpcode/successfulResponse`` and ``ATTOpcode/answeredRequest``.
///
/// ```swift
/// ATTReadBlobRequest.declaration.pduName     // "ATT_READ_BLOB_REQ"
/// ATTReadBlobRequest.declaration.response    // ATTOpcode.readBlobResponse
/// ```
///
/// `PDU` carries no requirement on the type itself (the initialiser has it): the type's metadata
/// is then made without a protocol conformance lookup, which in a statically linked program scans
/// every conformance record, once per PDU type, at the first ATT line of a decode.
public struct ATTPDUDeclaration<PDU>: Sendable {
    /// The Attribute Opcode (3.4.8, Table 3.43).
    public let opcode: ATTOpcode
    /// The descriptive name earlier editions of the specification and the tools of the field
    /// use: "Read Blob Request".
    public let name: String
    /// The name in Core v5.4: "ATT_READ_BLOB_REQ".
    public let pduName: String
    /// Request, response, command, notification, indication or confirmation (3.3, Table 3.1).
    public let kind: ATTPDUKind
    /// The PDU that answers this one when it succeeds (3.4.9, Table 3.44): a request's
    /// response, or the confirmation of an indication; nil for PDUs that are not answered.
    public let response: ATTOpcode?

    /// Wraps the PDU in its ``ATTPDU`` case.
    let embed: @Sendable (PDU) -> ATTPDU
}

extension ATTPDUDeclaration where PDU: ATTPDUCodable {
    /// The declaration of `PDU`, whose parameters its ``ATTLayout/layout(_:)`` lists, carried by
    /// the ``ATTPDU`` case `embed`.
    init(opcode: ATTOpcode, name: String, pduName: String, kind: ATTPDUKind, response: ATTOpcode? = nil,
         case embed: @escaping @Sendable (PDU) -> ATTPDU) {
        self.opcode = opcode
        self.name = name
        self.pduName = pduName
        self.kind = kind
        self.response = response
        self.embed = embed
    }
}
