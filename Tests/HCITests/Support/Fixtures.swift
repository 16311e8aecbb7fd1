import BLECore
import HCI
import Testing

/// Octets from annotated hexadecimal text: spaces and line breaks separate octets, and "#"
/// starts a comment (the human-readable decode) that runs to the end of the line.
func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    guard let octets = Hex.decode(text) else {
        Issue.record("not hexadecimal: \(text)", sourceLocation: sourceLocation)
        return []
    }
    return octets
}

/// The round trip and malformed-input checks every parameter layout gets:
/// 1. decoding `fixture` then encoding gives `fixture` back;
/// 2. encode -> decode -> encode gives the same octets and the same value;
/// 3. every truncation (0 ..< fixture.count octets) throws `truncated`, naming the first field
///    that the cut reaches, at its offset, with the octets it needs and those available;
/// 4. one extra octet throws `unexpectedTrailingOctets` at the end of the fixture (unless the
///    layout ends with a field that takes every remaining octet).
func expectRoundTrip<T: HCIParameterLayout>(_ type: T.Type, _ fixture: [UInt8], endsWithRemainder: Bool = false,
                                            sourceLocation: SourceLocation = #_sourceLocation) throws {
    let decoded = try T(decoding: fixture)
    #expect(decoded.encoded == fixture, "decode then encode", sourceLocation: sourceLocation)
    let again = try T(decoding: decoded.encoded)
    #expect(again == decoded, "encode then decode", sourceLocation: sourceLocation)
    #expect(again.encoded == decoded.encoded, "encode, decode, encode", sourceLocation: sourceLocation)

    let fields = FieldMap.fields(of: decoded)
    #expect(fields.last.map { $0.offset + $0.size } ?? 0 <= fixture.count, sourceLocation: sourceLocation)
    for length in 0..<fixture.count {
        guard let field = fields.first(where: { $0.offset + $0.size > length }) else {
            // Only a trailing remainder field is cut: that is not an error.
            #expect(throws: Never.self, sourceLocation: sourceLocation) { _ = try T(decoding: fixture.prefix(length)) }
            continue
        }
        let expected = BLEDecodingError.truncated(field: field.name, offset: field.offset, needed: field.size,
                                                  available: length - field.offset)
        #expect(throws: expected, "cut at \(length)", sourceLocation: sourceLocation) {
            _ = try T(decoding: fixture.prefix(length))
        }
    }
    if !endsWithRemainder {
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: fixture.count, count: 1),
                sourceLocation: sourceLocation) {
            _ = try T(decoding: fixture + [0x00])
        }
    }
}

/// The same checks for a value built in code rather than decoded: its encoding must equal
/// `fixture` and decode back to it.
func expectEncodes<T: HCIParameterLayout>(_ value: T, to fixture: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(value.encoded == fixture, sourceLocation: sourceLocation)
    #expect(try T(decoding: fixture) == value, sourceLocation: sourceLocation)
}
