import BLECore
import Capture

/// `blectl decode FILE [--json] [--no-summary]`: decodes a capture file to one line (or one JSON
/// object) per packet, then a summary. A malformed packet prints its reason and offset and
/// decoding goes on; a capture file that ends in a damaged record prints every good record,
/// then the error with its file offset, and exits 1. When the reader of standard output goes
/// away (piped into `head`), it stops quietly with status 0.
enum DecodeCommand {
    static let json = CommandOption.flag("--json")
    static let noSummary = CommandOption.flag("--no-summary")
    static let syntax = CommandSyntax(name: "decode", operands: "FILE", options: [json, noSummary], help: usage)

    static func run(arguments: [String], output: inout OutputBuffer) -> Int32 {
        let parsed: ParsedArguments
        do { parsed = try syntax.parse(arguments, output: &output) } catch { return error.status }
        let json = parsed.contains(Self.json)
        let summary = !parsed.contains(noSummary)
        guard parsed.operands.count <= 1 else {
            return syntax.usageError("one capture file at a time ('\(parsed.operands[0])' and '\(parsed.operands[1])')")
        }
        guard let path = parsed.operands.first else { return syntax.usageError("which capture file?") }

        let file: CaptureFile
        do {
            file = path == "-" ? try CaptureFile(readingFileDescriptor: 0, name: "standard input")
                               : try CaptureFile(contentsOf: path)
        } catch {
            printError(openingFailure(path, error))
            return 1
        }
        let decodesLinkType = file.linkType.map(file.format.decodedLinkTypes.contains) ?? true
        if let linkType = file.linkType, !decodesLinkType {
            printError(notDecoded(path, format: file.format, linkType: linkType))
        }
        var reader = file.makeReader()
        var dissector = Dissector()
        var failure: CaptureError?
        var packetJSON = JSONWriter()
        while !output.isClosed {
            let record: CaptureRecord?
            do { record = try reader.next() } catch {
                failure = error
                break
            }
            guard let record else { break }
            let packet = dissector.dissect(record)
            if json {
                packetJSON.removeAll()
                packet.writeJSON(to: &packetJSON)
                output.pending.write(packetJSON.output)
                output.endLine()
            } else {
                packet.writeLine(to: &output.pending)
                output.endLine()
            }
        }
        if let failure {
            let message = "capture file damaged at offset \(failure.offset): \(failure)"
            if json {
                let object = JSONValue.object([("error", .object([("layer", .string("capture file")),
                                                                  ("reason", .string(failure.description)),
                                                                  ("offset", .int(failure.offset))]))])
                output.line(object.description)
            } else {
                output.line("!! " + message)
            }
        }
        guard output.finishWithSummary(of: dissector, summary: summary, json: json, command: "decode") else { return 1 }
        if failure != nil { return 1 }
        if !decodesLinkType { return 1 }
        return 0
    }

    /// The line for a file that could not be opened: an unreadable file's error already names
    /// the path ("cannot read F: No such file or directory"); any other is prefixed with it.
    static func openingFailure(_ path: String, _ error: CaptureError) -> String {
        if case .unreadableFile = error { return "blectl decode: \(error)" }
        return "blectl decode: \(path): \(error)"
    }

    /// The line for a file whose link type this decoder does not read, with the ones it reads in
    /// that file's format: btsnoop datalinks for a btsnoop file, LINKTYPE values for pcap and pcapng.
    static func notDecoded(_ path: String, format: CaptureFormat, linkType: LinkType) -> String {
        let name = format.linkTypeName
        let read = format.decodedLinkTypes.map(\.description).joined(separator: ", ")
        return "blectl decode: \(path): \(format) \(name) \(linkType.rawValue) is not a Bluetooth \(name) this decoder reads "
            + "(\(read)); its records are listed, not decoded"
    }

    static let usage = """
    usage: blectl decode FILE [--json] [--no-summary]

    Decodes a capture (btsnoop 1001/1002/2001, pcap or pcapng with LINKTYPE 187, 201, 254, 251, 256,
    272 (nRF Sniffer) or PPI, Apple PacketLogger .pklg; FILE - reads standard input) down to ATT,
    SMP and L2CAP signaling: one line per packet
    (frame number from 1, seconds since the first record, direction, summary), then a summary of
    devices, connections, ATT PDU counts and the GATT table of each connection.

      --json         one JSON object per packet, then {"summary": ...} (docs/decode.md)
      --no-summary   leave the summary out

    Exit status: 0 decoded; 1 the file could not be read, ends in a damaged record, or is not
    Bluetooth; 2 a usage error.
    """
}
