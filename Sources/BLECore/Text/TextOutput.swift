/// Text written as UTF-8 octets into one growable array: the lines of a decoded capture, and the
/// `description` of every value on that path, without a `String` per field or per line.
///
/// A writer holds ``octets`` and only appends to them. Each `write` appends the UTF-8 of one
/// piece: a literal, a string, a decimal or hexadecimal number, a quoted name. A `description`
/// is made by writing into a fresh writer and reading ``string``; a line printer writes straight
/// into the writer whose octets go to the file descriptor (blectl's `OutputBuffer`), so the text
/// of both is the same by construction.
///
/// ```swift
/// var out = TextOutput()
/// out.write("Flags 0x")
/// out.writeHex(0x06, digits: 2, uppercase: true)
/// out.string   // "Flags 0x06"
/// ```
public struct TextOutput: Sendable {
    /// The text written so far, as UTF-8 octets (valid UTF-8 when every piece written was).
    public var octets: [UInt8]

    /// An empty writer with room for `capacity` octets before it grows.
    public init(capacity: Int = 256) {
        octets = []
        octets.reserveCapacity(capacity)
    }

    /// The number of octets written so far (UTF-8 code units, not characters).
    @inlinable public var count: Int { octets.count }

    /// Whether nothing has been written.
    @inlinable public var isEmpty: Bool { octets.isEmpty }

    /// The text written so far, decoded from ``octets`` (an invalid sequence, which no writer
    /// function produces, would become U+FFFD).
    public var string: String { String(decoding: octets, as: UTF8.self) }

    /// Forgets the text, keeping the storage for the next line.
    @inlinable public mutating func removeAll() { octets.removeAll(keepingCapacity: true) }

    // MARK: Text

    /// Appends the UTF-8 of a literal ("Flags ", " dBm"), copied from the program's constant data.
    @inlinable public mutating func write(_ literal: StaticString) {
        literal.withUTF8Buffer { octets.append(contentsOf: $0) }
    }

    /// Appends the UTF-8 of `text`, unchanged (no escaping: for text the program made, not text
    /// from the air; see ``writeQuoted(_:)``).
    @inlinable public mutating func write(string text: String) {
        var text = text
        text.withUTF8 { octets.append(contentsOf: $0) }
    }

    /// Appends the UTF-8 of `text`, unchanged (a name in an assigned-numbers table, for example).
    @inlinable public mutating func write(substring text: Substring) {
        var text = text
        text.withUTF8 { octets.append(contentsOf: $0) }
    }

    /// Appends one octet: an ASCII character (`UInt8(ascii: " ")`) or a part of UTF-8 the caller
    /// has checked.
    @inlinable public mutating func write(octet: UInt8) { octets.append(octet) }

    /// Appends `text`'s octets as they are: ASCII or UTF-8 the caller has checked.
    @inlinable public mutating func write(octets text: UnsafeBufferPointer<UInt8>) {
        octets.append(contentsOf: text)
    }

    /// Appends `octet` `count` times (padding: spaces before a right-aligned column).
    @inlinable public mutating func write(octet: UInt8, count: Int) {
        guard count > 0 else { return }
        octets.append(contentsOf: repeatElement(octet, count: count))
    }

    /// Appends another writer's text.
    @inlinable public mutating func write(_ other: TextOutput) { octets.append(contentsOf: other.octets) }

    // MARK: Numbers

    /// Appends `value` in decimal: "-58", "0", "10931"; a minus sign for a negative value, no
    /// grouping, no leading zeros.
    @inlinable public mutating func writeDecimal(_ value: Int) {
        if value < 0 { octets.append(UInt8(ascii: "-")) }
        writeDecimal(UInt64(value.magnitude))
    }

    /// Appends `value` in decimal with at least `minimumDigits` digits, zeros in front:
    /// `writeDecimal(5, minimumDigits: 6)` gives "000005" (the microseconds of a time).
    @inlinable public mutating func writeDecimal(_ value: UInt64, minimumDigits: Int = 1) {
        let digits = Self.decimalDigitCount(value)
        write(octet: UInt8(ascii: "0"), count: minimumDigits - digits)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var v = value
            var k = digits
            repeat {
                k -= 1
                buffer[k] = UInt8(truncatingIfNeeded: v % 10) &+ UInt8(ascii: "0")
                v /= 10
            } while k > 0
            octets.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<digits]))
        }
    }

    /// The number of decimal digits of `value`: 1 for 0, 20 at most.
    @inlinable public static func decimalDigitCount(_ value: UInt64) -> Int {
        var n = 1, v = value
        while v >= 10 { v /= 10; n += 1 }
        return n
    }

    /// Appends the low `digits` nibbles of `value` in hexadecimal, most significant first, zeros
    /// in front, no "0x": `writeHex(0x4C, digits: 4, uppercase: true)` gives "004C".
    ///
    /// - Precondition: `digits` is 1...16.
    @inlinable public mutating func writeHex(_ value: UInt64, digits: Int, uppercase: Bool = false) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            for i in 0..<digits {
                let nibble = UInt8(truncatingIfNeeded: value >> UInt64(4 * (digits - 1 - i))) & 0x0F
                buffer[i] = uppercase ? Self.upperHexDigit(nibble) : Self.lowerHexDigit(nibble)
            }
            octets.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<digits]))
        }
    }

    /// Appends two lower-case hexadecimal digits for each octet of `bytes`, in order, with
    /// `separator` between octets: `[0x0A, 0xFF]` gives "0aff", or "0a ff" with " " (the text of
    /// ``Hex/encode(_:separator:)-([UInt8],_)``).
    public mutating func writeHex(_ bytes: UnsafeBufferPointer<UInt8>, separator: String = "") {
        guard !bytes.isEmpty else { return }
        if separator.isEmpty {
            writeHexDigits(bytes)
            return
        }
        var separator = separator
        separator.withUTF8 { sep in
            octets.reserveCapacity(octets.count + bytes.count * (2 + sep.count))
            for (i, b) in bytes.enumerated() {
                if i > 0 { octets.append(contentsOf: sep) }
                octets.append(Self.lowerHexDigit(b >> 4))
                octets.append(Self.lowerHexDigit(b & 0x0F))
            }
        }
    }

    /// Appends the lower-case hexadecimal digits of `bytes` (see ``writeHex(_:separator:)-(UnsafeBufferPointer<UInt8>,_)``).
    public mutating func writeHex(_ bytes: ArraySlice<UInt8>, separator: String = "") {
        bytes.withUnsafeBufferPointer { writeHex($0, separator: separator) }
    }

    /// Appends the lower-case hexadecimal digits of `bytes` (see ``writeHex(_:separator:)-(UnsafeBufferPointer<UInt8>,_)``).
    public mutating func writeHex(_ bytes: [UInt8], separator: String = "") {
        bytes.withUnsafeBufferPointer { writeHex($0, separator: separator) }
    }

    /// The digits with no separator, made 64 at a time in a buffer on the stack and appended in
    /// one copy each.
    private mutating func writeHexDigits(_ bytes: UnsafeBufferPointer<UInt8>) {
        octets.reserveCapacity(octets.count + 2 * bytes.count)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { digits in
            var j = 0
            for b in bytes {
                digits[j] = Self.lowerHexDigit(b >> 4)
                digits[j + 1] = Self.lowerHexDigit(b & 0x0F)
                j += 2
                if j == 64 {
                    octets.append(contentsOf: UnsafeBufferPointer(digits))
                    j = 0
                }
            }
            octets.append(contentsOf: UnsafeBufferPointer(rebasing: digits[0..<j]))
        }
    }

    /// The lower-case ASCII digit for a nibble (0...15).
    @inlinable @inline(__always) public static func lowerHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &- 10 &+ nibble
    }

    /// The upper-case ASCII digit for a nibble (0...15).
    @inlinable @inline(__always) public static func upperHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "A") &- 10 &+ nibble
    }
}
