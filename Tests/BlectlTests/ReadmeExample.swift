import Foundation

/// A command example in README.md that is marked runnable, and how its output is compared.
///
/// The marker is `<!-- runnable -->` on the line right before a ```` ```sh ```` block. In the
/// block, a line that starts with `$ ` is a command (continued on the next line while it ends
/// in `|` or `\`); the lines after it, up to the next command or the end of the block, are what
/// it prints on standard output. So that the example reads well in README, they are compared
/// under these rules, and no others:
/// - `swift run blectl` runs the blectl built beside the tests; commands run in `/bin/sh` from
///   the repository's root, and must exit 0;
/// - an expected line that is only `...` (indented or not) stands for any number of lines, none
///   included;
/// - an expected line that ends in `...` stands for one line that starts with the text before
///   the `...`;
/// - two or more spaces and then `#` start a comment for the reader: they and the rest of the
///   line are not part of the expected line;
/// - spaces at the end of a line do not count.
struct ReadmeExample {
    /// The HTML comment that marks the next ```` ```sh ```` block as runnable.
    static let marker = "<!-- runnable -->"

    /// One line of expected output and its line number in README.md.
    enum Expected: Equatable {
        /// `...`: any number of lines.
        case anyLines(line: Int)
        /// `text...`: one line starting with `text`.
        case prefix(String, line: Int)
        /// One line, exactly.
        case exact(String, line: Int)

        var line: Int {
            switch self {
            case .anyLines(let line), .prefix(_, let line), .exact(_, let line): return line
            }
        }

        /// The expected line as README shows it, for messages.
        var shown: String {
            switch self {
            case .anyLines: return "..."
            case .prefix(let text, _): return text + "..."
            case .exact(let text, _): return text
            }
        }

        func matches(_ actual: Substring) -> Bool {
            let actual = actual.trimmingTrailingSpaces
            switch self {
            case .anyLines: return true
            case .prefix(let text, _): return actual.hasPrefix(text)
            case .exact(let text, _): return actual == text
            }
        }
    }

    /// A mistake in how README marks an example.
    struct MarkupError: Error, CustomStringConvertible {
        let description: String
    }

    /// The line number of the command's first line (its `$ `) in README.md.
    let line: Int
    /// The command as README shows it, continuation lines included.
    let command: String
    /// What it prints.
    let expected: [Expected]

    /// The command as the shell runs it: `swift run blectl` becomes `blectl`, which the runner
    /// finds first on the PATH.
    var shellCommand: String {
        command.replacingOccurrences(of: "swift run blectl ", with: "blectl ")
    }

    /// Every runnable example in `readme`, in order.
    ///
    /// - Throws: ``MarkupError`` naming the line of a marker not followed by a ```` ```sh ````
    ///   block, of a block that never ends, or of a block with no command.
    static func all(in readme: String) throws -> [ReadmeExample] {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        var examples: [ReadmeExample] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].trimmingTrailingSpaces == marker else { continue }
            guard index + 1 < lines.count, lines[index + 1].trimmingTrailingSpaces == "```sh" else {
                throw MarkupError(description: "README.md line \(index + 1): \(marker) must come right before a ```sh block")
            }
            guard let end = lines[(index + 2)...].firstIndex(where: { $0.trimmingTrailingSpaces == "```" }) else {
                throw MarkupError(description: "README.md line \(index + 2): the runnable ```sh block never ends")
            }
            let block = Array(lines[(index + 2)..<end].enumerated()).map { (number: index + 3 + $0.offset, text: $0.element) }
            guard block.first?.text.hasPrefix("$ ") == true else {
                throw MarkupError(description: "README.md line \(index + 3): a runnable block starts with a command, '$ ...'")
            }
            var position = 0
            while position < block.count {
                let start = block[position]
                var command = [String(start.text.dropFirst(2))]
                position += 1
                while let last = command.last?.trimmingTrailingSpaces, last.hasSuffix("|") || last.hasSuffix("\\"), position < block.count {
                    command.append(String(block[position].text))
                    position += 1
                }
                var expected: [Expected] = []
                while position < block.count, !block[position].text.hasPrefix("$ ") {
                    expected.append(Self.expected(block[position].text, line: block[position].number))
                    position += 1
                }
                examples.append(ReadmeExample(line: start.number, command: command.joined(separator: "\n"), expected: expected))
            }
            index = end
        }
        return examples
    }

    /// One line of a block as an expected line, under the rules above.
    static func expected(_ text: Substring, line: Int) -> Expected {
        var text = text
        if let comment = text.range(of: "  #") {
            text = text[..<comment.lowerBound]
        }
        let trimmed = text.trimmingTrailingSpaces
        if trimmed.drop(while: { $0 == " " }) == "..." { return .anyLines(line: line) }
        if trimmed.hasSuffix("...") { return .prefix(String(trimmed.dropLast(3)), line: line) }
        return .exact(String(trimmed), line: line)
    }

    /// Why `output` is not what the example shows, or nil when it is.
    func mismatch(_ output: String) -> String? {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        // reachable[j][i]: the first j expected lines match the first i output lines.
        var reachable = [[Bool]](repeating: [Bool](repeating: false, count: lines.count + 1), count: expected.count + 1)
        reachable[0][0] = true
        for (j, item) in expected.enumerated() {
            for i in 0...lines.count where reachable[j][i] {
                if case .anyLines = item {
                    for k in i...lines.count { reachable[j + 1][k] = true }
                } else if i < lines.count, item.matches(lines[i]) {
                    reachable[j + 1][i + 1] = true
                }
            }
        }
        if reachable[expected.count][lines.count] { return nil }
        // The furthest expected line that could be reached, and the last output line it met
        // there (after a `...`, the one nearest the end).
        let matched = (0...expected.count).last { j in reachable[j].contains(true) } ?? 0
        let at = reachable[matched].indices.last { $0 < lines.count && reachable[matched][$0] }
        if matched == expected.count, let at {
            return "README.md line \(line): every expected line matched, but the output goes on at its line \(at + 1): '\(lines[at])'"
        }
        let wanted = expected[matched]
        let got = at.map { "its line \($0 + 1) is '\(lines[$0])'" } ?? "the output ended after \(lines.count) line\(lines.count == 1 ? "" : "s")"
        return "README.md line \(wanted.line) expects '\(wanted.shown)'; \(got)"
    }
}

extension StringProtocol {
    /// The text without the spaces at its end.
    var trimmingTrailingSpaces: SubSequence {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return self[..<end]
    }
}
