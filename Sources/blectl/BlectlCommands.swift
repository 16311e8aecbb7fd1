extension BlectlCommand {
    /// Every command blectl runs, in the order `blectl help` lists them, each with its summary
    /// paragraph. The dispatcher finds commands here and the summary is made from here, so a
    /// command cannot run without being listed, nor be listed with options it does not take.
    static let groups: [CommandGroup] = [
        CommandGroup(Command(DecodeCommand.syntax, synchronous: { arguments, _, output in DecodeCommand.run(arguments: arguments, output: &output) }),
                     summary: """
                         Decode a capture (btsnoop, pcap, pcapng) down to ATT, SMP and L2CAP signaling, then
                         summarise devices, connections, ATT PDU counts and GATT tables. `blectl decode --help`
                         says more.
                         """),
        CommandGroup(Command(MonitorCommand.syntax) { arguments, _, output in
                         await MonitorCommand.run(arguments: arguments, output: &output)
                     },
                     summary: """
                         Decode every adapter's HCI traffic live from the kernel's monitor channel, as btmon reads it;
                         --write FILE saves it as btsnoop. `blectl monitor --help` says more.
                         """),
        CommandGroup(Command(ServeCommand.syntax) { arguments, context, output in
                         await ServeCommand.run(arguments: arguments, context: context, output: &output)
                     },
                     summary: """
                         Run the GATT server on a database: in kernel mode on hciN, advertising and accepting
                         centrals; with --bearer stdio, its ATT bearer on standard input and output (one hex PDU
                         per line). `blectl serve --help` says more.
                         """),
        CommandGroup(Command(GATTScriptCommand.syntax) { arguments, _, output in
                         await GATTScriptCommand.run(arguments: arguments, output: &output)
                     },
                     summary: "Run PDU scripts against the stack's GATT server or client; PASS or FAIL for each."),
        CommandGroup(Command(ListCommand.syntax) { arguments, _, output in ListCommand.run(arguments: arguments, output: &output) },
                     summary: "List the kernel's Bluetooth adapters (kernel mode)."),
        CommandGroup(Command(PowerCommand.syntax) { arguments, context, output in
                         await PowerCommand.run(arguments: arguments, context: context, output: &output)
                     },
                     summary: """
                         Power adapter hciN on (with LE) or off through the kernel's management channel. Commands
                         that need a powered adapter power it on themselves unless --no-power is given.
                         """),
        CommandGroup(Command(ScanCommand.syntax) { arguments, context, output in
                         await ScanCommand.run(arguments: arguments, context: context, output: &output)
                     },
                     summary: """
                         LE scanning on hciN's raw HCI channel, or on host mode's controller. `blectl scan --help`
                         says more.
                         """),
        CommandGroup(GATTCommands.commands,
                     summary: """
                         Connect to the peer from adapter hciN (--hci N, default 0; or host mode's controller) and
                         discover its GATT tree, read, write, or print notifications. `blectl gatt --help` says more.
                         """),
        CommandGroup(Command(VirtualControllerCommand.syntax) { arguments, _, output in
                         await VirtualControllerCommand.run(arguments: arguments, output: &output)
                     },
                     summary: "Virtual LE controllers on one radio, served as H4 over TCP for hosts in other processes."),
        CommandGroup(Command(DemoCommand.syntax) { arguments, context, output in
                         await DemoCommand.run(arguments: arguments, context: context, output: &output)
                     },
                     summary: """
                         The whole stack on the virtual radio: a heart-rate sensor and a central that connects,
                         discovers, reads, subscribes, writes and disconnects. `blectl demo --help` says more.
                         """),
        CommandGroup(Command(helpSyntax) { arguments, _, output in await help(arguments, output: &output) },
                     summary: "Show this text, or with COMMAND that command's help (blectl COMMAND --help)."),
        CommandGroup(Command(versionSyntax, synchronous: { arguments, _, output in showVersion(arguments, output: &output) }),
                     summary: "Show blectl's version."),
    ]

    static let helpSyntax = CommandSyntax(name: "help", aliases: ["-h", "--help"], operands: "[COMMAND]", help: """
        usage: blectl help [COMMAND]

        Shows the global options and the commands, each with every option it takes; with COMMAND,
        that command's own help (the same as blectl COMMAND --help).
        """)

    static let versionSyntax = CommandSyntax(name: "version", aliases: ["--version"], help: """
        usage: blectl version

        Shows blectl's version.
        """)

    /// `blectl version`: the version of this build.
    static func showVersion(_ arguments: [String], output: inout OutputBuffer) -> Int32 {
        do { _ = try versionSyntax.parse(arguments, output: &output) } catch { return error.status }
        if let extra = arguments.first { return versionSyntax.usageError("unknown argument '\(extra)'") }
        output.line("blectl \(version) (LinuxBLE)")
        return 0
    }

    /// `blectl help [COMMAND]`: the summary, or COMMAND's own help.
    static func help(_ arguments: [String], output: inout OutputBuffer) async -> Int32 {
        let parsed: ParsedArguments
        do { parsed = try helpSyntax.parse(arguments, output: &output) } catch { return error.status }
        if parsed.operands.count > 1 { return helpSyntax.usageError("one command at a time") }
        if let topic = parsed.operands.first, topic != "help" {
            return await run(arguments: [topic, "--help"], output: &output)     // blectl help decode
        }
        output.line(usage)
        return 0
    }
}
