/// The command dispatcher of `blectl`.
enum BlectlCommand {
    /// The version of this build of blectl.
    static let version = "0.1.0"

    static let usage = """
    usage: blectl [--hci N] [--no-power] [--transport WORD] [--capture FILE] <command> [options]

    global options (before the command):
      --hci N           kernel mode's adapter hciN (default 0)
      --no-power        do not power a down adapter on (kernel mode)
      --transport WORD  which controller, in which mode: kernel:hciN (kernel mode, the default),
                        or host mode, where blectl owns the controller: user:hciN (the HCI user
                        channel), h4:/dev/ttyX[@BAUD][,rtscts] (a UART controller), tcp:HOST:PORT
                        (H4 over TCP, e.g. blectl virtual-controller), virtual (in-process)
      --capture FILE    write the HCI traffic the command sees as btsnoop (blectl decode, Wireshark):
                        all of it in host mode; in kernel mode, scan's and serve's raw channel

    commands:
      decode FILE [--json] [--no-summary]
          Decode a capture (btsnoop, pcap, pcapng) down to ATT, SMP and L2CAP signaling, then
          summarise devices, connections, ATT PDU counts and GATT tables. `blectl decode --help`
          says more.
      serve --db FILE.json [--name NAME] [--bearer stdio]
          Run the GATT server on a database: in kernel mode on hciN, advertising and accepting
          centrals; with --bearer stdio, its ATT bearer on standard input and output (one hex PDU
          per line). `blectl serve --help` says more.
      gatt-script FILE...
          Run PDU scripts against the stack's GATT server or client; PASS or FAIL for each.
      list     List the kernel's Bluetooth adapters (kernel mode).
      power on|off
          Power adapter hciN on (with LE) or off through the kernel's management channel. Commands
          that need a powered adapter power it on themselves unless --no-power is given.
      scan [--passive] [--duplicates] [--service UUID] [--json] [--duration S]
          Kernel mode: LE scanning on hciN's raw HCI channel. `blectl scan --help` says more.
      gatt ADDR | read ADDR HANDLE|UUID | write ADDR HANDLE|UUID HEX | subscribe ADDR UUID
          Kernel mode, from adapter hciN (--hci N, default 0): discover the peer's GATT tree, read,
          write, or print notifications. `blectl gatt --help` says more.
      virtual-controller --listen tcp:HOST:PORT [--listen ...] [--seed N] [--speed X]
          Virtual LE controllers on one radio, served as H4 over TCP for hosts in other processes.
      demo [--capture FILE] [--cache FILE]
          The whole stack on the virtual radio: a heart-rate sensor and a central that connects,
          discovers, reads, subscribes, writes and disconnects. `blectl demo --help` says more.
      help     Show this text.
      version  Show blectl's version.
    """

    /// The one line a usage error ends with: where the help is (the reason comes first).
    static func helpLine(_ command: String?) -> String {
        command.map { "run 'blectl \($0) --help' for its options" } ?? "run 'blectl help' for the commands and the global options"
    }

    /// The options that go before the command.
    static let globalOptions: Set<String> = ["--hci", "--no-power", "--transport", "--capture"]

    /// Runs the command in `arguments` (without the program name) and returns the exit status.
    static func run(arguments: [String], output: inout OutputBuffer) async -> Int32 {
        var arguments = arguments[...]
        var context = KernelContext()
        while let option = arguments.first, ["--hci", "--no-power", "--transport", "--capture"].contains(option) {
            arguments.removeFirst()
            if option == "--no-power" {
                context.powersOn = false
                continue
            }
            if option == "--transport" {
                guard let word = arguments.popFirst() else {
                    printError("blectl: --transport takes \(TransportChoice.forms)\n\(BlectlCommand.helpLine(nil))")
                    return 2
                }
                do { context.transport = try TransportChoice(parsing: word) } catch {
                    printError("blectl: \(error)\n\(BlectlCommand.helpLine(nil))")
                    return 2
                }
                if case .kernel(let hci) = context.transport { context.hci = hci }
                continue
            }
            if option == "--capture" {
                guard let path = arguments.popFirst() else {
                    printError("blectl: --capture takes a file path\n\(BlectlCommand.helpLine(nil))")
                    return 2
                }
                context.capture = path
                continue
            }
            guard let text = arguments.popFirst(), let index = TransportChoice.adapterIndex(text[...]) else {
                printError("blectl: --hci takes an adapter index, 0...65534 (0 for hci0)\n\(BlectlCommand.helpLine(nil))")
                return 2
            }
            context.hci = index
            if !context.transport.isHostMode { context.transport = .kernel(hci: index) }
        }
        // Kernel mode's scan and serve see the raw HCI channel; its GATT commands see only the
        // kernel's L2CAP sockets, whose traffic btmon captures.
        if context.capture != nil, !context.transport.isHostMode, let command = arguments.first,
           !["demo", "scan", "serve"].contains(command) {
            printError("blectl: --capture in kernel mode works with scan and serve (their raw HCI channel); for \(command), use host mode (--transport user:hciN, h4:..., tcp:... or virtual) or btmon")
            return 2
        }
        guard let command = arguments.first else {
            printError(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        // One rule for every command: a global option after the command is a usage error that
        // says where it goes (demo's own --capture excepted).
        if let misplaced = rest.first(where: { Self.globalOptions.contains($0) && !(command == "demo" && $0 == "--capture") }),
           !["help", "-h", "--help", "version", "--version"].contains(command) {
            let form = misplaced == "--hci" ? "--hci N" : misplaced == "--transport" ? "--transport WORD" : misplaced == "--capture" ? "--capture FILE" : misplaced
            printError("blectl \(command): \(misplaced) goes before the command: blectl \(form) \(command) ...\n\(helpLine(nil))")
            return 2
        }
        switch command {
        case "decode":
            return DecodeCommand.run(arguments: rest, output: &output)
        case "serve":
            return await ServeCommand.run(arguments: rest, context: context, output: &output)
        case "gatt-script":
            return await GATTScriptCommand.run(arguments: rest, output: &output)
        case "list":
            return ListCommand.run(arguments: rest, output: &output)
        case "scan":
            return await ScanCommand.run(arguments: rest, context: context, output: &output)
        case "power":
            return await PowerCommand.run(arguments: rest, context: context, output: &output)
        case "gatt", "read", "write", "subscribe":
            return await GATTCommands.run(command, arguments: rest, context: context, output: &output)
        case "virtual-controller":
            return await VirtualControllerCommand.run(arguments: rest, output: &output)
        case "demo":
            return await DemoCommand.run(arguments: rest, context: context, output: &output)
        case "help", "-h", "--help":
            if command == "help", let topic = rest.first, topic != "help" {
                return await run(arguments: [topic, "--help"], output: &output)     // blectl help decode
            }
            output.line(usage)
            return 0
        case "version", "--version":
            output.line("blectl \(version) (LinuxBLE)")
            return 0
        case _ where command.hasPrefix("-"):
            printError("blectl: unknown option '\(command)' (before the command: --hci N, --no-power, --transport WORD, --capture FILE)\n\(BlectlCommand.helpLine(nil))")
            return 2
        default:
            printError("blectl: unknown command '\(command)'\n\(BlectlCommand.helpLine(nil))")
            return 2
        }
    }
}
