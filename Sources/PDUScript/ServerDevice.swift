import ATT
import BLECore
import GATT

/// A ``GATTServer`` under test, serving the script's database to the script (a client).
///
/// Triggers: `notify H HEX` (to every subscriber; result `delivered N`), `indicate H HEX`
/// (waits for the confirmation; `delivered N`, or `failed N` when it timed out or the link
/// closed), `replace-database FILE` (Service Changed to the subscribers; `delivered N`),
/// `signing-key CSRK` (the peer's CSRK, 32 hex digits most significant first; `ok`),
/// `bonded yes|no` (`ok`), `notify-multiple H HEX H HEX...` (one update of several values;
/// `delivered N`), `disconnect` and `reconnect` (the client leaves and comes back on the same
/// bearer; `ok`), `prepare-queue-limit ENTRIES OCTETS` (`ok`), `advance-clock SECONDS` (the ATT
/// timers' test clock moves on, once a timer is armed; `ok`), `bearer` (`open` or `closed`, now),
/// `bearer-closes` (`closed` once the stack has ended the bearer, waiting at most 20 s).
public actor ServerDevice: PDUScriptDevice {
    /// The server under test; ``perform(_:_:)``'s `prepare-queue-limit` replaces it.
    var server: GATTServer
    /// The connection the script is; nil between `disconnect` and `reconnect`.
    var connection: GATTServerConnection?
    /// The engine of the script's bearer, which outlives `disconnect`.
    let engine: ATTEngine
    let databases: String
    /// What `disconnect` kept of a bonded client for `reconnect` (Part G, 2.5.2.1, 7.1).
    var bond: (record: GATTClientRecord?, signingKey: GATTSigningKey?)?
    /// Whether the connection was told the peer is bonded (`bonded yes`).
    var isBonded = false
    /// The signing key given with `signing-key`, restored by `reconnect`.
    var signingKey: GATTSigningKey?
    /// The clock of the ATT timeouts, when it is a test clock (`advance-clock`).
    let testClock: TestClock?

    /// A server on `database`, serving `bearer` from its first PDU; its ATT timeouts run on `clock`.
    public init(database: GATTDatabase, bearer: any ATTBearer, clock: any Clock<Duration>, databases: String) async throws {
        server = try GATTServer(database: database)
        let connection = await server.connect(bearer, clock: clock)
        self.connection = connection
        engine = connection.engine
        self.databases = databases
        testClock = clock as? TestClock
    }

    /// The connection, or an error between `disconnect` and `reconnect`.
    func attached() throws(PDUScriptDeviceError) -> GATTServerConnection {
        guard let connection else { throw PDUScriptDeviceError("the client is disconnected") }
        return connection
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
                signingKey = key
                try await attached().setSigningKey(key)
                return "ok"
            case "bonded":
                isBonded = try ScriptArguments.argument(a, 0, "yes or no") == "yes"
                try await attached().setBonded(isBonded)
                return "ok"
            case "notify-multiple":
                var updates: [GATTHandleValue] = []
                var words = a[...]
                while let handle = words.popFirst() {
                    guard let value = words.popFirst() else { throw PDUScriptDeviceError("a value must follow handle \(handle)") }
                    updates.append(GATTHandleValue(handle: try ScriptArguments.handle(handle), value: try ScriptArguments.octets([value])))
                }
                return Self.text(try await server.notify(updates))
            case "disconnect":
                return await disconnect()
            case "reconnect":
                return await reconnect()
            case "advance-clock":
                guard let seconds = Int(try ScriptArguments.argument(a, 0, "seconds")) else {
                    throw PDUScriptDeviceError("advance-clock takes whole seconds")
                }
                guard let testClock else { throw PDUScriptDeviceError("the stack does not run on a test clock") }
                try await ScriptDeadline.advance(testClock, by: .seconds(seconds))
                return "ok"
            case "bearer":
                return await engine.isShutDown ? "closed" : "open"
            case "bearer-closes":
                // The engine ends the bearer asynchronously: wait for it, at most 20 s.
                let engine = self.engine
                return await ScriptDeadline.wait(for: { await engine.waitUntilClosed() }) ? "closed" : "still open after 20 s"
            case "prepare-queue-limit":
                let entries = try ScriptArguments.argument(a, 0, "entries"), octets = try ScriptArguments.argument(a, 1, "octets")
                guard let entries = Int(entries), let octets = Int(octets) else { throw PDUScriptDeviceError("prepare-queue-limit takes two numbers") }
                var configuration = server.configuration
                configuration.prepareQueueLimit = GATTPrepareQueueLimit(maximumEntries: entries, maximumOctets: octets)
                let database = await server.applicationDatabase
                try await attached().detach()
                server = try GATTServer(database: database, configuration: configuration)
                connection = await server.attach(engine, options: GATTConnectionOptions(isBonded: isBonded, signingKey: signingKey))
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
        await engine.close()
    }

    /// The client leaves: the server drops the connection's state, keeping what a bond keeps
    /// (``GATTServerConnection/record``) when the peer is bonded. Requests until `reconnect` get
    /// Request Not Supported (the engine has no server).
    func disconnect() async -> String {
        guard let connection else { return "failed already disconnected" }
        bond = isBonded ? (await connection.record, signingKey) : nil
        await connection.detach()
        self.connection = nil
        return "ok"
    }

    /// The client comes back on the same bearer (the ATT_MTU stays as it was): a new connection,
    /// restored from the bond when the peer was bonded (Part G, 2.5.2.1).
    func reconnect() async -> String {
        if connection != nil { _ = await disconnect() }
        let options = GATTConnectionOptions(isBonded: bond != nil, record: bond?.record ?? nil, signingKey: bond?.signingKey ?? nil)
        if bond == nil { isBonded = false; signingKey = nil }
        connection = await server.attach(engine, options: options)
        return "ok"
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
