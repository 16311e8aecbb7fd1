import BLECore

/// The URI AD data (AD type 0x24, CSS Part A, 1.18): a URI in UTF-8 whose scheme name is replaced
/// by a code point from the URI scheme name string mapping in Assigned Numbers (2.7), written as
/// the URI's first UTF-8 character. "https://example.com" goes as U+0017 then "//example.com".
///
/// The code point is kept raw; ``schemeName`` maps it through the generated assigned numbers
/// (``AssignedNumbers/uriSchemeName(_:)``). The rest of the URI is kept as octets, so invalid
/// UTF-8 there loses nothing.
public struct ADURI: Hashable, Sendable, CustomStringConvertible {
    /// The scheme code point (the first character).
    public let scheme: Unicode.Scalar
    /// The octets after the scheme code point, as sent.
    public let restBytes: [UInt8]

    /// A URI from its scheme code point and the octets that follow.
    public init(scheme: Unicode.Scalar, restBytes: [UInt8]) {
        self.scheme = scheme
        self.restBytes = restBytes
    }

    /// A URI from its scheme code point and the text that follows, for example
    /// `ADURI(scheme: "\u{17}", rest: "//example.com")`.
    public init(scheme: Unicode.Scalar, rest: String) {
        self.init(scheme: scheme, restBytes: Array(rest.utf8))
    }

    /// Reads the first UTF-8 character as the scheme code point; nil when the octets are empty
    /// or do not start with a valid UTF-8 character.
    init?(decoding octets: ArraySlice<UInt8>) {
        var iterator = octets.makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        let consumed = UTF8.width(scalar)
        self.scheme = scalar
        self.restBytes = Array(octets.dropFirst(consumed))
    }

    /// The scheme code point's value, for example 0x17.
    public var schemeCodePoint: UInt32 { scheme.value }

    /// The scheme name string for the code point from the assigned numbers ("https:" for 0x17,
    /// "" for 0x01, the empty scheme name); nil for an unassigned code point.
    public var schemeName: String? {
        scheme.value <= 0xFFFF ? AssignedNumbers.uriSchemeName(UInt16(scheme.value)) : nil
    }

    /// The rest of the URI as text; invalid UTF-8 becomes U+FFFD.
    public var rest: String { String(decoding: restBytes, as: UTF8.self) }

    /// The whole URI when the scheme is known: "https://example.com".
    public var uriString: String? { schemeName.map { $0 + rest } }

    var dataCount: Int { scheme.utf8.count + restBytes.count }

    func write(to w: inout ByteWriter) {
        w.writeBytes(scheme.utf8)
        w.writeBytes(restBytes)
    }

    /// `"https://example.com"`, or `scheme 0x00B9 "rest"` when the scheme is not known.
    public var description: String {
        if let uriString { return uriString.debugDescription }
        return "scheme 0x\(ADText.hex(scheme.value)) \(rest.debugDescription)"
    }
}
