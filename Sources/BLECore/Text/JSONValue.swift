/// A JSON value as a tree (RFC 8259): what ``JSONReader`` reads, and what `blectl` writes for
/// output made once (a capture's summary, a GATT database, a state file) and for small objects
/// (`blectl scan --json`'s discoveries, a GATT value update). Each packet of `blectl decode
/// --json` and `blectl monitor --json` is written token by token with ``JSONWriter`` instead,
/// which also writes this tree's text.
///
/// Object members keep their insertion order, so output is stable and easy to diff.
public indirect enum JSONValue: Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// Compact JSON text with no whitespace between tokens (written by ``JSONWriter``).
    public var description: String {
        var json = JSONWriter()
        json.value(self)
        return json.output.string
    }

    /// Appends compact JSON text to `out`.
    public func write(to out: inout String) {
        out += description
    }

    /// Whether a string's octet must be written as an escape: '"', '\\' and the control
    /// characters U+0000-U+001F (RFC 8259, 7). Every other octet, multi-octet UTF-8 included,
    /// may stand as itself. ``JSONWriter`` escapes these, and the parser reads the rest in runs.
    static func mustEscape(_ octet: UInt8) -> Bool {
        octet < 0x20 || octet == UInt8(ascii: "\"") || octet == UInt8(ascii: "\\")
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
}
