import LinuxBluetooth

/// `blectl list`: the kernel's Bluetooth adapters, one line each (kernel mode; no daemon, no
/// capability needed): "hci0 00:AA:01:00:00:00 up LE".
enum ListCommand {
    static let usage = """
    usage: blectl list

    Lists the kernel's Bluetooth adapters: name, public address, up or down, and whether the
    controller supports LE. Reads them through an HCI socket; needs neither bluetoothd nor a
    capability. Exit status: 0 listed (possibly none), 1 the kernel could not be asked.
    """

    static let syntax = CommandSyntax(name: "list", help: usage)

    static func run(arguments: [String], output: inout OutputBuffer) -> Int32 {
        let parsed: ParsedArguments
        do { parsed = try syntax.parse(arguments, output: &output) } catch { return error.status }
        if let extra = parsed.operands.first { return syntax.usageError("unknown argument '\(extra)'") }
        do {
            let adapters = try HCIAdapters.list()
            if adapters.isEmpty { printError("blectl list: the kernel has no Bluetooth adapter") }
            for adapter in adapters { output.line(adapter.description) }
            return 0
        } catch {
            printError("blectl list: \(error)")
            return 1
        }
    }
}
