import BLECore
import Capture
import LinuxBluetooth

/// `blectl monitor [--json] [--write FILE] [--no-summary]`: every adapter's HCI traffic, decoded
/// live from the kernel's monitor channel (HCI_CHANNEL_MONITOR, as btmon reads it), one line (or
/// one JSON object) per packet as `blectl decode` prints them; Ctrl-C ends it and prints the
/// summary. `--write FILE` also saves the traffic as btsnoop datalink 2001, which btmon,
/// Wireshark and `blectl decode` read.
enum MonitorCommand {
    static let json = CommandOption.flag("--json")
    static let write = CommandOption.value("--write", "FILE", takes: "a file path")
    static let noSummary = CommandOption.flag("--no-summary")
    static let syntax = CommandSyntax(name: "monitor", options: [json, write, noSummary], help: usage)

    static func run(arguments: [String], output: inout OutputBuffer) async -> Int32 {
        let parsed: ParsedArguments
        do { parsed = try syntax.parse(arguments, output: &output) } catch { return error.status }
        if let extra = parsed.operands.first { return syntax.usageError("unknown argument '\(extra)'") }
        let monitor: HCIMonitorSocket
        do { monitor = try HCIMonitorSocket() } catch {
            printError("blectl monitor: \(error)")
            return 1
        }
        var file: BTSnoopStream?
        if let path = parsed.value(of: write) {
            do { file = try BTSnoopStream(path: path, datalink: .btsnoopMonitor) } catch {
                monitor.close()
                printError("blectl monitor: \(error)")
                return 1
            }
        }
        // Ctrl-C (or SIGTERM) closes the channel: the frames finish, and the summary follows.
        let interrupt = Interrupt { monitor.close() }
        let status = await decode(monitor.frames, json: parsed.contains(json), summary: !parsed.contains(noSummary),
                                  writing: file, output: &output)
        interrupt.stop()
        file?.close()
        if let error = monitor.endError {
            printError("blectl monitor: the monitor channel ended: \(error)")
            return 1
        }
        return status
    }

    /// Decodes `frames` until they finish (or standard output's reader goes away), writing each
    /// to `file` when given, then the summary.
    ///
    /// - Returns: the exit status: 0, or 1 when writing the file or standard output failed (a
    ///   failed file write is reported once; the decoding goes on without the file).
    static func decode(_ frames: AsyncStream<HCIMonitorSocket.Frame>, json: Bool, summary: Bool,
                       writing file: BTSnoopStream?, output: inout OutputBuffer) async -> Int32 {
        var dissector = Dissector()
        var position = 0
        var file = file
        var status: Int32 = 0
        for await frame in frames {
            let record = CaptureRecord(position: position, timestamp: frame.timestamp, monitorOpcode: frame.opcode,
                                       controllerIndex: frame.index, payload: frame.payload)
            position += 1
            if let writer = file {
                do { try writer.append(record) } catch {
                    printError("blectl monitor: --write stopped: \(error)")
                    file = nil
                    status = 1
                }
            }
            let packet = dissector.dissect(record)
            if json {
                output.line(packet.jsonText)
            } else {
                output.line(packet.line)
            }
            output.flush()     // live: each packet as it comes
            if output.isClosed { break }
        }
        guard output.finishWithSummary(of: dissector, summary: summary, json: json, command: "monitor") else { return 1 }
        return status
    }

    static let usage = """
    usage: blectl monitor [--json] [--write FILE] [--no-summary]

    Decodes every adapter's HCI traffic live, from the kernel's monitor channel (as btmon reads
    it; needs CAP_NET_RAW, kernel mode's adapters and a host-mode user channel alike): one line
    per packet as `blectl decode` prints them, each with its adapter (hciN), adapters coming and
    going included. Ctrl-C ends it and prints the summary.

      --json         one JSON object per packet, then {"summary": ...} (docs/decode.md)
      --write FILE   also save the traffic as btsnoop (datalink 2001: the monitor's records), which
                     btmon -r, Wireshark and blectl decode read
      --no-summary   leave the summary out

    Exit status: 0 ended by Ctrl-C; 1 the monitor channel could not be opened or ended with an
    error, or FILE or standard output could not be written; 2 a usage error.
    """
}
