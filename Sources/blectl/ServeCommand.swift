import ATT
import BLECore
import GATT
import PDUScript
#if canImport(Glibc)
import Glibc
#endif

/// `blectl serve --db FILE.json --bearer stdio [--security LEVEL] [--name NAME]`: the GATT server
/// on a database file, its ATT bearer on standard input and output, one hex PDU per line (PDUs from
/// a client in, the server's PDUs out). ATT_MTU starts at 23. It runs until standard input ends.
enum ServeCommand {
    static let usage = """
    usage: blectl serve --db FILE.json --bearer stdio [--security SECURITY] [--name NAME]

    Runs the GATT server on the database in FILE.json (docs/gatt-database-json.md). With --bearer stdio,
    its ATT bearer is standard input and output: each line of input is one ATT PDU from a client in
    hexadecimal (`#` starts a comment), each line of output one PDU from the server. ATT_MTU starts at 23.
    The server answers everything it read and exits when standard input ends. --security is what the
    link offers the server's permission checks, as words: none (the default), encrypted, authenticated,
    authorized, key-size 7...16 (e.g. --security "encrypted key-size 7"); --name sets the GAP Device
    Name (default LinuxBLE).
    """

    static func run(arguments: [String], output: inout OutputBuffer) async -> Int32 {
        var database: String?
        var bearer: String?
        var security = "none"
        var name = "LinuxBLE"
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                output.line(usage)
                return 0
            case "--db", "--bearer", "--security", "--name":
                guard let value = rest.popFirst() else {
                    printError("blectl serve: \(argument) needs a value\n\n\(usage)")
                    return 2
                }
                switch argument {
                case "--db": database = value
                case "--bearer": bearer = value
                case "--security": security = value
                default: name = value
                }
            default:
                printError("blectl serve: unknown argument '\(argument)'\n\n\(usage)")
                return 2
            }
        }
        guard let database else {
            printError("blectl serve: which database? --db FILE.json\n\n\(usage)")
            return 2
        }
        guard bearer == "stdio" else {
            printError("blectl serve: only --bearer stdio is available here; kernel sockets come with kernel mode\n\n\(usage)")
            return 2
        }
        let offered: ATTSecurity
        do { offered = try PDUScriptRunner.parseSecurity(security) } catch {
            printError("blectl serve: --security: \(error)")
            return 2
        }
        let server: GATTServer
        do {
            let loaded = try GATTDatabase(jsonFile: database)
            server = try GATTServer(database: loaded, configuration: GATTServerConfiguration(deviceName: name))
        } catch {
            printError("blectl serve: \(database): \(error)")
            return 1
        }
        output.flush()
        let stdio = StdioATTBearer(input: 0, output: 1, security: offered)
        let connection = await server.connect(stdio)
        // Ends once standard input has ended and every request read from it is answered.
        await connection.engine.waitUntilClosed()
        return 0
    }
}
