import Foundation
import Testing
@testable import blectl

/// docs/architecture.md lists blectl's commands twice (the layer diagram and the table of
/// targets); both lists follow the commands the dispatcher runs.
@Suite("docs/architecture.md's lists of blectl commands")
struct ArchitectureCommandListTests {
    @Test("the layer diagram and the targets table name every command blectl runs, and no other")
    func listsMatchTheCommands() throws {
        let document = "docs/architecture.md"
        let lines = try String(contentsOf: BlectlRun.root.appendingPathComponent(document), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        // help and version are every tool's; the lists name what blectl does.
        let commands = Set(BlectlCommand.groups.flatMap(\.commands).map(\.syntax.name)).subtracting(["help", "version"])
        let places: [(prefix: String, words: (Substring) -> [String])] = [
            ("blectl (CLI: ", { line in
                line.dropFirst("blectl (CLI: ".count).prefix { $0 != ";" }.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            }),
            ("| `blectl` |", { line in
                // The backquoted words of the last cell that are not options: `decode`, `serve`, ...
                let cell = line.split(separator: "|", omittingEmptySubsequences: false).dropLast().last ?? ""
                return cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                    .filter { $0.offset % 2 == 1 && !$0.element.hasPrefix("-") }.map { String($0.element) }
            }),
        ]
        for (prefix, words) in places {
            let index = try #require(lines.firstIndex { $0.hasPrefix(prefix) }, "\(document) has no line starting '\(prefix)'")
            let listed = Set(words(lines[index]))
            for missing in commands.subtracting(listed).sorted() {
                Issue.record("\(document) line \(index + 1) does not name \(missing), a command blectl runs")
            }
            for extra in listed.subtracting(commands).sorted() {
                Issue.record("\(document) line \(index + 1) names \(extra), which is not a command blectl runs")
            }
        }
    }
}
