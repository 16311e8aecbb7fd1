/// Why a text is not JSON (RFC 8259), and where: the position of the first character that does not
/// fit, or of the construct that is wrong (the backslash of a bad escape, the opening quote of a
/// string that never ends, the first digit of a number out of range).
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the fault is.
    public var position: JSONSourcePosition
    /// What was expected or what is wrong, in words: "expected ',' or '}' after an object member".
    public var reason: String

    /// A syntax error at `position`.
    public init(position: JSONSourcePosition, reason: String) {
        self.position = position
        self.reason = reason
    }

    /// "line 12, column 5: expected ',' or '}' after an object member".
    public var description: String { "\(position): \(reason)" }
}
