import LinuxBluetooth

/// `blectl [--hci N] power on|off`: powers adapter hciN on (with LE) or off through the kernel's
/// management channel (needs CAP_NET_ADMIN; no daemon).
enum PowerCommand {
    static let usage = """
    usage: blectl [--hci N] power on|off

    Powers adapter hciN (default hci0) on, turning LE on first when it is off, or off, through the
    kernel's management channel. Needs CAP_NET_ADMIN (root, or setcap). Prints the settings after.
    Commands that need a powered adapter power it on themselves unless --no-power is given.
    """

    static func run(arguments: [String], context: KernelContext, output: inout OutputBuffer) async -> Int32 {
        guard arguments.count == 1, let word = arguments.first, ["on", "off", "-h", "--help"].contains(word) else {
            printError("blectl power: say on or off\n\(BlectlCommand.helpLine("power"))")
            return 2
        }
        if word == "-h" || word == "--help" {
            output.line(usage)
            return 0
        }
        do {
            let settings = try await context.power(on: word == "on")
            output.line("hci\(context.hci): \(settings)")
            return 0
        } catch {
            printError("blectl power: \(error)")
            return 1
        }
    }
}
