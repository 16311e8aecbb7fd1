import BLECore

/// Why an SMP command could not be decoded: the underlying ``BLEDecodingError`` (field and
/// offset), with the command it was in. Offsets count from the Code octet.
public struct SMPDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The command's Code, nil when the PDU was empty.
    public var code: SMPCode?
    /// The field that was wrong and where.
    public var underlying: BLEDecodingError

    /// An error for the command with `code` (nil when the PDU was empty).
    public init(code: SMPCode?, underlying: BLEDecodingError) {
        self.code = code
        self.underlying = underlying
    }

    /// "Pairing Request (0x01): Maximum Encryption Key Size at offset 4 needs 1 octet, 0 available".
    public var description: String { "\(code.map { $0.description } ?? "SMP"): \(underlying)" }
}
