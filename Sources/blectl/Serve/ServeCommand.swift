import ATT
import BLE
import BLECore
import GATT
import PDUScript
#if canImport(Glibc)
import Glibc
#endif

/// `blectl serve --db FILE.json --bearer stdio [--security LEVEL] [--name NAME]`: the GATT server
/// on a database file, its ATT bearer on standard input and output, one hex PDU per line (PDUs from
/// a client in, the server's PDUs out). ATT_MTU starts at 23. It runs until standard input ends.
/// Without `--bearer`, ``ManagedServe`` serves the database through the BLE API, in kernel mode
/// or host mode.
enum ServeCommand {
    static let usage = """
    usage: blectl [--hci N] serve --db FILE.json [--name NAME] [--security low|medium|high] [--manufacturer COMPANY:HEX]
           blectl serve --db FILE.json --bearer stdio [--security SECURITY] [--name NAME] [--keep-going | --strict]

    Runs the GATT server on the database in FILE.json (docs/gatt-database-json.md).

    Kernel mode (no --bearer): on adapter hciN (default hci0), listens on the kernel's L2CAP ATT
    channel and advertises (connectable; Flags, the primary services' UUIDs, and in the scan response
    the manufacturer data and the name) until Ctrl-C, accepting many centrals at once, each with its
    own CCCD state. A new subscriber is sent the characteristic's current value, and a value a client
    writes is notified or indicated to the subscribers; each event is printed as a line.
    serve accepts the kernel's Just Works pairing requests from any central itself (encryption
    without MITM protection; its management channel needs CAP_NET_ADMIN), so a central can pair
    to read what needs encryption; numeric comparison is left to another agent (bluetoothd's).
    --security medium (or encrypted) or high (or authenticated) makes the kernel require an
    encrypted (paired) link, authenticated for high, on every connection; --manufacturer adds Manufacturer Specific Data (e.g. 0xFFFF:0102; up to 27
    octets of data). Needs CAP_NET_RAW.

    With --bearer stdio, its ATT bearer is standard input and output: each line of input is one ATT
    PDU from a client in hexadecimal (`#` starts a comment), each line of output one PDU from the
    server. ATT_MTU starts at 23. The server answers everything it read and exits when standard input
    ends. --security is what the link offers the server's permission checks, as words: none (the
    default), encrypted, authenticated, authorized, key-size 7...16 (e.g. --security "encrypted
    key-size 7"); low, medium and high mean none, encrypted and authenticated, as in kernel mode.
    A line that is not a PDU in hexadecimal is reported on standard error with its line number and
    why; with --keep-going (the default) it is skipped and the rest is served, with --strict input
    stops there (what came before is still answered); either way the exit status is 1. So is a
    failed write to standard output (a full disk, a closed pipe), which ends serve at once.

    --name sets the GAP Device Name (default LinuxBLE).
    """

    /// `--security` in kernel mode: low, medium, high, or the stdio words with the same meaning
    /// (none, encrypted, authenticated); nil for anything else.
    static func kernelSecurity(_ word: String) -> SecurityLevel? {
        switch word {
        case "low", "none": return SecurityLevel.none
        case "medium", "encrypted": return .encrypted
        case "high", "authenticated": return .authenticated
        default: return nil
        }
    }

    /// `--security` with `--bearer stdio`: the permission words, where the kernel-mode levels
    /// stand for theirs (low: none, medium: encrypted, high: authenticated).
    static func stdioSecurity(_ text: String) -> String {
        switch text {
        case "low": return "none"
        case "medium": return "encrypted"
        case "high": return "authenticated"
        default: return text
        }
    }

    /// The line for a database that did not load: a file that cannot be read names itself; any
    /// other error is prefixed with the file, as it names a JSON path inside it.
    static func databaseFailure(_ path: String, _ error: any Error) -> String {
        if case .unreadableFile? = error as? GATTDatabaseJSONError { return "blectl serve: \(error)" }
        return "blectl serve: \(path): \(error)"
    }

    static let database = CommandOption.value("--db", "FILE.json", takes: "a database file (docs/gatt-database-json.md)", required: true)
    static let name = CommandOption.value("--name", "NAME", takes: "the GAP Device Name")
    static let security = CommandOption.value("--security", "LEVEL", takes: "low, medium or high (with --bearer stdio also the permission words: none, encrypted, authenticated, authorized, key-size N)")
    static let manufacturer = CommandOption.value("--manufacturer", "COMPANY:HEX", takes: "COMPANY:HEX (0xFFFF:0102)")
    static let bearer = CommandOption.value("--bearer", "stdio", takes: "stdio (or leave it out for kernel mode)")
    static let keepGoing = CommandOption.flag("--keep-going")
    static let strict = CommandOption.flag("--strict")
    static let syntax = CommandSyntax(name: "serve", options: [database, name, security, manufacturer, bearer, keepGoing, strict], help: usage)

    static func run(arguments: [String], context: KernelContext, output: inout OutputBuffer) async -> Int32 {
        let parsed: ParsedArguments
        do { parsed = try syntax.parse(arguments, output: &output) } catch { return error.status }
        if let extra = parsed.operands.first { return syntax.usageError("unknown argument '\(extra)'") }
        let bearer = parsed.value(of: Self.bearer)
        let security = parsed.value(of: Self.security)
        let name = parsed.value(of: Self.name) ?? "LinuxBLE"
        let manufacturer = parsed.value(of: Self.manufacturer)
        let inputErrors: StdioATTBearer.InputErrors? = parsed.last(of: [keepGoing, strict]).map { $0 == strict ? .stop : .keepGoing }
        guard let database = parsed.value(of: Self.database) else { return syntax.usageError("which database? --db FILE.json") }
        guard let bearer else {
            guard inputErrors == nil else {
                return syntax.usageError("--keep-going and --strict are for --bearer stdio's input lines")
            }
            var options = ServeOptions(database: database, name: name)
            if let security {
                guard let level = kernelSecurity(security) else {
                    return syntax.usageError("--security takes low, medium or high in kernel mode (or none, encrypted, authenticated)")
                }
                options.security = level
            }
            if let manufacturer {
                guard let data = ServeOptions.manufacturer(manufacturer) else {
                    return syntax.usageError(Self.manufacturer.expectation)
                }
                guard data.data.count <= ServeAdvertising.maximumManufacturerDataLength else {
                    return syntax.usageError("--manufacturer carries at most \(ServeAdvertising.maximumManufacturerDataLength) octets of data "
                                             + "after the company (the scan response is 31 octets); got \(data.data.count)")
                }
                options.manufacturer = data
            }
            output.flush()
            return await ManagedServe.run(options, context: context, output: &output)
        }
        guard bearer == "stdio" else {
            return syntax.usageError(Self.bearer.expectation)
        }
        guard manufacturer == nil else {
            return syntax.usageError("--manufacturer is kernel mode's (no --bearer): stdio has no advertising")
        }
        let offered: ATTSecurity
        do { offered = try PDUScriptRunner.parseSecurity(security.map(stdioSecurity) ?? "none") } catch {
            return syntax.usageError("--security: \(error)")
        }
        let server: GATTServer
        do {
            let loaded = try GATTDatabase(jsonFile: database)
            server = try GATTServer(database: loaded, configuration: GATTServerConfiguration(deviceName: name))
        } catch {
            printError(databaseFailure(database, error))
            return 1
        }
        output.flush()
        let stdio = StdioATTBearer(input: 0, output: 1, security: offered, inputErrors: inputErrors ?? .keepGoing)
        let connection = await server.connect(stdio)
        // Ends once standard input has ended and every request read from it is answered, or at
        // once when a write to standard output fails.
        await connection.engine.waitUntilClosed()
        if let failure = stdio.outputFailure {
            printError("blectl serve: writing the output failed: \(failure)")
            return 1
        }
        let bad = stdio.badLines
        if bad > 0 {
            if inputErrors != .stop {
                printError("blectl serve: " + (bad == 1 ? "1 line of standard input was not a PDU in hexadecimal"
                                                        : "\(bad) lines of standard input were not PDUs in hexadecimal"))
            }
            return 1
        }
        return 0
    }
}
