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

    static let syntax = CommandSyntax(name: "power", operands: "on|off", help: usage)

    static func run(arguments: [String], context: KernelContext, output: inout OutputBuffer) async -> Int32 {
        let parsed: ParsedArguments
        do { parsed = try syntax.parse(arguments, output: &output) } catch { return error.status }
        guard parsed.operands.count == 1, let word = parsed.operands.first, ["on", "off"].contains(word) else {
            return syntax.usageError("say on or off")
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
