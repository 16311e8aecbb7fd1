/// `blectl help`'s text, made from the declarations the parsers use: the global options, then
/// each group's synopses (name, operands, every option), its shared options and its paragraph.
///
/// A command's synopsis starts two spaces in, so a script can find the commands (the first
/// word of each line indented by two spaces under `commands:`); a synopsis too long for one
/// line continues under its first option; paragraphs are indented by six.
enum HelpSummary {
    /// The widest line a synopsis takes before it continues on the next.
    static let width = 100
    /// Where a global option's explanation starts.
    static let explanationColumn = 20

    /// The whole text.
    static func text(globalOptions: [(option: CommandOption, explanation: String)], groups: [CommandGroup]) -> String {
        var lines = ["usage: blectl " + (globalOptions.map(\.option.synopsis) + ["<command>", "[options]"]).joined(separator: " "),
                     "", "global options (before the command):"]
        for (option, explanation) in globalOptions {
            let parts = explanation.split(separator: "\n", omittingEmptySubsequences: false)
            let form = "  " + option.form
            lines.append(form + String(repeating: " ", count: max(1, explanationColumn - form.count)) + parts[0])
            lines += parts.dropFirst().map { String(repeating: " ", count: explanationColumn) + $0 }
        }
        lines += ["", "commands:"]
        for group in groups {
            for command in group.commands { lines += synopsis(command.syntax) }
            if let shared = group.commands.first?.syntax.sharedOptions, !shared.isEmpty {
                lines += wrap(["OPTIONS:"] + shared.map(\.synopsis), indent: 6, continuation: 6 + "OPTIONS: ".count)
            }
            lines += group.summary.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// A command's synopsis, two spaces in, continued under the word after its name.
    static func synopsis(_ syntax: CommandSyntax) -> [String] {
        wrap(syntax.synopsisWords, indent: 2, continuation: 2 + syntax.name.count + 1)
    }

    /// `words` joined by spaces into lines no wider than ``width`` (a longer word takes a line
    /// of its own), the first line `indent` spaces in, the others `continuation`.
    static func wrap(_ words: [String], indent: Int, continuation: Int) -> [String] {
        var lines: [String] = []
        var line = String(repeating: " ", count: indent)
        var empty = true
        for word in words {
            if !empty && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: continuation)
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(line)
        return lines
    }
}
