import Testing
import BLECore

/// Octets from hexadecimal text (spaces, newlines and `#` comments allowed); records an issue
/// and returns no octets when the text is not hexadecimal.
func octets(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    guard let bytes = Hex.decode(text) else {
        Issue.record("not hexadecimal: \(text)", sourceLocation: sourceLocation)
        return []
    }
    return bytes
}

/// One field of a layout as the specification's table gives it: name, offset and size in octets.
struct FieldSpec {
    let name: String
    let offset: Int
    let size: Int
    init(_ name: String, _ offset: Int, _ size: Int) {
        self.name = name
        self.offset = offset
        self.size = size
    }
}

/// The error a strict decoder must throw for an input cut to `length` octets, computed from the
/// specification's field table (independently of the decoder): the first field that does not
/// fit, at its own offset, with the octets it needs and the octets left there.
func expectedTruncation(at length: Int, of fields: [FieldSpec],
                        sourceLocation: SourceLocation = #_sourceLocation) -> BLEDecodingError {
    guard let field = fields.first(where: { $0.offset + $0.size > length }) else {
        Issue.record("every field fits in \(length) octets", sourceLocation: sourceLocation)
        return .unexpectedTrailingOctets(offset: -1, count: 0)
    }
    return .truncated(field: field.name, offset: field.offset, needed: field.size, available: length - field.offset)
}
