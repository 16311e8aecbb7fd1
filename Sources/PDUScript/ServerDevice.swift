import ATT
import BLECore
import GATT

/// A ``GATTServer`` under test, serving the script's database to the script (a client).
///
/// Triggers: `notify H HEX` (to every subscriber; result `delivered N`), `indicate H HEX`
/// (waits for the confirmation; `delivered N`, or `failed N` when it timed out or the link
/// closed), `replace-database FILE` (Service Changed to the subscribers; `delivered N`),
/// `signing-key CSRK` (the peer's CSRK, 32 hex digits most significant first; `ok`),
/// `bonded yes|no` (`ok`).
public actor ServerDevice: PDUScriptDevice {
    let server: GATTServer
    let connection: GATTServerConnection
    let databases: String

    /// A server on `database`, serving `bearer` from its first PDU; its ATT timeouts run on `clock`.
    public init(database: GATTDatabase, bearer: any ATTBearer, clock: any Clock<Duration>, databases: String) async throws {
        server = try GATTServer(database: database)
        connection = await server.connect(bearer, clock: clock)
        self.databases = databases
    }

    public func perform(_ action: String, _ a: [String]) async throws(PDUScriptDeviceError) -> String {
        do {
            switch action {
            case "notify":
                let report = try await server.notify(try ScriptArguments.octets(a.dropFirst()),
                                                     for: try ScriptArguments.handle(try ScriptArguments.argument(a, 0, "handle")))
                return Self.text(report)
            case "indicate":
                let report = try await server.indicate(try ScriptArguments.octets(a.dropFirst()),
                                                       for: try ScriptArguments.handle(try ScriptArguments.argument(a, 0, "handle")))
                return Self.text(report)
            case "replace-database":
                let file = try ScriptArguments.argument(a, 0, "database file")
                let database = try GATTDatabase(jsonFile: databases + "/" + file)
                return Self.text(try await server.replaceDatabase(database))
            case "signing-key":
                guard let key = GATTSigningKey(mostSignificantFirst: try ScriptArguments.argument(a, 0, "CSRK")) else {
                    throw PDUScriptDeviceError("a CSRK is 32 hexadecimal digits")
                }
                await connection.setSigningKey(key)
                return "ok"
            case "bonded":
                await connection.setBonded(try ScriptArguments.argument(a, 0, "yes or no") == "yes")
                return "ok"
            default:
                throw PDUScriptDeviceError("unknown server trigger \(action)")
            }
        } catch let error as PDUScriptDeviceError {
            throw error
        } catch {
            return "failed \(error)"
        }
    }

    public func close() async {
        await connection.engine.close()
    }

    /// `delivered N`, then `failed N` and `withheld N` when not zero.
    static func text(_ report: GATTDeliveryReport) -> String {
        var parts = ["delivered \(report.delivered.count)"]
        if !report.failed.isEmpty { parts.append("failed \(report.failed.count)") }
        if !report.withheld.isEmpty { parts.append("withheld \(report.withheld.count)") }
        return parts.joined(separator: ", ")
    }
}

extension PDUScriptRunner {
    /// The server under test for a `role: server` script, on the script's `database:` file.
    static func makeServerDevice(_ script: PDUScript, databases: String,
                                 bearer: InMemoryATTBearer) async throws -> any PDUScriptDevice {
        guard let file = script.database else { throw PDUScriptDeviceError("a server script needs a database: header") }
        let database = try GATTDatabase(jsonFile: databases + "/" + file)
        return try await ServerDevice(database: database, bearer: bearer, clock: TestClock(), databases: databases)
    }
}
