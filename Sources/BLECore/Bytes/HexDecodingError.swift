/// Why text is not hexadecimal octets (``Hex/octets(_:)``), and where.
public struct HexDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Hashable, Sendable {
        /// A character that is neither a hexadecimal digit nor a separator (space, colon, dash,
        /// tab, line end) nor the start of a `#` comment.
        case notHexadecimal
        /// A separator between the two digits of one octet ("0 a").
        case splitOctet
        /// The digits are odd in number, so the last octet has only one.
        case oddDigitCount
    }

    /// What is wrong.
    public var reason: Reason
    /// The character at fault, for ``Reason/notHexadecimal`` and ``Reason/splitOctet``.
    public var character: Character?
    /// The column of that character (from 1, in Unicode scalars); nil for an odd digit count.
    public var column: Int?
    /// How many digits there are, for ``Reason/oddDigitCount``.
    public var digitCount: Int?

    /// The error for the character at UTF-8 offset `offset` of `text`.
    init(_ reason: Reason, at offset: Int, in text: some StringProtocol) {
        self.reason = reason
        let before = String(decoding: text.utf8.prefix(offset), as: UTF8.self)
        column = before.unicodeScalars.count + 1
        character = String(decoding: text.utf8.dropFirst(offset), as: UTF8.self).unicodeScalars.first.map(Character.init)
    }

    /// The error for `count` digits, an odd number.
    init(oddDigits count: Int) {
        reason = .oddDigitCount
        digitCount = count
    }

    /// "'z' at column 1 is not a hexadecimal digit", "a separator at column 2 splits an octet",
    /// "5 hexadecimal digits, an odd number: the last octet lacks its second digit".
    public var description: String {
        let shown: String
        switch character {
        case " "?: shown = "a space"
        case "\t"?: shown = "a tab"
        case "\r"?, "\r\n"?: shown = "a carriage return"
        case "\n"?: shown = "a line end"
        case let c?: shown = "'\(c)'"
        case nil: shown = "a character"
        }
        switch reason {
        case .notHexadecimal: return "\(shown) at column \(column ?? 0) is not a hexadecimal digit"
        case .splitOctet: return "\(shown) at column \(column ?? 0) splits an octet between its two digits"
        case .oddDigitCount: return "\(digitCount ?? 0) hexadecimal digits, an odd number: the last octet lacks its second digit"
        }
    }
}
