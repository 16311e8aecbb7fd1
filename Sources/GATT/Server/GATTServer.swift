import ATT
import BLECore

/// A GATT server (Core v5.4, Vol 3, Part G; Part F, 3.4): one attribute database served to many
/// connections, each an ``ATTEngine`` on its own bearer with its own state.
///
/// ```swift
/// let server = try GATTServer(database: try GATTDatabase(jsonFile: "thermometer.json"))
/// let connection = await server.connect(bearer)                   // serves at once
/// try await server.notify([0x08, 0x09], for: temperatureHandle)   // to every subscribed client
/// ```
///
/// **What it answers.** Every request and command of Part F, 3.4 (Exchange MTU is the engine's):
/// discovery (Find Information, Find By Type Value, Read By Type, Read By Group Type), reads
/// (Read, Read Blob, Read Multiple, Read Multiple Variable), writes (Write Request, Write
/// Command, Signed Write Command), queued writes (Prepare Write, Execute Write). Responses are
/// cut to the ATT_MTU exactly as each PDU's rules say; a request longer than the ATT_MTU is
/// answered with Invalid PDU (Part F, 3.3). Permissions are checked by ``GATTPermissionCheck``'s
/// one ordered check.
///
/// **Per connection** (``GATTServerConnection``): CCCD values, the prepare queue (bounded by
/// ``GATTServerConfiguration/prepareQueueLimit``), Client Supported Features, change-awareness,
/// the signing key and last SignCounter, and the ``GATTPeer`` given to dynamic values' handlers.
/// Nothing is shared between connections except the database and the values clients write to
/// fixed attributes (one value per database). Detaching, or the bearer closing, drops the state.
///
/// **The services it adds.** A GAP service and a GATT service with Service Changed, Client
/// Supported Features, Database Hash and Server Supported Features, when the database lacks them
/// (see ``GATTServedDatabase``). ``replaceDatabase(_:)`` indicates Service Changed to subscribed
/// clients and runs Robust Caching's change-aware state per connection (Part G, 2.5.2.1).
///
/// **Concurrency.** The server is an actor. Requests of one connection are served one at a time
/// (the engine serves them in order); requests of different connections interleave only while a
/// dynamic value's handler or the bearer is awaited, and the server re-reads its state after
/// every such suspension.
public actor GATTServer {
    /// The configuration given at creation.
    public nonisolated let configuration: GATTServerConfiguration
    /// What clients did: connections, CCCD writes, written values. Keeps the newest
    /// ``GATTServerConfiguration/eventBufferSize`` events for a slow reader; one reader.
    public nonisolated let events: AsyncStream<GATTServerEvent>
    let eventInput: AsyncStream<GATTServerEvent>.Continuation

    /// The database served, with the server's services.
    var served: GATTServedDatabase
    /// Counts database replacements that changed the structure (Service Changed).
    var generation: UInt64 = 0
    /// Values clients wrote to fixed attributes (and values given to ``notify(_:for:)``), by handle.
    var values: [UInt16: [UInt8]] = [:]
    /// The state of each attached connection, by connection id.
    var states: [UInt64: GATTConnectionState] = [:]
    /// The handle of each attached connection, by connection id.
    var handles: [UInt64: GATTServerConnection] = [:]
    var lastConnectionID: UInt64 = 0
    /// Takes the dynamic parts of each executed queued write together (``setQueuedWriteHandler(_:)``).
    var queuedWriteHandler: QueuedWriteHandler?

    /// Takes the parts of one ATT_EXECUTE_WRITE_REQ that reach dynamic values, in queue order,
    /// for the connection of `GATTPeer`, and accepts them all or refuses them with one error.
    public typealias QueuedWriteHandler = @Sendable ([GATTQueuedWrite], GATTPeer) async throws(GATTQueuedWriteRefusal) -> Void

    /// Sets (or, with nil, removes) the handler that takes the dynamic parts of each executed
    /// queued write at once (Core v5.4, Vol 3, Part F, 3.4.6.3), in place of each value's own
    /// ``GATTValueHandlers/write`` called part by part: an application that answers writes
    /// itself (Core Bluetooth's peripheral manager) then sees a Write Long or a Reliable Write
    /// as the one batch it is, and answers it once. Each part's value must still have a write
    /// handler (Write Not Permitted, 0x03, otherwise); the parts for values the server holds
    /// are checked and stored as always.
    public func setQueuedWriteHandler(_ handler: QueuedWriteHandler?) {
        queuedWriteHandler = handler
    }

    /// A server for `database`, to which it adds the GAP and GATT services it lacks (unless
    /// ``GATTDatabase/addsServerServices`` is false), each in the first free handle range that
    /// fits (``GATTServerConfiguration/serverServicesHandle``).
    ///
    /// - Throws: ``GATTServerError/noHandlesForServerServices(needed:)`` when a service fits in
    ///   no free range; ``GATTServerError/serverServicesHandleInUse(handle:needed:)`` when the
    ///   configured handles are taken; ``GATTServerError/database(_:)`` when the Database Hash
    ///   cannot be computed.
    public init(database: GATTDatabase, configuration: GATTServerConfiguration = GATTServerConfiguration()) throws(GATTServerError) {
        self.configuration = configuration
        self.served = try GATTServedDatabase(database, configuration: configuration)
        (events, eventInput) = AsyncStream.makeStream(of: GATTServerEvent.self,
                                                      bufferingPolicy: .bufferingNewest(max(0, configuration.eventBufferSize)))
    }

    /// The database served: the application's with the services the server added, and the
    /// Database Hash it serves.
    public var database: GATTDatabase { served.database }

    /// The database as the application gave it (without the services the server added).
    public var applicationDatabase: GATTDatabase { served.application }

    /// The Service Changed characteristic value handle (the server's own, or the database's).
    public var serviceChangedHandle: UInt16? { served.serviceChangedHandle }

    // MARK: Connections

    /// Creates an engine on `bearer` that this server serves from its first PDU, and attaches it.
    ///
    /// The engine keeps none of the peer's notifications unless a reader waits for them
    /// (`.bufferingNewest(0)`), unless `serverInitiatedBuffering` says otherwise, so that a peer
    /// cannot fill memory through a connection used only for serving.
    ///
    /// - Parameters:
    ///   - clock, transactionTimeout: as for ``ATTEngine/init(bearer:clock:transactionTimeout:serverInitiatedBuffering:server:)``
    ///     (30 s for indications, Part F, 3.3.3).
    ///   - options: what the application knows about the peer.
    public func connect(_ bearer: any ATTBearer, clock: any Clock<Duration> = ContinuousClock(),
                        transactionTimeout: Duration = .seconds(30),
                        serverInitiatedBuffering: AsyncStream<ATTPDU>.Continuation.BufferingPolicy = .bufferingNewest(0),
                        options: GATTConnectionOptions = GATTConnectionOptions()) async -> GATTServerConnection {
        await removeClosedConnections()
        let id = nextConnectionID()
        let engine = ATTEngine(bearer: bearer, clock: clock, transactionTimeout: transactionTimeout,
                               serverInitiatedBuffering: serverInitiatedBuffering, server: handler(for: id))
        return register(id: id, engine: engine, options: options)
    }

    /// Serves `engine`'s requests from now on (replacing its server handler) and returns the
    /// connection's state holder. Requests the engine answered before the call got Request Not
    /// Supported; use ``connect(_:clock:transactionTimeout:serverInitiatedBuffering:options:)``
    /// to serve from the first PDU.
    public func attach(_ engine: ATTEngine, options: GATTConnectionOptions = GATTConnectionOptions()) async -> GATTServerConnection {
        await removeClosedConnections()
        let id = nextConnectionID()
        let connection = register(id: id, engine: engine, options: options)
        await engine.setServer(handler(for: id))
        return connection
    }

    /// Drops the connection's state and stops serving its engine (which then answers requests
    /// with Request Not Supported); the bearer stays open. Detaching twice does nothing more.
    public func detach(_ connection: GATTServerConnection) async {
        handles[connection.peer.connectionID]?.keepFinalRecord(record(of: connection.peer.connectionID))
        guard let state = states.removeValue(forKey: connection.peer.connectionID) else { return }
        handles.removeValue(forKey: connection.peer.connectionID)
        eventInput.yield(.disconnected(state.peer))
        await state.engine.setServer(nil)
    }

    /// The attached connections whose bearers are open, in attach order. Connections found
    /// closed are detached.
    public var connections: [GATTServerConnection] {
        get async {
            await removeClosedConnections()
            return states.keys.sorted().compactMap { handles[$0] }
        }
    }

    /// Whether connection `peer` holds state: attached, and neither detached nor dropped after
    /// its engine ended. A handler that waits on something of its own for a request of `peer`
    /// can ask it to tell a connection not yet fully set up from one already gone.
    public func hasConnection(_ peer: GATTPeer) -> Bool { states[peer.connectionID] != nil }

    /// How many connections hold state now (closed ones not yet noticed included); for tests and
    /// diagnostics.
    public var connectionStateCount: Int { states.count }

    /// Detaches every connection whose engine has closed.
    public func removeClosedConnections() async {
        for (id, state) in states {
            if await state.engine.isShutDown { drop(id) }
        }
    }

    func nextConnectionID() -> UInt64 {
        lastConnectionID &+= 1
        return lastConnectionID
    }

    /// The engine's handler for connection `id`.
    nonisolated func handler(for id: UInt64) -> ATTEngine.ServerHandler {
        { [weak self] pdu, _ in await self?.respond(to: pdu, connection: id) }
    }

    /// Creates the state and the holder of a new connection; restores a bonded client's record.
    func register(id: UInt64, engine: ATTEngine, options: GATTConnectionOptions) -> GATTServerConnection {
        // The connection's holder keeps the server (`GATTServerConnection.server`) and the server
        // keeps the holder (`handles`): drop the state once the engine ends, or a server let go
        // after its last link closed would keep itself, its database and its engines forever.
        Task { [weak self] in
            await engine.waitUntilClosed()
            await self?.drop(id)
        }
        let peer = GATTPeer(connectionID: id)
        var state = GATTConnectionState(engine: engine, peer: peer, options: options, limit: configuration.prepareQueueLimit)
        var indicateAll = false
        if let record = options.record {
            indicateAll = restore(record, into: &state)
        }
        let connection = GATTServerConnection(peer: peer, engine: engine, server: self)
        states[id] = state
        handles[id] = connection
        eventInput.yield(.connected(peer))
        if indicateAll {
            // The database changed while the bonded client was away: Part G, 2.5.2 ("the server
            // shall send an indication when the client reconnects"); the range is all handles.
            let generation = self.generation
            Task { await self.indicateServiceChanged(0x0001...0xFFFF, generation: generation, only: id) }
        }
        return connection
    }

    /// Restores `record` into `state` (Part G, 2.5.2.1: the initial state of a bonded client is
    /// unchanged from the previous connection unless the database has changed since).
    ///
    /// - Returns: whether the database changed and the client subscribed to Service Changed, so
    ///   that it must be told.
    func restore(_ record: GATTClientRecord, into state: inout GATTConnectionState) -> Bool {
        state.clientSupportedFeatures = Array(record.clientSupportedFeatures.prefix(GATTDatabaseLayout.maximumValueLength))
        state.lastSignCounter = record.lastSignCounter
        let unchanged = record.databaseHash.isEmpty || record.databaseHash == served.database.databaseHash
        if unchanged {
            for (handle, value) in record.clientConfigurations {
                if case .clientCharacteristicConfiguration = served.roles[handle] { state.setConfiguration(value, at: handle) }
            }
            if !record.isChangeAware { state.becomeUnaware(generation: generation) }
            return false
        }
        state.becomeUnaware(generation: generation)
        // Only the Service Changed CCCD survives: its handle does not move for bonded clients (7.1).
        guard let cccd = served.serviceChangedConfigurationHandle, let value = record.clientConfigurations[cccd] else { return false }
        state.setConfiguration(value, at: cccd)
        return state.configuration(cccd).contains(.indication)
    }

    /// Removes connection `id`'s state, announcing it.
    func drop(_ id: UInt64) {
        handles[id]?.keepFinalRecord(record(of: id))
        guard let state = states.removeValue(forKey: id) else { return }
        handles.removeValue(forKey: id)
        eventInput.yield(.disconnected(state.peer))
    }

    // MARK: Per-connection state, for GATTServerConnection

    func state(of id: UInt64) -> GATTConnectionState? { states[id] }

    func setSigningKey(_ key: GATTSigningKey?, for id: UInt64) {
        states[id]?.signingKey = key
    }

    func setBonded(_ bonded: Bool, for id: UInt64) {
        states[id]?.isBonded = bonded
    }

    func record(of id: UInt64) -> GATTClientRecord? {
        guard let state = states[id] else { return nil }
        return GATTClientRecord(clientConfigurations: state.configurations,
                                clientSupportedFeatures: state.clientSupportedFeatures,
                                isChangeAware: state.isChangeAware, databaseHash: served.database.databaseHash,
                                lastSignCounter: state.lastSignCounter)
    }

    // MARK: Values

    /// The value the server holds for a fixed attribute: the one last written, else the database's.
    func storedValue(_ attribute: GATTAttribute) -> [UInt8]? {
        guard case .fixed(let octets) = attribute.value else { return nil }
        return values[attribute.handle] ?? octets
    }
}

extension GATTServer {
    /// The sizes of what the server holds, for tests and diagnostics: every collection is bounded
    /// by the database, the prepare queue's limit or 512 octets, whatever clients send.
    struct Footprint: Sendable, Hashable {
        /// Connections with state.
        var connections = 0
        /// The most prepared writes queued on one connection, and the most value octets.
        var preparedEntries = 0, preparedOctets = 0
        /// The most CCCD values held for one connection.
        var configurations = 0
        /// The longest Client Supported Features value held.
        var featureOctets = 0
        /// The values clients wrote to fixed attributes, and their octets.
        var values = 0, valueOctets = 0
    }

    /// The current ``Footprint``.
    var footprint: Footprint {
        var footprint = Footprint(connections: states.count, values: values.count,
                                  valueOctets: values.values.reduce(0) { $0 + $1.count })
        for state in states.values {
            footprint.preparedEntries = max(footprint.preparedEntries, state.prepareQueue.entries.count)
            footprint.preparedOctets = max(footprint.preparedOctets, state.prepareQueue.octets)
            footprint.configurations = max(footprint.configurations, state.configurations.count)
            footprint.featureOctets = max(footprint.featureOctets, state.clientSupportedFeatures.count)
        }
        return footprint
    }
}
