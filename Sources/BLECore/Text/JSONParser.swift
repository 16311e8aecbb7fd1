/// The state machine behind ``JSONReader``: one pass over the octets with an explicit stack of
/// open arrays and objects (never recursion), so the depth of the input costs heap, not stack,
/// and is bounded by `maximumDepth`.
struct JSONParser {
    private let text: [UInt8]
    private let maximumDepth: Int
    private let rejectsDuplicateNames: Bool
    private let recordsPositions: Bool
    private var index = 0
    /// The current line (from 1) and the offset where it starts, kept up to date while skipping
    /// whitespace: the only place a line feed may appear outside an error.
    private var line = 1
    private var lineStart = 0
    private(set) var positions: [JSONPath: JSONSourcePosition] = [:]
    /// The last position recorded (its line's start, offset and column): values come in text
    /// order, so each column is counted on from the last one on the same line, never from the
    /// line's start again (a long one-line text stays linear).
    private var lastRecorded = (lineStart: -1, offset: 0, column: 1)

    /// A place remembered for later: its line and column are worked out only when needed.
    private struct Mark {
        var offset: Int
        var line: Int
        var lineStart: Int
    }

    /// The open arrays and objects, innermost last. Their contents live in stacks of their own
    /// (``Open``), mutated in place through the last element, so adding a value never copies
    /// what the container already holds.
    private enum OpenKind { case array, object }

    /// The open containers: their kinds in nesting order, and the contents of each kind.
    private struct Open {
        var kinds: [OpenKind] = []
        var arrays: [[JSONValue]] = []
        var objects: [OpenObject] = []
    }

    /// An object still open: the members so far, the name of the member whose value comes next,
    /// and every name seen (as octets, so only identical names are duplicates) with where it was.
    private struct OpenObject {
        var members: [(String, JSONValue)] = []
        var name: String
        var names: SeenNames
    }

    /// The member names of one object so far, as octets, each with where it was. A short list
    /// while the object is small (most are: no hashing, one allocation), a table once it holds
    /// more than `listLimit` names (so a large object stays linear).
    private struct SeenNames {
        static let listLimit = 16
        private var list: [(octets: [UInt8], mark: Mark)] = []
        private var table: [[UInt8]: Mark] = [:]

        /// Records `octets` at `mark`; returns where the same name was before, if it was.
        mutating func insert(_ octets: [UInt8], at mark: Mark) -> Mark? {
            if table.isEmpty {
                if let earlier = list.first(where: { $0.octets == octets }) { return earlier.mark }
                if list.count < Self.listLimit {
                    if list.isEmpty { list.reserveCapacity(Self.listLimit) }
                    list.append((octets, mark))
                    return nil
                }
                for (name, at) in list { table[name] = at }
                list = []
            }
            if let earlier = table[octets] { return earlier }
            table[octets] = mark
            return nil
        }
    }

    /// What came before the value about to be read, for the error when there is none.
    private enum ValueContext {
        case top, arrayStart, afterComma, afterColon

        var expectation: String {
            switch self {
            case .top: return "a value"
            case .arrayStart: return "a value or ']'"
            case .afterComma: return "a value after ','"
            case .afterColon: return "a value after ':'"
            }
        }
    }

    init(_ text: [UInt8], maximumDepth: Int, rejectsDuplicateNames: Bool, recordsPositions: Bool) {
        self.text = text
        self.maximumDepth = maximumDepth
        self.rejectsDuplicateNames = rejectsDuplicateNames
        self.recordsPositions = recordsPositions
    }

    // MARK: Structure (RFC 8259, 2, 4, 5)

    /// The one value of the whole text.
    ///
    /// - Throws: ``JSONSyntaxError`` at the first fault.
    mutating func parse() throws(JSONSyntaxError) -> JSONValue {
        // A UTF-8 byte order mark may be ignored (8.1).
        if text.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
        var open = Open()
        var context = ValueContext.top
        nextValue: while true {
            skipWhitespace()
            if recordsPositions && index < text.count { record(open) }
            var value: JSONValue
            switch peek {
            case UInt8(ascii: "{"):
                try checkDepth(open)
                index += 1
                skipWhitespace()
                if peek == UInt8(ascii: "}") {
                    index += 1
                    value = .object([])
                } else {
                    var names = SeenNames()
                    let name = try memberName(afterComma: false, names: &names)
                    open.kinds.append(.object)
                    open.objects.append(OpenObject(name: name, names: names))
                    context = .afterColon
                    continue nextValue
                }
            case UInt8(ascii: "["):
                try checkDepth(open)
                index += 1
                skipWhitespace()
                if peek == UInt8(ascii: "]") {
                    index += 1
                    value = .array([])
                } else {
                    open.kinds.append(.array)
                    open.arrays.append([])
                    context = .arrayStart
                    continue nextValue
                }
            case UInt8(ascii: "\""): value = .string(try string().text)
            case UInt8(ascii: "-"), .some(UInt8(ascii: "0")...UInt8(ascii: "9")): value = try number()
            case UInt8(ascii: "t"): try literal("true"); value = .bool(true)
            case UInt8(ascii: "f"): try literal("false"); value = .bool(false)
            case UInt8(ascii: "n"): try literal("null"); value = .null
            default:
                if context == .afterComma && peek == UInt8(ascii: "]") {
                    throw failure("expected a value after ','; JSON allows no trailing comma")
                }
                throw expected(context.expectation)
            }
            // The value is whole: add it to the innermost open array or object, and close every
            // container that ends after it.
            while let kind = open.kinds.last {
                skipWhitespace()
                switch kind {
                case .array:
                    open.arrays[open.arrays.count - 1].append(value)
                    if peek == UInt8(ascii: ",") {
                        index += 1
                        context = .afterComma
                        continue nextValue
                    }
                    guard peek == UInt8(ascii: "]") else { throw expected("',' or ']' after an array element") }
                    index += 1
                    open.kinds.removeLast()
                    value = .array(open.arrays.removeLast())
                case .object:
                    let last = open.objects.count - 1
                    open.objects[last].members.append((open.objects[last].name, value))
                    if peek == UInt8(ascii: ",") {
                        index += 1
                        open.objects[last].name = try memberName(afterComma: true, names: &open.objects[last].names)
                        context = .afterColon
                        continue nextValue
                    }
                    guard peek == UInt8(ascii: "}") else { throw expected("',' or '}' after an object member") }
                    index += 1
                    open.kinds.removeLast()
                    value = .object(open.objects.removeLast().members)
                }
            }
            skipWhitespace()
            guard index == text.count else { throw expected("the end of the text after the value") }
            return value
        }
    }

    /// A member's name and the colon after it; the name must not repeat one in `names`.
    private mutating func memberName(afterComma: Bool, names: inout SeenNames) throws(JSONSyntaxError) -> String {
        skipWhitespace()
        guard peek == UInt8(ascii: "\"") else {
            if afterComma && peek == UInt8(ascii: "}") {
                throw failure("expected a member name (a string) after ','; JSON allows no trailing comma")
            }
            throw expected(afterComma ? "a member name (a string) after ','" : "a member name (a string) or '}'")
        }
        let start = mark()
        let (name, octets) = try string()
        if rejectsDuplicateNames {
            if let first = names.insert(octets, at: start) {
                throw failure("duplicate member \"\(name)\" in one object (the first is at \(position(first)))", at: start)
            }
        }
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else { throw expected("':' after the member name") }
        index += 1
        return name
    }

    private func checkDepth(_ open: Open) throws(JSONSyntaxError) {
        guard open.kinds.count < maximumDepth else {
            throw failure("more than \(maximumDepth) nested arrays and objects")
        }
    }

    /// Remembers where the value about to be read starts, by its path.
    private mutating func record(_ open: Open) {
        var path: [JSONPath.Component] = []
        path.reserveCapacity(open.kinds.count)
        var arrays = open.arrays.makeIterator()
        var objects = open.objects.makeIterator()
        for kind in open.kinds {
            switch kind {
            case .array: path.append(.index(arrays.next()?.count ?? 0))
            case .object: path.append(.member(objects.next()?.name ?? ""))
            }
        }
        let here = mark()
        var column: Int
        var from: Int
        if lastRecorded.lineStart == here.lineStart && lastRecorded.offset <= here.offset {
            (column, from) = (lastRecorded.column, lastRecorded.offset)
        } else {
            (column, from) = (1, here.lineStart)
        }
        while from < here.offset {
            if text[from] & 0xC0 != 0x80 { column += 1 }
            from += 1
        }
        lastRecorded = (here.lineStart, here.offset, column)
        positions[JSONPath(path)] = JSONSourcePosition(line: here.line, column: column, offset: here.offset)
    }

    // MARK: Literals and numbers (RFC 8259, 3, 6)

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let start = mark()
        for octet in word.utf8 {
            guard peek == octet else { throw failure("expected '\(word)'", at: start) }
            index += 1
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = mark()
        if peek == UInt8(ascii: "-") { index += 1 }
        guard let first = peek, Self.isDigit(first) else { throw failure("expected a digit after '-'") }
        index += 1
        if first == UInt8(ascii: "0"), let next = peek, Self.isDigit(next) {
            throw failure("a number may not start with 0 followed by more digits", at: start)
        }
        skipDigits()
        var isInteger = true
        if peek == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let digit = peek, Self.isDigit(digit) else { throw failure("expected a digit after '.'") }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek, Self.isDigit(digit) else { throw failure("expected a digit in the exponent") }
            skipDigits()
        }
        let literal = String(decoding: text[start.offset..<index], as: UTF8.self)
        if isInteger, let integer = Int(literal) { return .int(integer) }
        guard let double = Double(literal), double.isFinite else {
            throw failure("the number is beyond the range of a 64-bit floating-point value", at: start)
        }
        return .double(double)
    }

    private static func isDigit(_ octet: UInt8) -> Bool { octet >= UInt8(ascii: "0") && octet <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let octet = peek, Self.isDigit(octet) { index += 1 }
    }

    // MARK: Strings (RFC 8259, 7, 8.1)

    /// A string from its opening quote to its closing one: the text, and its octets in UTF-8.
    private mutating func string() throws(JSONSyntaxError) -> (text: String, octets: [UInt8]) {
        let open = mark()
        index += 1
        var out: [UInt8] = []
        while true {
            guard let octet = peek else { throw failure("the string that starts here has no closing '\"'", at: open) }
            switch octet {
            case UInt8(ascii: "\""):
                index += 1
                return (String(decoding: out, as: UTF8.self), out)
            case UInt8(ascii: "\\"):
                try escape(into: &out, stringStart: open)
            case 0x00..<0x20:
                throw failure("control character \(Self.scalarName(UInt32(octet))) in a string; write it as an escape "
                              + (octet == 0x0A ? "(\\n), or close the string before the line ends" : "such as \\n, \\t or \\u00XX"))
            case 0x80...:
                try utf8Sequence(into: &out)
            default:
                // A run of printable ASCII, the common case, is taken whole.
                let run = index
                index += 1
                while index < text.count, Self.isPlainASCII(text[index]) { index += 1 }
                out.append(contentsOf: text[run..<index])
            }
        }
    }

    /// An octet a string holds as itself: ASCII that needs no escape (``JSONValue/mustEscape(_:)``).
    private static func isPlainASCII(_ octet: UInt8) -> Bool {
        octet < 0x80 && !JSONValue.mustEscape(octet)
    }

    /// One escape, from its backslash.
    private mutating func escape(into out: inout [UInt8], stringStart: Mark) throws(JSONSyntaxError) {
        let start = mark()
        index += 1
        guard let kind = peek else { throw failure("the string that starts here has no closing '\"'", at: stringStart) }
        let escaped = printableCharacter()
        index += 1
        switch kind {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(kind)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hexQuad(escapeStart: start)
            var scalar = unit
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed at once by a low one (7).
                guard peek == UInt8(ascii: "\\"), index + 1 < text.count, text[index + 1] == UInt8(ascii: "u") else {
                    throw failure("\\u\(Self.hex(unit)) is a high surrogate not followed by a low surrogate (\\uDC00...\\uDFFF)", at: start)
                }
                let lowStart = mark()
                index += 2
                let low = try hexQuad(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw failure("\\u\(Self.hex(unit)) is a high surrogate not followed by a low surrogate (\\uDC00...\\uDFFF)", at: start)
                }
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            case 0xDC00...0xDFFF:
                throw failure("\\u\(Self.hex(unit)) is a low surrogate without a high surrogate before it", at: start)
            default: break
            }
            // Every value left is a Unicode scalar: surrogates were paired or refused above.
            guard let decoded = Unicode.Scalar(scalar) else {
                throw failure("\\u\(Self.hex(unit)) is not a Unicode scalar", at: start)
            }
            UTF8.encode(decoded) { out.append($0) }
        default:
            let what = (0x21...0x7E).contains(kind) ? "\\\(Character(Unicode.Scalar(kind))) is" : "a backslash followed by \(escaped) is"
            throw failure(what + " not an escape; JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX", at: start)
        }
    }

    /// The four hexadecimal digits after `\u`.
    private mutating func hexQuad(escapeStart: Mark) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let octet = peek, let digit = Self.hexDigit(octet) else {
                throw failure("expected four hexadecimal digits after \\u", at: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexDigit(_ octet: UInt8) -> UInt32? {
        switch octet {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(octet - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(octet - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(octet - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// One multi-octet UTF-8 sequence, checked per RFC 3629's table: no overlong forms, no
    /// encoded surrogates (U+D800...U+DFFF), nothing above U+10FFFF.
    private mutating func utf8Sequence(into out: inout [UInt8]) throws(JSONSyntaxError) {
        let lead = text[index]
        let second: ClosedRange<UInt8>
        let count: Int
        switch lead {
        case 0xC2...0xDF: (second, count) = (0x80...0xBF, 2)
        case 0xE0: (second, count) = (0xA0...0xBF, 3)
        case 0xE1...0xEC, 0xEE...0xEF: (second, count) = (0x80...0xBF, 3)
        case 0xED: (second, count) = (0x80...0x9F, 3)
        case 0xF0: (second, count) = (0x90...0xBF, 4)
        case 0xF1...0xF3: (second, count) = (0x80...0xBF, 4)
        case 0xF4: (second, count) = (0x80...0x8F, 4)
        default: throw failure("invalid UTF-8: octet 0x\(Self.hex(UInt32(lead), width: 2)) cannot start a character")
        }
        for k in 1..<count {
            let allowed = k == 1 ? second : 0x80...0xBF
            guard index + k < text.count, allowed.contains(text[index + k]) else {
                throw failure("invalid UTF-8: the sequence that starts with 0x\(Self.hex(UInt32(lead), width: 2)) is cut short or malformed")
            }
        }
        out.append(contentsOf: text[index..<(index + count)])
        index += count
    }

    // MARK: Positions and errors

    private var peek: UInt8? { index < text.count ? text[index] : nil }

    /// Skips JSON's four whitespace characters (2), counting lines.
    private mutating func skipWhitespace() {
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private func mark() -> Mark { Mark(offset: index, line: line, lineStart: lineStart) }

    /// The line and column of `mark`: the column counts the scalars (the octets that do not
    /// continue a UTF-8 sequence) from the line's start.
    private func position(_ mark: Mark) -> JSONSourcePosition {
        let end = min(mark.offset, text.count)
        var column = 1
        var i = mark.lineStart
        while i < end {
            if text[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return JSONSourcePosition(line: mark.line, column: column, offset: mark.offset)
    }

    private func failure(_ reason: String, at mark: Mark? = nil) -> JSONSyntaxError {
        JSONSyntaxError(position: position(mark ?? self.mark()), reason: reason)
    }

    /// "expected X" at the current place, with a hint for what people most often write
    /// instead of JSON.
    private func expected(_ what: String) -> JSONSyntaxError {
        switch peek {
        case nil: return failure("expected \(what), but the text ends")
        case UInt8(ascii: "/")?: return failure("expected \(what); JSON has no comments")
        case UInt8(ascii: "'")?: return failure("expected \(what); JSON strings take double quotes")
        case _?: return failure("expected \(what), not \(printableCharacter())")
        }
    }

    /// The character at the current place as a reader sees it: 'x' when printable, else
    /// U+XXXX, or the octet when it does not start valid UTF-8.
    private func printableCharacter() -> String {
        guard let octet = peek else { return "the end of the text" }
        guard octet >= 0x80 else { return Self.printable(octet) }
        var iterator = text[index...].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) {
            return scalar.properties.generalCategory == .format || scalar.properties.isWhitespace
                ? Self.scalarName(scalar.value) : "'\(Character(scalar))' (\(Self.scalarName(scalar.value)))"
        }
        return "octet 0x\(Self.hex(UInt32(octet), width: 2))"
    }

    /// An ASCII octet as a reader sees it: 'x' when printable, else U+XXXX; other octets as 0xXX.
    private static func printable(_ octet: UInt8) -> String {
        switch octet {
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(octet)))'"
        case 0x00...0x7F: return scalarName(UInt32(octet))
        default: return "octet 0x\(hex(UInt32(octet), width: 2))"
        }
    }

    private static func scalarName(_ value: UInt32) -> String { "U+" + hex(value) }

    private static func hex(_ value: UInt32, width: Int = 4) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
