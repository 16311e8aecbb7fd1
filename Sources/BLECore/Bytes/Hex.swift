/// Hexadecimal text for octets, as the tools of the field print them.
public enum Hex {
    /// Parses hexadecimal octets, ignoring spaces, colons, dashes, newlines and a leading "0x";
    /// a `#` starts a comment that runs to the end of its line.
    ///
    /// - Returns: the octets in text order; nil when a character is not hexadecimal or the
    ///   digits are odd in number (``octets(_:)`` says which).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        try? octets(text)
    }

    /// Parses hexadecimal octets as ``decode(_:)`` does, saying why when it cannot.
    ///
    /// - Returns: the octets in text order.
    /// - Throws: ``HexDecodingError``: a character that is neither a digit nor a separator, a
    ///   separator between the two digits of an octet, or an odd number of digits.
    public static func octets(_ text: some StringProtocol) throws(HexDecodingError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8? = nil
        var inComment = false
        var previous: UInt8 = 0
        var digits = 0
        for (offset, c) in text.utf8.enumerated() {
            defer { previous = c }
            if inComment { if c == 0x0A { inComment = false }; continue }
            if c == UInt8(ascii: "#") { inComment = true; continue }
            if c == UInt8(ascii: "x") || c == UInt8(ascii: "X"), previous == UInt8(ascii: "0"), high == 0 {
                high = nil
                digits -= 1
                continue
            }
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "-"), 0x0A, 0x0D, 0x09:
                if high != nil { throw HexDecodingError(.splitOctet, at: offset, in: text) }
                continue
            default: throw HexDecodingError(.notHexadecimal, at: offset, in: text)
            }
            digits += 1
            if let h = high { out.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        guard high == nil else { throw HexDecodingError(oddDigits: digits) }
        return out
    }

    /// "0x003f": a 16-bit value (a handle, a connection handle, a PSM) as "0x" and four
    /// lower-case digits, most significant first.
    public static func hex16(_ value: UInt16) -> String {
        var out = TextOutput(capacity: 6)
        write16(value, to: &out)
        return out.string
    }

    /// Appends ``hex16(_:)``'s text ("0x003f") to `out`.
    public static func write16(_ value: UInt16, to out: inout TextOutput) {
        out.write("0x")
        out.writeHex(UInt64(value), digits: 4)
    }

    /// Lower-case hexadecimal digits for `octets`, separated by `separator`.
    public static func encode(_ octets: [UInt8], separator: String = "") -> String {
        octets.withUnsafeBufferPointer { encode(buffer: $0, separator: separator) }
    }

    /// Lower-case hexadecimal digits for `octets`, separated by `separator`.
    public static func encode(_ octets: ArraySlice<UInt8>, separator: String = "") -> String {
        octets.withUnsafeBufferPointer { encode(buffer: $0, separator: separator) }
    }

    /// Lower-case hexadecimal digits for `octets`, separated by `separator` (any collection of
    /// octets; arrays and their slices take the overloads above, which need no copy).
    public static func encode<C: Collection>(_ octets: C, separator: String = "") -> String where C.Element == UInt8 {
        encode(Array(octets), separator: separator)
    }

    /// The digits written by ``TextOutput/writeHex(_:separator:)-(UnsafeBufferPointer<UInt8>,_)``
    /// into a writer of their own.
    static func encode(buffer: UnsafeBufferPointer<UInt8>, separator: String) -> String {
        guard !buffer.isEmpty else { return "" }
        var out = TextOutput(capacity: 2 * buffer.count + separator.utf8.count * (buffer.count - 1))
        out.writeHex(buffer, separator: separator)
        return out.string
    }
}
