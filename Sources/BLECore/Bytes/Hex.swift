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
        String(unsafeUninitializedCapacity: 6) { out in
            out[0] = UInt8(ascii: "0")
            out[1] = UInt8(ascii: "x")
            for i in 0..<4 { out[2 + i] = digit(UInt8(truncatingIfNeeded: value >> UInt16(12 - 4 * i)) & 0x0F) }
            return 6
        }
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

    /// Appends the lower-case hexadecimal digits of `octets`, separated by `separator`, to `text`:
    /// the characters ``encode(_:separator:)-(ArraySlice<UInt8>,_)`` returns, without a string of
    /// their own (for lines that hold many fields).
    public static func append(_ octets: ArraySlice<UInt8>, separator: String = "", to text: inout String) {
        octets.withUnsafeBufferPointer { append(buffer: $0, separator: separator, to: &text) }
    }

    /// Appends the lower-case hexadecimal digits of `octets`, separated by `separator`, to `text`
    /// (see ``append(_:separator:to:)-(ArraySlice<UInt8>,_,_)``).
    public static func append(_ octets: [UInt8], separator: String = "", to text: inout String) {
        octets.withUnsafeBufferPointer { append(buffer: $0, separator: separator, to: &text) }
    }

    /// The digits written into a small buffer on the stack, appended to `text` a piece at a time.
    static func append(buffer: UnsafeBufferPointer<UInt8>, separator: String, to text: inout String) {
        guard !buffer.isEmpty else { return }
        guard separator.isEmpty else {
            text += encode(buffer: buffer, separator: separator)
            return
        }
        text.reserveCapacity(text.utf8.count + 2 * buffer.count)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { digits in
            var j = 0
            for b in buffer {
                digits[j] = digit(b >> 4)
                digits[j + 1] = digit(b & 0x0F)
                j += 2
                if j == 64 {
                    text.appendASCII(UnsafeBufferPointer(digits))
                    j = 0
                }
            }
            text.appendASCII(UnsafeBufferPointer(rebasing: digits[0..<j]))
        }
    }

    /// The digits written straight into the string's storage: no array of digits, no copy.
    static func encode(buffer: UnsafeBufferPointer<UInt8>, separator: String) -> String {
        guard !buffer.isEmpty else { return "" }
        var separator = separator
        return separator.withUTF8 { sep in
            let capacity = 2 * buffer.count + sep.count * (buffer.count - 1)
            return String(unsafeUninitializedCapacity: capacity) { out in
                var j = 0
                for i in 0..<buffer.count {
                    if i > 0 {
                        for s in sep { out[j] = s; j += 1 }
                    }
                    let b = buffer[i]
                    out[j] = digit(b >> 4)
                    out[j + 1] = digit(b & 0x0F)
                    j += 2
                }
                return j
            }
        }
    }

    /// The lower-case ASCII digit for a nibble (0...15).
    @inline(__always) static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }
}
