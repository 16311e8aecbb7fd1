import Testing
@testable import blectl

/// How a command's arguments are read against its declared options.
@Suite("ParsedArguments")
struct ParsedArgumentsTests {
    static let json = CommandOption.flag("--json")
    static let strict = CommandOption.flag("--strict")
    static let keepGoing = CommandOption.flag("--keep-going")
    static let service = CommandOption.value("--service", "UUID", takes: "a UUID", repeatable: true)
    static let name = CommandOption.value("--name", "NAME", takes: "a name")
    static let syntax = CommandSyntax(name: "example", operands: "FILE", options: [json, strict, keepGoing, service, name], help: "usage")

    @Test("options and operands in any order; a repeated option keeps every value, a single one its last")
    func optionsAndOperands() throws {
        let parsed = try ParsedArguments(["a", "--service", "180D", "--json", "b", "--service", "180F", "--name", "x", "--name", "y"], syntax: Self.syntax)
        #expect(parsed.operands == ["a", "b"])
        #expect(parsed.contains(Self.json))
        #expect(!parsed.contains(Self.strict))
        #expect(parsed.values(of: Self.service) == ["180D", "180F"])
        #expect(parsed.value(of: Self.name) == "y")
        #expect(parsed.value(of: Self.strict) == nil)
    }

    @Test("'-' is an operand (standard input), and a value may start with '-'")
    func dashes() throws {
        let parsed = try ParsedArguments(["-", "--name", "-x"], syntax: Self.syntax)
        #expect(parsed.operands == ["-"])
        #expect(parsed.value(of: Self.name) == "-x")
    }

    @Test("of switches that undo each other, the last given wins")
    func lastSwitchWins() throws {
        #expect(try ParsedArguments(["--strict", "--keep-going"], syntax: Self.syntax).last(of: [Self.keepGoing, Self.strict]) == Self.keepGoing)
        #expect(try ParsedArguments(["--keep-going", "--strict"], syntax: Self.syntax).last(of: [Self.keepGoing, Self.strict]) == Self.strict)
        #expect(try ParsedArguments([], syntax: Self.syntax).last(of: [Self.keepGoing, Self.strict]) == nil)
    }

    @Test("-h or --help stops the reading: a mistake after it is not an error")
    func helpStops() throws {
        let parsed = try ParsedArguments(["a", "--help", "--no-such-option"], syntax: Self.syntax)
        #expect(parsed.wantsHelp)
        #expect(try ParsedArguments(["-h"], syntax: Self.syntax).wantsHelp)
    }

    @Test("an undeclared option, and a value option without its value, are usage errors that say so")
    func mistakes() {
        let unknown = #expect(throws: UsageError.self) { try ParsedArguments(["--jsn"], syntax: Self.syntax) }
        #expect(unknown?.description == "unknown option '--jsn'")
        let missing = #expect(throws: UsageError.self) { try ParsedArguments(["--service"], syntax: Self.syntax) }
        #expect(missing?.description == "--service takes a UUID")
    }

    @Test("the synopsis shows each option as the help prints it")
    func synopsis() {
        #expect(Self.syntax.synopsisWords == ["example", "FILE", "[--json]", "[--strict]", "[--keep-going]", "[--service UUID]...", "[--name NAME]"])
        #expect(CommandOption.value("--db", "FILE.json", takes: "a file", required: true).synopsis == "--db FILE.json")
    }
}
