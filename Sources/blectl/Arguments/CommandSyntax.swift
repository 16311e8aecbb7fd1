/// How a blectl command is written, declared once: its name, its operands and its options. The
/// command parses its arguments with it (``ParsedArguments``), and `blectl help` shows its
/// synopsis from it (``HelpSummary``), so the two cannot disagree.
struct CommandSyntax: Sendable {
    /// The command's name: "decode".
    let name: String
    /// Other names that run it ("--help" for help), not shown in the summary.
    var aliases: [String] = []
    /// The operands as the help shows them ("FILE", "ADDR HANDLE|UUID HEX"), empty for none.
    var operands = ""
    /// The command's own options.
    var options: [CommandOption] = []
    /// Options that several commands share (the connection's, for gatt, read, write and
    /// subscribe): the synopsis shows them as `[OPTIONS]` and the summary lists them once.
    var sharedOptions: [CommandOption] = []
    /// The command's own help, what `blectl NAME --help` prints.
    let help: String

    /// Every option the command accepts: its own, then the shared ones.
    var allOptions: [CommandOption] { options + sharedOptions }

    /// The synopsis in words that may not be broken across lines: the name, each operand, each
    /// option ("[--duration S]"), then `[OPTIONS]` when options are shared.
    var synopsisWords: [String] {
        [name] + operands.split(separator: " ").map(String.init) + options.map(\.synopsis) + (sharedOptions.isEmpty ? [] : ["[OPTIONS]"])
    }

    /// Reads `arguments`: on `-h` or `--help` prints ``help``, on a mistake the reason and where
    /// the help is.
    ///
    /// - Throws: ``CommandExit`` with status 0 after the help, 2 after a usage error.
    func parse(_ arguments: [String], output: inout OutputBuffer) throws(CommandExit) -> ParsedArguments {
        let parsed: ParsedArguments
        do { parsed = try ParsedArguments(arguments, syntax: self) } catch {
            throw CommandExit(status: usageError(error.description))
        }
        if parsed.wantsHelp {
            output.line(help)
            throw CommandExit(status: 0)
        }
        return parsed
    }

    /// Prints a usage error, "blectl NAME: REASON", and the line that says where the help is.
    ///
    /// - Returns: 2, the exit status of a usage error.
    func usageError(_ reason: String) -> Int32 {
        printError("blectl \(name): \(reason)\n\(BlectlCommand.helpLine(name))")
        return 2
    }
}
