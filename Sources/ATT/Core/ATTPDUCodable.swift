import BLECore

/// A PDU of the Attribute Protocol (Core v5.4, Vol 3, Part F, 3.4): one struct per PDU,
/// identified by a static ``opcode``, decoded from and encoded to its Attribute Parameters.
///
/// A conforming type declares its layout once: ``init(parameters:)`` reads the fields in
/// order and ``encodeParameters(to:)`` writes them in the same order. The extension adds the
/// whole-PDU forms (``init(decoding:)-(ArraySlice<UInt8>)``, ``encoded``) that handle the opcode octet.
///
/// ```swift
/// let request = try ATTExchangeMTURequest(decoding: [0x02, 0x05, 0x02])   // Client Rx MTU 517
/// request.encoded                                                        // [0x02, 0x05, 0x02]
/// ```
public protocol ATTPDUCodable: Hashable, Sendable, CustomStringConvertible {
    /// The Attribute Opcode of this PDU (3.4.8, Table 3.43).
    static var opcode: ATTOpcode { get }

    /// Reads the Attribute Parameters (and the Authentication Signature, if the opcode has
    /// one) from `reader`, which stands just after the opcode octet.
    ///
    /// The caller checks that nothing is left over afterwards; a PDU whose last parameter
    /// runs to the end of the PDU consumes everything.
    ///
    /// - Throws: ``BLEDecodingError`` naming the field and its offset (counted from the
    ///   reader's start, which is the opcode octet when called through ``ATTPDU``).
    init(parameters reader: inout ByteReader) throws(BLEDecodingError)

    /// Appends the Attribute Parameters (and Authentication Signature), without the opcode.
    func encodeParameters(to writer: inout ByteWriter)

    /// The parameters as named fields, for structured output (see ``ATTPDU/fields``).
    var fields: [ATTField] { get }

    /// The parameters in one line, without the PDU name: "handle 0x0012 value 01".
    /// Empty for a PDU without parameters.
    var parameterSummary: String { get }
}

extension ATTPDUCodable {
    /// Decodes a whole PDU: the opcode octet, which must be ``opcode``, then the parameters,
    /// which must fill the PDU exactly.
    ///
    /// - Throws: ``ATTDecodingError`` with the field and offset (counted from the opcode):
    ///   a missing or different opcode, a short or malformed parameter, or trailing octets.
    public init(decoding pdu: ArraySlice<UInt8>) throws(ATTDecodingError) {
        var reader = ByteReader(pdu)
        guard let raw = reader.peekUInt8() else { throw .emptyPDU }
        guard raw == Self.opcode.rawValue else {
            throw ATTDecodingError(
                opcode: ATTOpcode(rawValue: raw),
                decodingError: .invalidValue(field: "Attribute Opcode", offset: 0,
                                             reason: "expected \(Self.opcode)"))
        }
        do throws(BLEDecodingError) {
            try reader.skip(1, "Attribute Opcode")
            self = try Self(parameters: &reader)
            try reader.expectEnd()
        } catch {
            throw ATTDecodingError(opcode: Self.opcode, decodingError: error)
        }
    }

    /// Decodes a whole PDU; see ``init(decoding:)-(ArraySlice<UInt8>)``.
    public init(decoding pdu: [UInt8]) throws(ATTDecodingError) {
        try self.init(decoding: pdu[...])
    }

    /// The opcode of this PDU, ``opcode``.
    public var opcode: ATTOpcode { Self.opcode }

    /// Appends the whole PDU: the opcode octet, then the parameters.
    public func encode(to writer: inout ByteWriter) {
        writer.writeUInt8(Self.opcode.rawValue)
        encodeParameters(to: &writer)
    }

    /// The whole PDU: the opcode octet, then the parameters.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: 32)
        encode(to: &writer)
        return writer.bytes
    }

    /// The PDU's name and its ``parameterSummary``: "Write Request handle 0x0012 value 01".
    public var description: String {
        let summary = parameterSummary
        return summary.isEmpty ? Self.opcode.name : Self.opcode.name + " " + summary
    }
}
