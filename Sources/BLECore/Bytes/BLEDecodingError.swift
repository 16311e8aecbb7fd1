/// Why a run of octets could not be decoded.
///
/// Every codec in the stack throws this (or wraps it with its own context, such as the ATT
/// opcode), so a caller always learns which field was wrong and where. Offsets count octets
/// from the start of the buffer the decoder was given.
public enum BLEDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input ended inside a field.
    ///
    /// - Parameters:
    ///   - field: the field being read, in the specification's terms (for example "Client Rx MTU").
    ///   - offset: the octet offset at which the field starts.
    ///   - needed: the octets the field needs.
    ///   - available: the octets left in the input at `offset`.
    case truncated(field: String, offset: Int, needed: Int, available: Int)

    /// A field holds a value that the specification does not allow here.
    case invalidValue(field: String, offset: Int, reason: String)

    /// Octets remain after the last field of a fixed-length structure.
    case unexpectedTrailingOctets(offset: Int, count: Int)

    /// The octet offset the error refers to.
    public var offset: Int {
        switch self {
        case .truncated(_, let offset, _, _), .invalidValue(_, let offset, _),
             .unexpectedTrailingOctets(let offset, _):
            return offset
        }
    }

    public var description: String {
        switch self {
        case let .truncated(field, offset, needed, available):
            return "\(field) at offset \(offset) needs \(needed) octet\(needed == 1 ? "" : "s"), \(available) available"
        case let .invalidValue(field, offset, reason):
            return "\(field) at offset \(offset): \(reason)"
        case let .unexpectedTrailingOctets(offset, count):
            return "\(count) unexpected trailing octet\(count == 1 ? "" : "s") at offset \(offset)"
        }
    }

    /// The same error with its offset moved by `delta` octets, for a decoder that ran on a
    /// sub-buffer and reports against the enclosing one.
    public func shifted(by delta: Int) -> BLEDecodingError {
        switch self {
        case let .truncated(field, offset, needed, available):
            return .truncated(field: field, offset: offset + delta, needed: needed, available: available)
        case let .invalidValue(field, offset, reason):
            return .invalidValue(field: field, offset: offset + delta, reason: reason)
        case let .unexpectedTrailingOctets(offset, count):
            return .unexpectedTrailingOctets(offset: offset + delta, count: count)
        }
    }
}
