/// A JSON value for the machine-readable output of `blectl` (one object per line), written
/// without Foundation so it stays cheap on hot output paths (RFC 8259).
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

    /// Compact JSON text with no whitespace between tokens.
    public var description: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// Appends compact JSON text to `out`.
    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? String(d) : "null"
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// Whether a string's octet must be written as an escape: '"', '\\' and the control
    /// characters U+0000-U+001F (RFC 8259, 7). Every other octet, multi-octet UTF-8 included,
    /// may stand as itself. The writer escapes these, and the parser reads the rest in runs.
    static func mustEscape(_ octet: UInt8) -> Bool {
        octet < 0x20 || octet == UInt8(ascii: "\"") || octet == UInt8(ascii: "\\")
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        // Most strings need no escape: append them whole. Only ASCII octets are escaped, and
        // every octet of a multi-octet UTF-8 sequence is 0x80 or above, so the octets decide.
        guard s.utf8.contains(where: mustEscape) else {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
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
