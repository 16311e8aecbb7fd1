import BLE

/// The command dispatcher of `blectl`.
enum BlectlCommand {
    /// The version of this build of blectl.
    static let version = "0.1.0"

    /// `blectl help`: the global options and every command, made from their declarations.
    static let usage = HelpSummary.text(globalOptions: globalOptions, groups: groups)

    static let hci = CommandOption.value("--hci", "N", takes: "an adapter index, 0...65534 (0 for hci0)")
    static let noPower = CommandOption.flag("--no-power")
    static let transport = CommandOption.value("--transport", "WORD", takes: Transport.forms)
    static let capture = CommandOption.value("--capture", "FILE", takes: "a file path")

    /// The options that go before the command, with what `blectl help` says of each.
    static let globalOptions: [(option: CommandOption, explanation: String)] = [
        (hci, "kernel mode's adapter hciN (default 0)"),
        (noPower, "do not power a down adapter on (kernel mode)"),
        (transport, """
            which controller, in which mode: kernel:hciN (kernel mode, the default),
            or host mode, where blectl owns the controller: user:hciN (the HCI user
            channel), h4:/dev/ttyX[@BAUD][,rtscts] (a UART controller), tcp:HOST:PORT
            (H4 over TCP, e.g. blectl virtual-controller), virtual (in-process)
            """),
        (capture, """
            write the HCI traffic the command sees as btsnoop (blectl decode, Wireshark):
            all of it in host mode; in kernel mode, scan's and serve's raw channel
            """),
    ]

    /// The one line a usage error ends with: where the help is (the reason comes first).
    static func helpLine(_ command: String?) -> String {
        command.map { "run 'blectl \($0) --help' for its options" } ?? "run 'blectl help' for the commands and the global options"
    }

    /// What a command line comes to before anything runs: an exit status (a usage error, already
    /// printed), or the command to run with its arguments and the global options' context.
    enum Resolution {
        case exit(Int32)
        case command(Command, arguments: [String], context: KernelContext)
    }

    /// Runs the command in `arguments` (without the program name) and returns the exit status.
    static func run(arguments: [String], output: inout OutputBuffer) async -> Int32 {
        switch resolve(arguments) {
        case .exit(let status): return status
        case let .command(command, rest, context): return await command.run(rest, context, &output)
        }
    }

    /// Runs the command in `arguments` if it needs no task (``Command/synchronousRun``: `decode`,
    /// `version`), or reports a usage error, on the calling thread; returns nil, having printed
    /// nothing, for a command that must run in a task (then call ``run(arguments:output:)``).
    /// `main` calls it first so that `blectl decode` starts no thread pool.
    static func runWithoutTask(arguments: [String], output: inout OutputBuffer) -> Int32? {
        switch resolve(arguments) {
        case .exit(let status): return status
        case let .command(command, rest, context):
            guard let synchronousRun = command.synchronousRun else { return nil }
            return synchronousRun(rest, context, &output)
        }
    }

    /// Parses the global options and finds the command; prints the usage error, if any.
    static func resolve(_ arguments: [String]) -> Resolution {
        var arguments = arguments[...]
        var context = KernelContext()
        while let first = arguments.first, let option = globalOptions.first(where: { $0.option.name == first })?.option {
            arguments.removeFirst()
            if option == noPower {
                context.powersOn = false
                continue
            }
            guard let value = arguments.popFirst() else {
                printError("blectl: \(option.expectation)\n\(helpLine(nil))")
                return .exit(2)
            }
            if option == transport {
                do { context.transport = try KernelContext.transport(parsing: value) } catch {
                    printError("blectl: \(error)\n\(helpLine(nil))")
                    return .exit(2)
                }
                if case .kernel(let hci) = context.transport { context.hci = hci }
                continue
            }
            if option == capture {
                context.capture = value
                continue
            }
            guard let index = Transport.adapterIndex(value[...]) else {
                printError("blectl: \(hci.expectation)\n\(helpLine(nil))")
                return .exit(2)
            }
            context.hci = index
            if !context.transport.isHostMode { context.transport = .kernel(hci: index) }
        }
        // Kernel mode's scan and serve see the raw HCI channel; its GATT commands see only the
        // kernel's L2CAP sockets, whose traffic btmon captures.
        if context.capture != nil, !context.transport.isHostMode, let command = arguments.first,
           !["demo", "scan", "serve"].contains(command) {
            printError("blectl: --capture in kernel mode works with scan and serve (their raw HCI channel); for \(command), use host mode (--transport user:hciN, h4:..., tcp:... or virtual) or btmon")
            return .exit(2)
        }
        guard let name = arguments.first else {
            printError(usage)
            return .exit(2)
        }
        guard let command = command(named: name) else {
            if name.hasPrefix("-") {
                let forms = globalOptions.map(\.option.form).joined(separator: ", ")
                printError("blectl: unknown option '\(name)' (before the command: \(forms))\n\(helpLine(nil))")
            } else {
                printError("blectl: unknown command '\(name)'\n\(helpLine(nil))")
            }
            return .exit(2)
        }
        let rest = Array(arguments.dropFirst())
        // One rule for every command: a global option after the command is a usage error that
        // says where it goes, unless the command declares an option of that name itself (demo's
        // --capture).
        if let misplaced = globalOptions.first(where: { global in
               rest.contains(global.option.name) && !command.syntax.allOptions.contains { $0.name == global.option.name }
           })?.option,
           !["help", "version"].contains(command.syntax.name) {
            printError("blectl \(name): \(misplaced.name) goes before the command: blectl \(misplaced.form) \(name) ...\n\(helpLine(nil))")
            return .exit(2)
        }
        return .command(command, arguments: rest, context: context)
    }

    /// The command `name` runs (a command's name or one of its aliases), or nil.
    static func command(named name: String) -> Command? {
        groups.lazy.flatMap(\.commands).first { $0.syntax.name == name || $0.syntax.aliases.contains(name) }
    }
}
