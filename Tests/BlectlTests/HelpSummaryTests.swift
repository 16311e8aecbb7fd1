import Foundation
import Testing
@testable import blectl

/// `blectl help` and each command's `--help` against the declarations the parsers run from
/// (``BlectlCommand/groups``, each command's ``CommandSyntax``): every option a command accepts
/// is shown, no option it does not accept is, and the built blectl accepts what is declared.
@Suite("blectl help against the command declarations")
struct HelpSummaryTests {
    /// Every command the dispatcher runs.
    static let commands = BlectlCommand.groups.flatMap(\.commands).map(\.syntax)

    /// The `--option` words of `text`: "[--service UUID]..." holds "--service".
    static func optionWords(_ text: String) -> [String] {
        text.split(whereSeparator: { (character: Character) in !(character.isLetter || character.isNumber || character == "-") })
            .map(String.init).filter { $0.hasPrefix("--") && $0.count > 2 }
    }

    /// One command's lines in `blectl help`: its synopsis (with the lines that continue it) and
    /// the shared OPTIONS line of its group, with their line numbers.
    struct Entry {
        var synopsis: [(number: Int, text: String)] = []
    }

    /// The entries of the text under `commands:`, by command name (the first word of each line
    /// that starts two spaces in).
    static func entries(_ help: String) throws -> [String: Entry] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "commands:"), "blectl help has no 'commands:' line")
        var entries: [String: Entry] = [:]
        var group: [String] = []          // the commands of the group being read
        var current: String?              // the command whose synopsis is being read
        var previousWasParagraph = false
        for index in (start + 1)..<lines.count {
            let line = lines[index]
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if indent == 2, let name = trimmed.split(separator: " ").first.map(String.init) {
                if previousWasParagraph { group = [] }
                group.append(name)
                current = name
                entries[name, default: Entry()].synopsis.append((index + 1, line))
                previousWasParagraph = false
            } else if trimmed.hasPrefix("["), let current {
                entries[current]?.synopsis.append((index + 1, line))       // a synopsis continued
            } else if trimmed.hasPrefix("OPTIONS:") {
                for name in group { entries[name]?.synopsis.append((index + 1, line)) }
                current = nil
            } else {
                current = nil
                previousWasParagraph = true
            }
        }
        return entries
    }

    /// "line 14" or "lines 18, 19": where an entry's synopsis is.
    static func lines(_ entry: Entry) -> String {
        (entry.synopsis.count == 1 ? "line " : "lines ") + entry.synopsis.map { String($0.number) }.joined(separator: ", ")
    }

    @Test("blectl help lists every command, each with every option its parser accepts and no other")
    func summaryShowsEveryDeclaredOption() throws {
        let run = try BlectlRun(["help"])
        #expect(run.status == 0)
        let entries = try Self.entries(run.output)
        for syntax in Self.commands {
            guard let entry = entries[syntax.name] else {
                Issue.record("blectl help: no line under 'commands:' starts with '  \(syntax.name)', a command blectl runs")
                continue
            }
            let shown = Set(entry.synopsis.flatMap { Self.optionWords($0.text) })
            let declared = syntax.allOptions.map(\.name)
            for option in declared where !shown.contains(option) {
                Issue.record("blectl help, \(Self.lines(entry)): \(syntax.name) accepts \(option), which its synopsis does not show: \(entry.synopsis.map(\.text))")
            }
            for option in shown.subtracting(declared).sorted() {
                Issue.record("blectl help, \(Self.lines(entry)): the synopsis of \(syntax.name) shows \(option), which \(syntax.name) does not accept (it accepts \(declared))")
            }
        }
        for name in entries.keys where !Self.commands.contains(where: { $0.name == name }) {
            Issue.record("blectl help lists '\(name)', which is not a command blectl runs")
        }
        for (option, _) in BlectlCommand.globalOptions {
            #expect(run.output.contains("\n  \(option.form) "), "blectl help's global options do not show \(option.form)")
        }
    }

    @Test("each command's own --help mentions every option it accepts, and only options it (or the commands sharing its help) or the global ones accept")
    func commandHelpMentionsEveryDeclaredOption() throws {
        let global = BlectlCommand.globalOptions.map(\.option.name)
        for syntax in Self.commands {
            let run = try BlectlRun([syntax.name, "--help"])
            #expect(run.status == 0, "blectl \(syntax.name) --help: exit \(run.status), \(run.error)")
            #expect(run.output == syntax.help + "\n", "blectl \(syntax.name) --help prints its declared help")
            let mentioned = Set(Self.optionWords(run.output))
            let declared = syntax.allOptions.map(\.name)
            for option in declared where !mentioned.contains(option) {
                Issue.record("blectl \(syntax.name) --help never mentions \(option), which \(syntax.name) accepts")
            }
            // One help may serve several commands (gatt, read, write, subscribe): any of them may accept it.
            let sharing = Self.commands.filter { $0.help == syntax.help }
            for option in mentioned.subtracting(sharing.flatMap(\.allOptions).map(\.name) + global + ["--help"]).sorted() {
                Issue.record("blectl \(syntax.name) --help mentions \(option), which neither \(sharing.map(\.name).joined(separator: ", ")) nor the global options accept")
            }
        }
    }

    @Test("the built blectl accepts each declared option of each command, and refuses one no command declares")
    func parsersAcceptWhatIsDeclared() throws {
        // An accepted option (with a placeholder value) lets parsing reach --help: the help, exit 0.
        // An option the command's parser does not know stops it first: a usage error, exit 2.
        for syntax in Self.commands where !syntax.allOptions.isEmpty {
            for option in syntax.allOptions {
                let arguments = [syntax.name, option.name] + (option.value == nil ? [] : ["x"]) + ["--help"]
                let run = try BlectlRun(arguments)
                #expect(run.status == 0 && run.output == syntax.help + "\n",
                        "blectl \(arguments.joined(separator: " ")): exit \(run.status), \(run.error); \(syntax.name) declares \(option.name) but its parser refuses it")
            }
            let refused = try BlectlRun([syntax.name, "--no-such-option", "--help"])
            #expect(refused.status == 2 && refused.error.hasPrefix("blectl \(syntax.name): unknown option '--no-such-option'\n"),
                    "blectl \(syntax.name) --no-such-option: exit \(refused.status), \(refused.error)")
        }
    }
}
