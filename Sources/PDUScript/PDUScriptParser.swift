import BLECore

/// Why a PDU script could not be read: the line and what was wrong with it.
public struct PDUScriptParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: String

    public var description: String { "line \(line): \(reason)" }
}

extension PDUScript {
    /// Parses a script's text (docs/pdu-scripts.md).
    ///
    /// - Parameter name: the script's name, usually its file name without the extension.
    /// - Throws: ``PDUScriptParseError`` naming the line: an unknown keyword or header, a header
    ///   after the first step, bad hexadecimal, a pattern with `...` anywhere but at the end, a
    ///   `result` with no `trigger` before it, or a missing `role:`.
    public init(parsing text: String, name: String) throws(PDUScriptParseError) {
        var role: Role?
        var testID: String?
        var database: String?
        var security: String?
        var steps: [Step] = []
        var sawTrigger = false

        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = rawLine.prefix { $0 != "#" }.trimmingCharacters(in: " \t\r")
            guard !line.isEmpty else { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            let keyword = words[0]
            let rest = Array(words.dropFirst())

            if keyword.hasSuffix(":") {
                guard steps.isEmpty else {
                    throw PDUScriptParseError(line: lineNumber, reason: "header \(keyword) after the first step")
                }
                let value = rest.joined(separator: " ")
                switch keyword {
                case "role:":
                    guard let r = Role(rawValue: value) else {
                        throw PDUScriptParseError(line: lineNumber, reason: "role must be server or client, not \(value)")
                    }
                    role = r
                case "test:": testID = value
                case "database:": database = value
                case "security:": security = value
                default: throw PDUScriptParseError(line: lineNumber, reason: "unknown header \(keyword)")
                }
                continue
            }

            switch keyword {
            case "send":
                steps.append(.send(try Self.octets(rest, line: lineNumber), line: lineNumber))
            case "expect":
                steps.append(.expect(try Self.pattern(rest, line: lineNumber), line: lineNumber))
            case "expect-nothing":
                steps.append(.expectNothing(line: lineNumber))
            case "trigger":
                guard let action = rest.first else {
                    throw PDUScriptParseError(line: lineNumber, reason: "trigger needs an action")
                }
                steps.append(.trigger(name: action, arguments: Array(rest.dropFirst()), line: lineNumber))
                sawTrigger = true
            case "result":
                guard sawTrigger else { throw PDUScriptParseError(line: lineNumber, reason: "result with no trigger before it") }
                steps.append(.result(rest.joined(separator: " "), line: lineNumber))
            default:
                throw PDUScriptParseError(line: lineNumber, reason: "unknown step \(keyword)")
            }
        }
        guard let role else { throw PDUScriptParseError(line: 1, reason: "the script has no role: header") }
        self.init(name: name, testID: testID, role: role, database: database, security: security, steps: steps)
    }

    static func octets(_ words: [String], line: Int) throws(PDUScriptParseError) -> [UInt8] {
        guard let octets = Hex.decode(words.joined(separator: " ")), !octets.isEmpty else {
            throw PDUScriptParseError(line: line, reason: "not a PDU in hexadecimal: \(words.joined(separator: " "))")
        }
        return octets
    }

    static func pattern(_ words: [String], line: Int) throws(PDUScriptParseError) -> PDUPattern {
        var octets: [UInt8?] = []
        var allowsMore = false
        for (i, word) in words.enumerated() {
            if word == "..." {
                guard i == words.count - 1 else { throw PDUScriptParseError(line: line, reason: "... must come last") }
                allowsMore = true
            } else if word == "??" {
                octets.append(nil)
            } else {
                guard let bytes = Hex.decode(word), !bytes.isEmpty else {
                    throw PDUScriptParseError(line: line, reason: "not hexadecimal: \(word)")
                }
                octets += bytes.map { Optional($0) }
            }
        }
        guard !octets.isEmpty else { throw PDUScriptParseError(line: line, reason: "expect needs a PDU") }
        return PDUPattern(octets: octets, allowsMore: allowsMore)
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var view = self[...]
        while let first = view.first, characters.contains(first) { view = view.dropFirst() }
        while let last = view.last, characters.contains(last) { view = view.dropLast() }
        return String(view)
    }
}
