import BLECore

/// Why a JSON database (docs/gatt-database-json.md) could not be loaded or written. Every case
/// that concerns a member names it by its path from the top, for example
/// `services[2].characteristics[0].uuid`.
public enum GATTDatabaseJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadableFile(path: String, reason: String)
    /// The text is not strict JSON (RFC 8259): the error gives the line, the column and what
    /// was expected there.
    case syntax(JSONSyntaxError)
    /// A required member is absent.
    case missingMember(path: String)
    /// A member the format does not define (often a misspelling).
    case unknownMember(path: String)
    /// A member of the wrong JSON type; `expected` says what the format wants.
    case wrongType(path: String, expected: String)
    /// A member of the right type whose value is not allowed.
    case invalidValue(path: String, reason: String)
    /// A `handler` member names handlers the loader was not given.
    case unknownHandler(path: String, name: String)
    /// The definitions are well formed JSON but do not make a database; the builder's error
    /// names the member by the same path.
    case database(GATTDatabaseError)
    /// Writing JSON: a value the format cannot express, such as dynamic handlers without a name.
    case notRepresentable(path: String, reason: String)

    /// The fault in one line, starting with the member path ("services[0].uuid: missing") or,
    /// for a syntax error, the place ("line 12, column 5: expected ',' or '}' after an object member").
    public var description: String {
        switch self {
        case let .unreadableFile(path, reason): return "\(path): \(reason)"
        case let .syntax(error): return error.description
        case let .missingMember(path): return "\(path): missing"
        case let .unknownMember(path): return "\(path): unknown member"
        case let .wrongType(path, expected): return "\(path): expected \(expected)"
        case let .invalidValue(path, reason): return "\(path): \(reason)"
        case let .unknownHandler(path, name): return "\(path): no handlers named \"\(name)\""
        case let .database(error): return error.description
        case let .notRepresentable(path, reason): return "\(path): \(reason)"
        }
    }
}
