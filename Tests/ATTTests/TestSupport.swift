import Testing
import BLECore
@testable import ATT

/// Octets from hexadecimal text with spaces and `#` comments; fails the test on bad text.
func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    guard let bytes = Hex.decode(text) else {
        Issue.record("bad hex fixture: \(text)", sourceLocation: sourceLocation)
        return []
    }
    return bytes
}

/// The round-trip properties for one fixture of one PDU type:
/// 1. the fixture decodes (through the struct and through ``ATTPDU``) and encodes back to itself;
/// 2. encode -> decode -> encode of the decoded value gives the same octets and an equal value.
/// Returns the decoded value for field expectations.
@discardableResult
func expectRoundTrip<P: ATTPDUCodable>(_ type: P.Type, _ fixture: [UInt8],
                                       sourceLocation: SourceLocation = #_sourceLocation) throws -> P {
    let value = try P(decoding: fixture)
    #expect(value.encoded == fixture, "decode then encode gives the fixture back", sourceLocation: sourceLocation)
    let again = try P(decoding: value.encoded)
    #expect(again == value, "encode then decode gives an equal value", sourceLocation: sourceLocation)
    #expect(again.encoded == value.encoded, "encode -> decode -> encode is stable", sourceLocation: sourceLocation)

    let pdu = try ATTPDU.decode(fixture)
    #expect(pdu.opcode == P.opcode, sourceLocation: sourceLocation)
    #expect(pdu.body.map { ($0 as? P) == value } == true, "ATTPDU dispatches to \(P.self)", sourceLocation: sourceLocation)
    #expect(pdu.encoded == fixture, sourceLocation: sourceLocation)
    #expect(pdu.description == value.description, sourceLocation: sourceLocation)
    #expect(pdu.fields == value.fields, sourceLocation: sourceLocation)
    return value
}

/// The value-first round trip: a value built in code encodes, decodes to an equal value, and
/// encodes to the same octets again. Returns the octets.
@discardableResult
func expectRoundTrip<P: ATTPDUCodable>(_ value: P, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    let bytes = value.encoded
    #expect(bytes.first == P.opcode.rawValue, sourceLocation: sourceLocation)
    let decoded = try P(decoding: bytes)
    #expect(decoded == value, sourceLocation: sourceLocation)
    #expect(decoded.encoded == bytes, sourceLocation: sourceLocation)
    #expect(try ATTPDU.decode(bytes).encoded == bytes, sourceLocation: sourceLocation)
    return bytes
}

/// Expects `bytes` to fail to decode, both through ``ATTPDU`` and through `P`, with exactly
/// `error` (offsets count from the opcode octet).
func expectDecodingError<P: ATTPDUCodable>(_ type: P.Type, _ bytes: [UInt8], _ error: BLEDecodingError,
                                           sourceLocation: SourceLocation = #_sourceLocation) {
    let expected = ATTDecodingError(opcode: P.opcode, decodingError: error)
    #expect(throws: expected, sourceLocation: sourceLocation) { try ATTPDU.decode(bytes) }
    #expect(throws: expected, sourceLocation: sourceLocation) { try P(decoding: bytes) }
}

/// Shorthand for a truncation error.
func short(_ field: String, at offset: Int, needs needed: Int, has available: Int) -> BLEDecodingError {
    .truncated(field: field, offset: offset, needed: needed, available: available)
}

/// Expects every proper prefix of `fixture` (from the opcode alone upwards) to fail with the
/// error `expected(prefixLength)` gives, and `fixture` plus one octet to fail with trailing octets.
/// For PDUs whose every parameter has a fixed size.
func expectTruncationsAndTrailing<P: ATTPDUCodable>(_ type: P.Type, _ fixture: [UInt8],
                                                    _ expected: (Int) -> BLEDecodingError,
                                                    sourceLocation: SourceLocation = #_sourceLocation) {
    for length in 1..<fixture.count {
        expectDecodingError(P.self, Array(fixture.prefix(length)), expected(length), sourceLocation: sourceLocation)
    }
    expectDecodingError(P.self, fixture + [0x00], .unexpectedTrailingOctets(offset: fixture.count, count: 1),
                        sourceLocation: sourceLocation)
}
