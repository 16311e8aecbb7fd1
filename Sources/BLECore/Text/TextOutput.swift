/// Text written as UTF-8 octets into one growable array: the lines of a decoded capture, and the
/// `description` of every value on that path, without a `String` per field or per line.
///
/// A writer holds its octets in memory of its own (see ``withOctets(_:)``) and only appends to them. Each `write` appends the UTF-8 of one
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
    /// The octets' memory: allocated once per growth, freed with the last writer that refers to
    /// it. Copies of a writer share it until one of them writes (copy on write), so a write never
    /// changes another writer's text.
    @usableFromInline final class Storage: @unchecked Sendable {
        /// The first octet.
        @usableFromInline let base: UnsafeMutablePointer<UInt8>
        /// How many octets fit.
        @usableFromInline let capacity: Int

        /// Memory for `capacity` octets (at least 16), uninitialised.
        @usableFromInline init(capacity: Int) {
            self.capacity = Swift.max(capacity, 16)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }
    }

    /// Where the octets are; shared with copies of this writer until one of them writes.
    @usableFromInline var storage: Storage
    /// How many octets of ``storage`` hold text: the writer's ``count``.
    @usableFromInline var written: Int

    /// An empty writer with room for `capacity` octets before it grows.
    public init(capacity: Int = 256) {
        storage = Storage(capacity: capacity)
        written = 0
    }

    /// The number of octets written so far (UTF-8 code units, not characters).
    @inlinable public var count: Int { written }

    /// Whether nothing has been written.
    @inlinable public var isEmpty: Bool { written == 0 }

    /// The text written so far, as UTF-8 octets (valid UTF-8 when every piece written was), copied.
    public var octets: [UInt8] { withOctets { Array($0) } }

    /// Calls `body` with the octets written so far, in place (valid only during the call).
    @inlinable public func withOctets<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: storage.base, count: written)) }
    }

    /// The text written so far, decoded from its octets (an invalid sequence, which no writer
    /// function produces, would become U+FFFD).
    public var string: String { withOctets { String(decoding: $0, as: UTF8.self) } }

    /// Forgets the text, keeping the storage for the next line.
    public mutating func removeAll() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(capacity: storage.capacity) }
        written = 0
    }

    /// Forgets the last `k` octets written (a separator written before a name that was not there).
    ///
    /// - Precondition: `k` is at most ``count``, and the octets left end a whole character.
    public mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= written, "removeLast(\(k)) of \(written) octets")
        written -= k
    }

    /// Room for `n` more octets, for the caller to fill at once: the octets are counted as written.
    @inlinable @inline(__always)
    mutating func claim(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(written &+ n > storage.capacity || !isKnownUniquelyReferenced(&storage)) { makeRoom(n) }
        let start = storage.base + written
        written &+= n
        return start
    }

    /// New storage, with room for `n` more octets and at least twice the old capacity, holding
    /// the octets written so far.
    @usableFromInline mutating func makeRoom(_ n: Int) {
        let grown = Storage(capacity: Swift.max(2 * storage.capacity, written + n))
        grown.base.initialize(from: storage.base, count: written)
        storage = grown
    }

    /// Appends `n` octets that `body` writes into the buffer it is given (all `n` of them, as
    /// ASCII or whole UTF-8 sequences): for a field whose layout is known in advance, such as a
    /// column of a packet line.
    public mutating func withUnsafeSpace(_ n: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        guard n > 0 else { return }
        body(UnsafeMutableBufferPointer(start: claim(n), count: n))
    }

    /// Makes room for `n` more octets without writing them (a line about to be written).
    public mutating func reserveCapacity(_ n: Int) {
        if written + n > storage.capacity || !isKnownUniquelyReferenced(&storage) { makeRoom(n) }
    }

    // MARK: Text

    /// Appends the UTF-8 of a literal ("Flags ", " dBm"), copied from the program's constant data.
    @inlinable @inline(__always) public mutating func write(_ literal: StaticString) {
        if literal.hasPointerRepresentation {
            let n = literal.utf8CodeUnitCount
            guard n > 0 else { return }
            claim(n).initialize(from: literal.utf8Start, count: n)
        } else {
            literal.withUTF8Buffer { write(octets: $0) }
        }
    }

    /// Appends the UTF-8 of `text`, unchanged (no escaping: for text the program made, not text
    /// from the air; see ``writeQuoted(_:)-(UnsafeBufferPointer<UInt8>)``).
    @inlinable public mutating func write(string text: String) {
        var text = text
        text.withUTF8 { write(octets: $0) }
    }

    /// Appends the UTF-8 of `text`, unchanged (a name in an assigned-numbers table, for example).
    @inlinable public mutating func write(substring text: Substring) {
        var text = text
        text.withUTF8 { write(octets: $0) }
    }

    /// Appends one octet: an ASCII character (`UInt8(ascii: " ")`) or a part of UTF-8 the caller
    /// has checked.
    @inlinable @inline(__always) public mutating func write(octet: UInt8) { claim(1).pointee = octet }

    /// Appends `text`'s octets as they are: ASCII or UTF-8 the caller has checked.
    @inlinable @inline(__always) public mutating func write(octets text: UnsafeBufferPointer<UInt8>) {
        guard let source = text.baseAddress, !text.isEmpty else { return }
        claim(text.count).initialize(from: source, count: text.count)
    }

    /// Appends `octet` `count` times (padding: spaces before a right-aligned column); nothing
    /// when `count` is 0 or less.
    @inlinable public mutating func write(octet: UInt8, count: Int) {
        guard count > 0 else { return }
        claim(count).initialize(repeating: octet, count: count)
    }

    /// Appends another writer's text.
    public mutating func write(_ other: TextOutput) { other.withOctets { write(octets: $0) } }

    // MARK: Numbers

    /// Appends `value` in decimal: "-58", "0", "10931"; a minus sign for a negative value, no
    /// grouping, no leading zeros.
    @inlinable public mutating func writeDecimal(_ value: Int) {
        if value < 0 { write(octet: UInt8(ascii: "-")) }
        writeDecimal(UInt64(value.magnitude))
    }

    /// Appends `value` in decimal with at least `minimumDigits` digits, zeros in front:
    /// `writeDecimal(5, minimumDigits: 6)` gives "000005" (the microseconds of a time).
    @inlinable public mutating func writeDecimal(_ value: UInt64, minimumDigits: Int = 1) {
        let digits = Swift.max(Self.decimalDigitCount(value), minimumDigits)
        let start = claim(digits)
        var v = value
        var k = digits
        repeat {
            k -= 1
            start[k] = UInt8(truncatingIfNeeded: v % 10) &+ UInt8(ascii: "0")
            v /= 10
        } while k > 0
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
        let start = claim(digits)
        for i in 0..<digits {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(4 * (digits - 1 - i))) & 0x0F
            start[i] = uppercase ? Self.upperHexDigit(nibble) : Self.lowerHexDigit(nibble)
        }
    }

    /// Appends two lower-case hexadecimal digits for each octet of `bytes`, in order, with
    /// `separator` between octets: `[0x0A, 0xFF]` gives "0aff", or "0a ff" with " " (the text of
    /// ``Hex/encode(_:separator:)-([UInt8],_)``).
    public mutating func writeHex(_ bytes: UnsafeBufferPointer<UInt8>, separator: String = "") {
        guard !bytes.isEmpty else { return }
        guard !separator.isEmpty else {
            let start = claim(2 * bytes.count)
            for i in 0..<bytes.count {
                start[2 &* i] = Self.lowerHexDigit(bytes[i] >> 4)
                start[2 &* i &+ 1] = Self.lowerHexDigit(bytes[i] & 0x0F)
            }
            return
        }
        var separator = separator
        separator.withUTF8 { sep in
            let start = claim(2 * bytes.count + sep.count * (bytes.count - 1))
            var j = 0
            for (i, b) in bytes.enumerated() {
                if i > 0 {
                    for s in sep { start[j] = s; j += 1 }
                }
                start[j] = Self.lowerHexDigit(b >> 4)
                start[j + 1] = Self.lowerHexDigit(b & 0x0F)
                j += 2
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

    /// The lower-case ASCII digit for a nibble (0...15).
    @inlinable @inline(__always) public static func lowerHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &- 10 &+ nibble
    }

    /// The upper-case ASCII digit for a nibble (0...15).
    @inlinable @inline(__always) public static func upperHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "A") &- 10 &+ nibble
    }
}
