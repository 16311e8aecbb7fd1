/// A strict JSON reader (RFC 8259) that says where a text goes wrong: every error is a
/// ``JSONSyntaxError`` with the line and column (from 1) and what was expected there. Foundation's
/// reader on Linux gives no positions and accepts more than JSON, which is why this one exists.
///
/// What it accepts is RFC 8259's grammar and no more:
/// - a value of any type at the top (section 2), between whitespace of space, tab, line feed and
///   carriage return only;
/// - no trailing commas, no comments, no single quotes, no unquoted names (sections 4 and 5);
/// - numbers without a leading zero, a leading `+`, a bare `.` or exponent, `NaN` or `Infinity`
///   (section 6);
/// - strings with no unescaped control characters U+0000...U+001F, only the escapes of section 7,
///   `\u` surrogates only in pairs (a high one, then a low one), and valid UTF-8 (section 8.1:
///   no overlong forms, no encoded surrogates, nothing above U+10FFFF);
/// - by default, no two members with the same name in one object (section 4 says names SHOULD be
///   unique; a duplicate is almost always a mistake, and readers disagree on which one wins).
///
/// Where RFC 8259 leaves the choice to the implementation (the JSONTestSuite's `i_` cases):
/// - a UTF-8 byte order mark at the very start is skipped (section 8.1 allows it);
/// - an integer that fits `Int` is ``JSONValue/int(_:)``; any other number is
///   ``JSONValue/double(_:)``, rounded to the nearest 64-bit value (section 6), so integers
///   beyond 64 bits lose precision and an exponent far below the range gives 0;
/// - a number beyond the range of a 64-bit floating-point value (such as `1e400`) is an error;
/// - a lone or reversed surrogate in a `\u` escape is an error (a Swift `String` cannot hold it);
/// - text that is not UTF-8 (UTF-16 with or without a byte order mark, ISO 8859-1) is an error;
/// - arrays and objects nest at most ``maximumDepth`` deep (512 by default), so hostile input
///   cannot exhaust the stack; the reader itself is iterative and never recurses.
///
/// Object members keep their order in ``JSONValue/object(_:)``.
public struct JSONReader: Sendable {
    /// The nesting depth allowed when none is given: 512 arrays and objects.
    public static let defaultMaximumDepth = 512

    /// The deepest nesting of arrays and objects accepted; one more is an error at the bracket
    /// that opens it.
    public var maximumDepth: Int
    /// Whether two members with the same name (compared octet for octet, after unescaping) in one
    /// object are an error; when false both are kept, in order.
    public var rejectsDuplicateNames: Bool

    /// A reader with the given limits.
    ///
    /// - Parameters:
    ///   - maximumDepth: the deepest nesting of arrays and objects accepted (at least 1).
    ///   - rejectsDuplicateNames: whether a repeated member name in one object is an error.
    public init(maximumDepth: Int = JSONReader.defaultMaximumDepth, rejectsDuplicateNames: Bool = true) {
        self.maximumDepth = max(1, maximumDepth)
        self.rejectsDuplicateNames = rejectsDuplicateNames
    }

    /// The value a JSON text holds.
    ///
    /// - Parameter text: the text in UTF-8.
    /// - Throws: ``JSONSyntaxError`` with the position of the first fault.
    public func value(parsing text: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(text, maximumDepth: maximumDepth, rejectsDuplicateNames: rejectsDuplicateNames,
                                recordsPositions: false)
        return try parser.parse()
    }

    /// The value a JSON text holds; the same as reading its UTF-8 octets.
    ///
    /// - Throws: ``JSONSyntaxError`` with the position of the first fault.
    public func value(parsing text: String) throws(JSONSyntaxError) -> JSONValue {
        try value(parsing: Array(text.utf8))
    }

    /// The value a JSON text holds, with where each value in it starts. Every value's path is
    /// kept, so time and memory grow with the sum of the values' depths: meant for configuration
    /// files such as GATT databases, not bulk data (use ``value(parsing:)`` there).
    ///
    /// - Parameter text: the text in UTF-8.
    /// - Throws: ``JSONSyntaxError`` with the position of the first fault.
    public func document(parsing text: [UInt8]) throws(JSONSyntaxError) -> JSONDocument {
        var parser = JSONParser(text, maximumDepth: maximumDepth, rejectsDuplicateNames: rejectsDuplicateNames,
                                recordsPositions: true)
        let value = try parser.parse()
        return JSONDocument(value: value, positions: parser.positions)
    }
}

/// A parsed JSON text: its value, and where each value inside it starts (the first character of
/// a scalar, the opening bracket of an array or object).
public struct JSONDocument: Sendable {
    /// The top-level value.
    public let value: JSONValue
    /// The start of every value, by its path from the top. With duplicate names allowed, a
    /// repeated member's path gives the last one.
    public let positions: [JSONPath: JSONSourcePosition]

    /// A document of `value` whose values start at `positions`.
    public init(value: JSONValue, positions: [JSONPath: JSONSourcePosition]) {
        self.value = value
        self.positions = positions
    }

    /// Where the value at `path` starts; nil when there is no value at that path.
    public func position(of path: JSONPath) -> JSONSourcePosition? { positions[path] }
}
