import BLECore

/// One named parameter of a decoded PDU, for structured output such as the JSON lines of the
/// capture decoder. See ``ATTPDU/fields``.
///
/// Names are the parameters' printed names in snake_case, the one spelling each parameter has
/// in the summary line too ("handle", "starting_handle", "offset", "error_code"); each is
/// declared once, with the specification's name beside it, in ATT/Core/Layout/ATTParameters.swift.
public struct ATTField: Hashable, Sendable, CustomStringConvertible {
    /// The parameter's name, snake_case.
    public var name: String
    /// Its value.
    public var value: ATTFieldValue

    /// A field named `name` holding `value`.
    public init(_ name: String, _ value: ATTFieldValue) {
        self.name = name
        self.value = value
    }

    /// "name=value", for logs and test failures.
    public var description: String { "\(name)=\(value)" }
}

/// The value of an ``ATTField``.
public enum ATTFieldValue: Hashable, Sendable, CustomStringConvertible {
    /// An integer parameter: a handle, an offset, an MTU, an opcode or error code octet.
    case integer(Int)
    /// Octets exactly as transmitted: attribute values, never interpreted.
    case octets([UInt8])
    /// A UUID (an attribute type).
    case uuid(BluetoothUUID)
    /// A name the stack derived from a value, such as an error code's name.
    case text(String)
    /// A list of entries, each a list of fields (for example the handle-value pairs of
    /// ATT_READ_BY_TYPE_RSP).
    case list([[ATTField]])

    /// A compact text form: integers in decimal, octets in hexadecimal, UUIDs as "2A37",
    /// lists in brackets.
    public var description: String {
        switch self {
        case .integer(let v): return String(v)
        case .octets(let o): return Hex.encode(o)
        case .uuid(let u): return u.description
        case .text(let t): return t
        case .list(let entries):
            return "[" + entries.map { "{" + $0.map(\.description).joined(separator: " ") + "}" }.joined(separator: ", ") + "]"
        }
    }
}
