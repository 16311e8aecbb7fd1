import BLECore

/// Why an ATT PDU could not be decoded: the PDU's opcode and the ``BLEDecodingError`` that
/// names the field and its offset.
///
/// Offsets count octets from the Attribute Opcode, the PDU's first octet, so the first
/// parameter is at offset 1. An empty PDU has no opcode: ``opcode`` is nil and the error is a
/// truncated "Attribute Opcode" at offset 0.
///
/// ```
/// Exchange MTU Request (0x02): Client Rx MTU at offset 1 needs 2 octets, 0 available
/// ```
///
/// A server answers a request that fails to decode with ATT_ERROR_RSP, Invalid PDU (0x04),
/// Request Opcode In Error set to ``opcode`` and Attribute Handle In Error 0x0000
/// (Core v5.4, Vol 3, Part F, 3.3). An opcode the specification does not define never
/// produces this error: ``ATTPDU/decode(_:)-(ArraySlice<UInt8>)`` keeps it raw.
public struct ATTDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The PDU's opcode; nil when the PDU was empty.
    public var opcode: ATTOpcode?
    /// What was wrong and where, with offsets counted from the opcode octet.
    public var decodingError: BLEDecodingError

    /// An error for a PDU with `opcode` (nil for an empty PDU).
    public init(opcode: ATTOpcode?, decodingError: BLEDecodingError) {
        self.opcode = opcode
        self.decodingError = decodingError
    }

    /// The error for a PDU of zero octets: no Attribute Opcode at offset 0.
    public static let emptyPDU = ATTDecodingError(
        opcode: nil, decodingError: .truncated(field: "Attribute Opcode", offset: 0, needed: 1, available: 0))

    /// The offset of the field in error, counted from the opcode octet.
    public var offset: Int { decodingError.offset }

    /// The field in error, in the specification's terms ("Client Rx MTU"); nil when the error
    /// is octets left over after the last field.
    public var field: String? {
        switch decodingError {
        case .truncated(let field, _, _, _), .invalidValue(let field, _, _): return field
        case .unexpectedTrailingOctets: return nil
        }
    }

    /// "Exchange MTU Request (0x02): Client Rx MTU at offset 1 needs 2 octets, 0 available";
    /// "ATT PDU: ..." when there is no opcode.
    public var description: String {
        (opcode.map { $0.description } ?? "ATT PDU") + ": " + decodingError.description
    }
}
