import Foundation
import Testing

/// The repository's documents say what they mean: a reader of a clone has no issue tracker, so
/// "issue 4, check 2" or "#12" tells them nothing.
@Suite("documents without issue numbers")
struct IssueReferenceTests {
    /// "issue 4", "issues 4 and 5", "Issue #4", and "#12" standing alone.
    static let pattern = #"\bissues?\s*#?\d+|(?:^|[\s(\[])#\d+\b"#

    /// Every Markdown file of the repository, relative to its root, without build folders.
    static func documents() -> [String] {
        let root = BlectlRun.root.path
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            let parts = path.split(separator: "/")
            if parts.contains(where: { $0.hasPrefix(".") }) {
                enumerator?.skipDescendants()
                continue
            }
            if path.hasSuffix(".md") { found.append(path) }
        }
        return found.sorted()
    }

    @Test("no Markdown file refers to an issue by its number")
    func noIssueNumbers() throws {
        let pattern = try NSRegularExpression(pattern: Self.pattern, options: [.caseInsensitive])
        let documents = Self.documents()
        #expect(documents.contains("README.md") && documents.contains("docs/conformance.md"), "found \(documents)")
        for document in documents {
            let text = try String(contentsOf: BlectlRun.root.appendingPathComponent(document), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                for match in pattern.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                    let found = (line as NSString).substring(with: match.range).trimmingCharacters(in: .whitespaces)
                    Issue.record("\(document) line \(number + 1): '\(found)' refers to an issue by number; say what it means instead: \(line)")
                }
            }
        }
    }

    @Test("no Markdown file keeps the conflict markers of a merge")
    func noConflictMarkers() throws {
        for document in Self.documents() {
            let text = try String(contentsOf: BlectlRun.root.appendingPathComponent(document), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.hasPrefix("<<<<<<< ") || line.hasPrefix(">>>>>>> ") || line == "=======" {
                Issue.record("\(document) line \(number + 1): a merge's conflict marker: \(line)")
            }
        }
    }
}
