/// JSON text written token by token into a ``TextOutput``, with no ``JSONValue`` tree in
/// between: for output that makes one object per record (`blectl decode --json`), where a tree
/// of arrays and strings per record costs more than the text (RFC 8259).
///
/// The writer places the commas: a member or element after another gets one. It does not check
/// the nesting; each `begin` needs its `end`, and an object's values each follow a ``key(_:)-(StaticString)``.
/// Strings are escaped where RFC 8259, 7 requires it ('"', '\\' and U+0000-U+001F: `\"`, `\\`,
/// `\n`, `\r`, `\t`, and `\u00XX` for the other control characters), so text from the air cannot
/// end a string or a line; ``JSONValue`` writes its text through this writer, so both escape alike.
///
/// A writer holds one top-level value: call ``removeAll()`` before the next record's object (a
/// second value written after the first would follow a comma).
///
/// ```swift
/// var json = JSONWriter()
/// json.object {
///     $0.member("handle", 3)
///     $0.member("name", "Device Name")
/// }
/// json.output.string   // {"handle":3,"name":"Device Name"}
/// ```
public struct JSONWriter: Sendable {
    /// The text written so far.
    public var output: TextOutput
    /// Whether the next member or element follows another one in its container, so needs a comma.
    private var followsValue = false

    /// A writer that appends to `output`.
    public init(output: TextOutput = TextOutput()) {
        self.output = output
    }

    /// Forgets the text, keeping the storage (the next record's object).
    public mutating func removeAll() {
        output.removeAll()
        followsValue = false
    }

    /// The comma before a member or element that follows another.
    @inline(__always) private mutating func separate() {
        if followsValue { output.write(octet: UInt8(ascii: ",")) }
    }

    /// A value that is one token (a number, a literal, a string): after its comma, `write`
    /// writes it; the next member or element then follows a value.
    @inline(__always) private mutating func scalar(_ write: (inout TextOutput) -> Void) {
        separate()
        write(&output)
        followsValue = true
    }

    // MARK: Containers

    /// Writes "{" (after a comma when it follows a value).
    public mutating func beginObject() { open(UInt8(ascii: "{")) }

    /// Writes "}".
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Writes "[" (after a comma when it follows a value).
    public mutating func beginArray() { open(UInt8(ascii: "[")) }

    /// Writes "]".
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// A container's first octet; its first member or element takes no comma.
    private mutating func open(_ bracket: UInt8) {
        separate()
        output.write(octet: bracket)
        followsValue = false
    }

    /// A container's last octet; the container is a value that the next one follows.
    private mutating func close(_ bracket: UInt8) {
        output.write(octet: bracket)
        followsValue = true
    }

    /// An object whose members `body` writes.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        beginObject()
        body(&self)
        endObject()
    }

    /// An array whose elements `body` writes.
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        beginArray()
        body(&self)
        endArray()
    }

    // MARK: Keys

    /// An object member's name, which the program wrote and which needs no escape ("handle"),
    /// and its colon; the value comes next.
    public mutating func key(_ name: StaticString) {
        separate()
        output.write(octet: UInt8(ascii: "\""))
        output.write(name)
        output.write("\":")
        followsValue = false
    }

    /// An object member's name, escaped (a name from a table or from the air), and its colon;
    /// the value comes next.
    public mutating func key(escaping name: String) {
        separate()
        Self.writeEscaped(name, to: &output)
        output.write(octet: UInt8(ascii: ":"))
        followsValue = false
    }

    // MARK: Values

    /// `null`.
    public mutating func null() {
        scalar { $0.write("null") }
    }

    /// `true` or `false`.
    public mutating func value(_ b: Bool) {
        scalar { $0.write(b ? "true" : "false") }
    }

    /// An integer in decimal.
    public mutating func value(_ i: Int) {
        scalar { $0.writeDecimal(i) }
    }

    /// A number as Swift prints a `Double` (shortest text that reads back the same: "0.5",
    /// "1e-06"); `null` for infinity and NaN, which JSON cannot hold.
    public mutating func value(_ d: Double) {
        scalar { if d.isFinite { $0.write(string: String(d)) } else { $0.write("null") } }
    }

    /// A string, escaped.
    public mutating func value(_ s: String) {
        scalar { Self.writeEscaped(s, to: &$0) }
    }

    /// A string of two lower-case hexadecimal digits per octet ("0aff"), as ``Hex`` writes them.
    public mutating func hexValue(_ octets: [UInt8]) {
        scalar {
            $0.write(octet: UInt8(ascii: "\""))
            $0.writeHex(octets)
            $0.write(octet: UInt8(ascii: "\""))
        }
    }

    /// A string whose text `body` writes into the output (a description that writes itself into
    /// a ``TextOutput``), escaped afterwards when it holds an octet that must be.
    public mutating func stringValue(_ body: (inout TextOutput) -> Void) {
        scalar { out in
            out.write(octet: UInt8(ascii: "\""))
            let start = out.count
            body(&out)
            let needsEscape = out.withOctets { $0[start...].contains(where: JSONValue.mustEscape) }
            if needsEscape {
                let text = out.withOctets { Array($0[start...]) }
                out.removeLast(text.count + 1)
                text.withUnsafeBufferPointer { Self.writeEscaped(octets: $0, to: &out) }
            } else {
                out.write(octet: UInt8(ascii: "\""))
            }
        }
    }

    /// A value given as a tree.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): self.value(b)
        case .int(let i): self.value(i)
        case .double(let d): self.value(d)
        case .string(let s): self.value(s)
        case .array(let items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, item) in members {
                key(escaping: name)
                self.value(item)
            }
            endObject()
        }
    }

    // MARK: Members

    /// A member with an integer value.
    public mutating func member(_ name: StaticString, _ i: Int) {
        key(name)
        value(i)
    }

    /// A member with a string value, escaped.
    public mutating func member(_ name: StaticString, _ s: String) {
        key(name)
        value(s)
    }

    /// A member with a Boolean value.
    public mutating func member(_ name: StaticString, _ b: Bool) {
        key(name)
        value(b)
    }

    /// A member whose value is an object with the members `body` writes.
    public mutating func object(_ name: StaticString, _ body: (inout JSONWriter) -> Void) {
        key(name)
        object(body)
    }

    /// A member whose value is an array with the elements `body` writes.
    public mutating func array(_ name: StaticString, _ body: (inout JSONWriter) -> Void) {
        key(name)
        array(body)
    }

    // MARK: Escapes

    /// `s` in double quotes, with '"', '\\' and the control characters escaped (RFC 8259, 7).
    private static func writeEscaped(_ s: String, to out: inout TextOutput) {
        var s = s
        s.withUTF8 { writeEscaped(octets: $0, to: &out) }
    }

    /// `text` (UTF-8) in double quotes, escaped. Only ASCII octets are escaped, and every octet
    /// of a multi-octet UTF-8 sequence is 0x80 or above, so the octets decide, and most text is
    /// copied whole.
    private static func writeEscaped(octets text: UnsafeBufferPointer<UInt8>, to out: inout TextOutput) {
        out.write(octet: UInt8(ascii: "\""))
        if text.contains(where: JSONValue.mustEscape) {
            for octet in text { writeEscapedOctet(octet, to: &out) }
        } else {
            out.write(octets: text)
        }
        out.write(octet: UInt8(ascii: "\""))
    }

    /// One octet of a string's text: as itself, or as its escape ("\\n", "\\u001b").
    private static func writeEscapedOctet(_ octet: UInt8, to out: inout TextOutput) {
        guard JSONValue.mustEscape(octet) else {
            out.write(octet: octet)
            return
        }
        switch octet {
        case UInt8(ascii: "\""): out.write("\\\"")
        case UInt8(ascii: "\\"): out.write("\\\\")
        case UInt8(ascii: "\n"): out.write("\\n")
        case UInt8(ascii: "\r"): out.write("\\r")
        case UInt8(ascii: "\t"): out.write("\\t")
        default:
            out.write("\\u")
            out.writeHex(UInt64(octet), digits: 4)
        }
    }
}
