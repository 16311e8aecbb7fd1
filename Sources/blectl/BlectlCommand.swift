/// The command dispatcher of `blectl`.
enum BlectlCommand {
    static let usage = """
    usage: blectl <command> [options]

    commands:
      decode FILE [--json] [--no-summary]
          Decode a capture (btsnoop 1001/1002/2001, pcap or pcapng with LINKTYPE 187, 201, 254,
          251, 256, or PPI) down to ATT, SMP and L2CAP signaling: one line per packet, then a
          summary of devices, connections, ATT PDU counts and the GATT table of each connection.
          --json prints one JSON object per packet, then {"summary": ...}.
          --no-summary leaves the summary out.
      help
          Show this text.
    """

    /// Runs the command in `arguments` (without the program name) and returns the exit status.
    static func run(arguments: [String], output: inout OutputBuffer) -> Int32 {
        guard let command = arguments.first else {
            printError(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "decode":
            return DecodeCommand.run(arguments: rest, output: &output)
        case "help", "-h", "--help":
            output.line(usage)
            return 0
        default:
            printError("blectl: unknown command '\(command)'\n\n\(usage)")
            return 2
        }
    }
}
