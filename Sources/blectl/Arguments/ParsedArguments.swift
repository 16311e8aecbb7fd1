/// A command's arguments read against its ``CommandSyntax``: the options given, each with its
/// value, in order, and the operands. An option the syntax does not declare is a usage error,
/// so what a command accepts is what it declares.
struct ParsedArguments {
    /// Whether `-h` or `--help` came; the arguments after it are not read.
    private(set) var wantsHelp = false
    /// The arguments that are not options or their values, in order (`-` is an operand: standard input).
    private(set) var operands: [String] = []
    /// The options given, by name, each with its value (nil for a switch), in order.
    private var given: [(name: String, value: String?)] = []

    /// Reads `arguments` (those after the command's name).
    ///
    /// - Throws: ``UsageError`` for an option `syntax` does not declare ("unknown option '--x'"),
    ///   or a value option at the end with no value (its ``CommandOption/expectation``).
    init(_ arguments: [String], syntax: CommandSyntax) throws(UsageError) {
        let declared = syntax.allOptions
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "-h" || argument == "--help" {
                wantsHelp = true
                return
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                operands.append(argument)
                continue
            }
            guard let option = declared.first(where: { $0.name == argument }) else {
                throw UsageError("unknown option '\(argument)'")
            }
            if option.value == nil {
                given.append((option.name, nil))
            } else {
                guard let value = rest.popFirst() else { throw UsageError(option.expectation) }
                given.append((option.name, value))
            }
        }
    }

    /// Whether `option` was given.
    func contains(_ option: CommandOption) -> Bool {
        given.contains { $0.name == option.name }
    }

    /// The value of `option` given last, or nil when it was not given.
    func value(of option: CommandOption) -> String? {
        given.last { $0.name == option.name }?.value
    }

    /// Every value of a repeatable `option`, in order.
    func values(of option: CommandOption) -> [String] {
        given.filter { $0.name == option.name }.compactMap(\.value)
    }

    /// The one of `options` given last (for switches that undo each other), or nil.
    func last(of options: [CommandOption]) -> CommandOption? {
        guard let name = given.last(where: { entry in options.contains { $0.name == entry.name } })?.name else { return nil }
        return options.first { $0.name == name }
    }
}
