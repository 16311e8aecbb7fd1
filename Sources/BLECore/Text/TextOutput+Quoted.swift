extension TextOutput {
    /// Appends a name from the air (UTF-8 octets as received) in double quotes, escaped exactly
    /// as Swift's `String.debugDescription` escapes the decoded text, so that no name can start a
    /// line of its own or forge output: `ABCD` gives `"ABCD"`, a quote `\"`, a tab `\t`, a
    /// line feed `\n`, other control characters `\u{1B}`; octets that are not UTF-8 become U+FFFD.
    ///
    /// ASCII names (nearly all of them) are escaped here octet by octet; any other name goes
    /// through `debugDescription` itself, whose rules for non-ASCII text (combining marks after
    /// an escape, for example) are the standard library's.
    public mutating func writeQuoted(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            write(string: String(decoding: bytes, as: UTF8.self).debugDescription)
            return
        }
        // Printable ASCII but the quote, apostrophe and backslash stands as it is: one copy.
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x27 && $0 != 0x5C }) {
            let start = claim(bytes.count + 2)
            start[0] = UInt8(ascii: "\"")
            if let source = bytes.baseAddress { (start + 1).initialize(from: source, count: bytes.count) }
            start[bytes.count + 1] = UInt8(ascii: "\"")
            return
        }
        reserveCapacity(bytes.count + 2)
        write(octet: UInt8(ascii: "\""))
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"):
                write(octet: UInt8(ascii: "\\"))
                write(octet: b)
            case 0x20..<0x7F:
                write(octet: b)
            case 0x00: write("\\0")
            case 0x09: write("\\t")
            case 0x0A: write("\\n")
            case 0x0D: write("\\r")
            default:
                write("\\u{")
                writeHex(UInt64(b), digits: 2, uppercase: true)
                write(octet: UInt8(ascii: "}"))
            }
        }
        write(octet: UInt8(ascii: "\""))
    }

    /// Appends the quoted name of ``writeQuoted(_:)-(UnsafeBufferPointer<UInt8>)`` for `bytes`.
    public mutating func writeQuoted(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { writeQuoted($0) }
    }

    /// Appends the quoted name of ``writeQuoted(_:)-(UnsafeBufferPointer<UInt8>)`` for `bytes`.
    public mutating func writeQuoted(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { writeQuoted($0) }
    }

    /// Appends the printable ASCII of `bytes` (0x20...0x7E) and drops every other octet: the
    /// text of a monitor note or a PacketLogger text record, which can then forge no line.
    public mutating func writePrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
        for b in bytes where b >= 0x20 && b < 0x7F { write(octet: b) }
    }
}
