/// A place in a JSON text, as an editor shows it: the line and column, both from 1, and the
/// octet offset from 0.
///
/// Lines end at a line feed (U+000A); a carriage return before it belongs to the line it ends.
/// Columns count Unicode scalars, so "é" is one column and a tab is one column.
public struct JSONSourcePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column on that line, from 1, in Unicode scalars.
    public var column: Int
    /// The offset of the octet in the text, from 0.
    public var offset: Int

    /// A position; `line` and `column` count from 1, `offset` from 0.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// "line 12, column 5".
    public var description: String { "line \(line), column \(column)" }

    /// Earlier in the text first.
    public static func < (lhs: JSONSourcePosition, rhs: JSONSourcePosition) -> Bool { lhs.offset < rhs.offset }
}
