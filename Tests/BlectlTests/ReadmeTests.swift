import Foundation
import Testing

/// README.md cannot drift from the code: its library example is the example package's code.
@Suite("README")
struct ReadmeTests {
    static func readme() throws -> String {
        try String(contentsOf: BlectlRun.root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    @Test("the quick-start code in README equals Examples/LibraryQuickStart's main.swift, and its output the expected output")
    func quickStartInReadme() throws {
        let readme = try Self.readme()
        let example = BlectlRun.root.appendingPathComponent("Examples/LibraryQuickStart")
        let main = try String(contentsOf: example.appendingPathComponent("Sources/LibraryQuickStart/main.swift"), encoding: .utf8)
        let expected = try String(contentsOf: example.appendingPathComponent("expected-output.txt"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- quickstart:begin"))
        let end = try #require(readme.range(of: "<!-- quickstart:end -->"))
        let block = readme[begin.upperBound..<end.lowerBound]
        let code = try #require(block.range(of: "```swift\n"))
        #expect(String(block[code.upperBound...]).hasSuffix("```\n"))
        #expect(String(block[code.upperBound...].dropLast(4)) == main)
        #expect(readme.contains("$ swift run --package-path Examples/LibraryQuickStart\n" + expected + "```"))
    }
}
