import Testing
import BLECore
@testable import HCI

/// Octets from hexadecimal text (spaces, comments and newlines allowed).
func adBytes(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    try #require(Hex.decode(text), "bad hex fixture", sourceLocation: sourceLocation)
}

/// Decodes one AD structure payload and returns its only element, requiring that it is the only one.
func onlyElement(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ADElement {
    let ad = AdvertisingData(decoding: try adBytes(text, sourceLocation: sourceLocation))
    try #require(ad.elements.count == 1, "expected one AD structure in \(text)", sourceLocation: sourceLocation)
    return ad.elements[0]
}

/// Encode -> decode -> encode: the octets of `bytes` come back from their typed structures, and the
/// structures come back from those octets.
func expectADRoundTrip(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let decoded = AdvertisingData(decoding: bytes)
    #expect(decoded.isWellFormed, "\(decoded.diagnostics)", sourceLocation: sourceLocation)
    let reencoded = try AdvertisingData(structures: decoded.structures)
    #expect(reencoded.encoded == Array(bytes[..<decoded.significantLength]), sourceLocation: sourceLocation)
    #expect(reencoded.structures == decoded.structures, sourceLocation: sourceLocation)
    let again = try AdvertisingData(structures: reencoded.structures)
    #expect(again.encoded == reencoded.encoded, sourceLocation: sourceLocation)
}

