import Testing

/// The rules by which README's runnable examples are read and compared (``ReadmeExample``).
@Suite("README's runnable-example rules")
struct ReadmeExampleTests {
    static let readme = """
        text
        <!-- runnable -->
        ```sh
        $ printf 'a\\nb\\n' |
            cat
        a        # a comment for the reader
        b
        $ swift run blectl version
        blectl ...
        ```
        ```sh
        $ not marked
        ```
        """

    @Test("a marked block gives each command, continued after '|', with the lines after it as its output")
    func blocksAndCommands() throws {
        let examples = try ReadmeExample.all(in: Self.readme)
        #expect(examples.map(\.line) == [4, 8])
        #expect(examples.map(\.command) == ["printf 'a\\nb\\n' |\n    cat", "swift run blectl version"])
        #expect(examples[0].expected == [.exact("a", line: 6), .exact("b", line: 7)])
        #expect(examples[1].expected == [.prefix("blectl ", line: 9)])
        #expect(examples[1].shellCommand == "blectl version")
    }

    @Test("'...' alone is any number of lines, 'text...' one line starting with text, the rest exact; every line must be accounted for")
    func comparison() {
        let example = ReadmeExample(line: 1, command: "c", expected: [
            .exact("first", line: 2), .anyLines(line: 3), .prefix("last ", line: 4)])
        #expect(example.mismatch("first\nlast line\n") == nil)
        #expect(example.mismatch("first\none\ntwo\nlast line  \n") == nil)
        #expect(example.mismatch("first\nlast\n") == "README.md line 4 expects 'last ...'; its line 2 is 'last'")
        #expect(example.mismatch("first\n") == "README.md line 4 expects 'last ...'; the output ended after 1 line")
        #expect(example.mismatch("frist\nlast line\n") == "README.md line 2 expects 'first'; its line 1 is 'frist'")
        let exact = ReadmeExample(line: 1, command: "c", expected: [.exact("only", line: 2)])
        #expect(exact.mismatch("only\nmore\n") == "README.md line 1: every expected line matched, but the output goes on at its line 2: 'more'")
    }

    @Test("a marker not right before a ```sh block, or a block without a command, is an error naming the line")
    func markupMistakes() {
        #expect(throws: ReadmeExample.MarkupError.self) { try ReadmeExample.all(in: "<!-- runnable -->\n\n```sh\n$ x\n```\n") }
        #expect(throws: ReadmeExample.MarkupError.self) { try ReadmeExample.all(in: "<!-- runnable -->\n```sh\noutput\n```\n") }
        #expect(throws: ReadmeExample.MarkupError.self) { try ReadmeExample.all(in: "<!-- runnable -->\n```sh\n$ x\n") }
    }
}
