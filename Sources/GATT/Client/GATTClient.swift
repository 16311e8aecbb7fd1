import ATT
import BLECore

/// The GATT client role on one connection (Core v5.4, Vol 3, Part G, 4): every procedure of
/// Table 4.1 over one ``ATTEngine``.
///
/// ```swift
/// let client = GATTClient(engine: ATTEngine(bearer: bearer),
///                         configuration: .init(cache: cache, peer: GATTPeerIdentity(address: identity)))
/// _ = try await client.exchangeMTU()                          // 4.3.1
/// let services = try await client.discoverDatabase()          // robust caching, 2.5.2
/// if let rate = services.first(where: { $0.uuid == BluetoothUUID(0x180D) })?.characteristics.first {
///     for await update in try await client.notifications(for: rate) { print(update.value) }
/// }
/// ```
///
/// **One per connection.** A client belongs to one bearer, never to a device: nothing it does
/// can reach another connection. It is the only reader of its engine's
/// ``ATTEngine/serverInitiated`` stream, so make one client per engine.
///
/// **Procedures.** Each public method is one GATT sub-procedure and names its section.
/// Discovery procedures return plain values and leave ``services`` alone;
/// ``discoverDatabase()`` builds the tree in ``services``, which Service Changed indications
/// (7.1) and Database Out Of Sync recovery (2.5.2.1) keep current.
///
/// **Sequencing.** The engine keeps one request outstanding (Part F, 3.3.2); calls made
/// together are served in call order. Procedures that span several requests may interleave,
/// except those that use the server's prepare queue (write long, reliable writes), which run
/// one at a time, and the changes to the tree, which run one at a time too.
///
/// **Errors.** Every method throws ``GATTClientError``: the server's ATT_ERROR_RSP with its
/// opcode, handle and code; a timeout or a closed bearer; or a protocol violation naming what
/// the server got wrong. Loops never trust the server to end them: a discovery response that
/// would not move the loop forward, or a value that grows past 512 octets, is an error.
///
/// **Database Out Of Sync (0x12).** When a request fails with it, the client reads the
/// Database Hash (which makes it change-aware again, 2.5.2.1), rediscovers ``services`` if the
/// hash changed, and repeats the request once; a discovery procedure is restarted once instead.
/// A Write Long or Reliable Write that meets it at a prepare or at the execute clears the
/// server's queue and runs whole once more: the execute alone is never repeated, since a server
/// that discarded its stale queue would then report success for values it never wrote.
public actor GATTClient {
    /// How a client caches, subscribes and signs.
    public struct Configuration: Sendable {
        /// Where discovered databases are kept between connections; nil for none.
        public var cache: (any GATTClientCache)?
        /// The peer's identity, the key into ``cache``; nil disables caching.
        public var peer: GATTPeerIdentity?
        /// Whether the peer is bonded with this device (a trusted relationship): the server
        /// then keeps this client's CCCD and Client Supported Features values across connections
        /// (Part G, 3.3.3.3 and 7.2), so a cached reconnection does not write them again.
        public var hasTrustedRelationship: Bool
        /// Whether ``discoverDatabase()`` enables Service Changed indications (Part G, 7.1)
        /// when the server has the characteristic.
        public var enablesServiceChangedIndications: Bool
        /// The Client Supported Features value ``discoverDatabase()`` writes when the server has
        /// the characteristic (Part G, 7.2, Table 7.6): by default 0x05, Robust Caching (bit 0)
        /// and Multiple Handle Value Notifications (bit 2), both of which this client supports.
        /// Empty: never written.
        public var clientSupportedFeatures: [UInt8]
        /// How many notifications each subscription keeps for a slow reader.
        public var notificationBuffering: AsyncStream<RemoteNotification>.Continuation.BufferingPolicy

        /// A configuration; the defaults cache nothing and enable Service Changed and robust caching.
        public init(cache: (any GATTClientCache)? = nil, peer: GATTPeerIdentity? = nil,
                    hasTrustedRelationship: Bool = false, enablesServiceChangedIndications: Bool = true,
                    clientSupportedFeatures: [UInt8] = [0x05],
                    notificationBuffering: AsyncStream<RemoteNotification>.Continuation.BufferingPolicy = .unbounded) {
            self.cache = cache
            self.peer = peer
            self.hasTrustedRelationship = hasTrustedRelationship
            self.enablesServiceChangedIndications = enablesServiceChangedIndications
            self.clientSupportedFeatures = clientSupportedFeatures
            self.notificationBuffering = notificationBuffering
        }
    }

    /// The longest attribute value, in octets (Part F, 3.2.9): the limit on values read in parts.
    public static let maximumAttributeValueLength = 512

    /// The ATT engine this client drives; the client reads its ``ATTEngine/serverInitiated``.
    public nonisolated let engine: ATTEngine
    /// The configuration given at creation.
    public nonisolated let configuration: Configuration
    /// The affected handle range of each Service Changed indication, published once ``services``
    /// reflects it (Part G, 7.1), and 0x0001...0xFFFF when a Database Out Of Sync recovery found
    /// the database changed (2.5.2.1). Finishes when the bearer closes.
    public nonisolated let serviceChanges: AsyncStream<ClosedRange<UInt16>>
    /// The same changes as soon as the client learns of them, before it acts: a Service Changed
    /// indication's range as the indication arrives (before the range is rediscovered, and after
    /// the client has ended its own subscriptions in it without writing anything), and
    /// 0x0001...0xFFFF once a Database Out Of Sync recovery has found the database changed, or
    /// could not tell (no whole tree to compare, or no Database Hash to read). An
    /// owner that maps handles to objects of its own stops sending to those in the range here,
    /// as they may name other attributes already (Part G, 7.1). A subscription asked for from
    /// here on waits until the client has handled the change and published it on
    /// ``serviceChanges``, and then takes its CCCD from the tree as it is after the change.
    /// Finishes when the bearer closes.
    public nonisolated let serviceChangeNotices: AsyncStream<ClosedRange<UInt16>>

    /// The discovered database, in handle order: every primary service, and every service an
    /// include names (a secondary one has ``RemoteService/isPrimary`` false), each once, with
    /// its includes, characteristics and descriptors (Part G, 4.4.1 to 4.7.1). Empty until
    /// ``discoverDatabase()``.
    public internal(set) var services: [RemoteService] = []
    /// The Database Hash that ``services`` was discovered (or last confirmed) under (Part G,
    /// 7.3); nil before ``discoverDatabase()`` or when the server has none. A Database Out Of
    /// Sync error compares the server's hash with it to decide whether to rediscover.
    public internal(set) var databaseHash: [UInt8]?
    /// Whether the last ``discoverDatabase()`` took the tree from the cache.
    public internal(set) var usedCachedDatabase = false
    /// The SignCounter the next signed write will use; persist it with the CSRK.
    public internal(set) var signCounter: UInt32 = 0
    /// Whether the client has stopped: the bearer closed.
    public internal(set) var isClosed = false

    let serviceChangesInput: AsyncStream<ClosedRange<UInt16>>.Continuation
    let serviceChangeNoticesInput: AsyncStream<ClosedRange<UInt16>>.Continuation
    var signingKey: GATTSigningKey?

    // Notifications (GATTClient+Notifications.swift).
    var lastSubscriberID: UInt64 = 0
    /// The number of the last CCCD settling task started.
    var lastSettlerID: UInt64 = 0
    var subscribers: [UInt64: ClientSubscriber] = [:]
    var deliveries: [UInt16: [UInt64: ClientDelivery]] = [:]
    var configurations: [UInt16: ClientConfigurationState] = [:]
    /// The internal subscriber that keeps Service Changed indications enabled, if any.
    var serviceChangedSubscriber: UInt64?
    /// The value handle of Service Changed as a service-by-service discovery found it, for a
    /// client whose ``services`` is not the whole tree.
    var learnedServiceChangedValueHandle: UInt16?
    /// The Generic Attribute service of a tree the client did not discover itself, as
    /// ``runOptionalSteps(genericAttribute:)`` gave it, for a client whose ``services`` is empty.
    var adoptedGenericAttribute: RemoteService?
    // Database changes as subscribing sees them (GATTClient+ChangeHandling.swift).
    /// How many changes the client is handling now.
    var changesBeingHandled = 0
    /// Subscriptions waiting for the changes being handled to end.
    var changeWaiters: [CheckedContinuation<Void, Never>] = []
    /// How many changes the client has learned of on this connection.
    var changeCount: UInt64 = 0
    /// The affected ranges of the latest changes, oldest first, the last one ``changeCount``'s.
    var recentChanges: [ClosedRange<UInt16>] = []
    /// Set when a Service Changed range could not be discovered again: ``services`` lacks it
    /// until a whole-database discovery, and no cache may keep it as the database.
    var treeIsPartial = false
    /// Callers of ``waitUntilClosed()``.
    var closedWaiters: [CheckedContinuation<Void, Never>] = []

    // Serialisation (GATTClient+Locks.swift).
    var treeLock = ClientLock()
    var queuedWriteLock = ClientLock()

    /// Whether Client Supported Features was written on this connection.
    var wroteClientSupportedFeatures = false

    /// What the client worked around on this connection, in order: optional steps the server
    /// answered badly, includes it would not follow (``GATTClientDiagnostic``). Procedures the
    /// caller asked for still throw; these are the failures that did not fail them.
    public internal(set) var diagnostics: [GATTClientDiagnostic] = []
    /// Whether robust caching is off for this connection: the Database Hash proved unusable
    /// (``GATTClientDiagnostic/Consequence/robustCachingOff``).
    public internal(set) var isRobustCachingOff = false
    /// Whether Client Supported Features is not to be written again on this connection.
    var clientSupportedFeaturesOff = false
    /// Whether Service Changed indications are not to be enabled again on this connection.
    var serviceChangedIndicationsOff = false

    /// A client on `engine`, which starts reading the engine's notifications and indications.
    ///
    /// - Parameters:
    ///   - engine: the connection's ATT engine; this client becomes the only reader of its
    ///     ``ATTEngine/serverInitiated`` stream.
    ///   - configuration: caching, Service Changed, Client Supported Features, buffering.
    ///   - signingKey: the peer's CSRK for signed writes, and the next SignCounter to use.
    public init(engine: ATTEngine, configuration: Configuration = Configuration(),
                signingKey: GATTSigningKey? = nil, signCounter: UInt32 = 0) {
        self.engine = engine
        self.configuration = configuration
        self.signingKey = signingKey
        self.signCounter = signCounter
        (serviceChanges, serviceChangesInput) = AsyncStream.makeStream(of: ClosedRange<UInt16>.self)
        (serviceChangeNotices, serviceChangeNoticesInput) = AsyncStream.makeStream(of: ClosedRange<UInt16>.self)
        Task(executorPreference: engine.bearer.executor) { await self.readServerInitiated() }
    }

    /// The ATT_MTU in effect, in octets (23 until an exchange completes).
    public nonisolated var mtu: Int { engine.mtu }

    /// The longest value a Write Request or Write Command can carry now: ATT_MTU - 3 octets.
    public nonisolated var maximumWriteValueLength: Int { engine.mtu - 3 }

    /// Exchange MTU (Part G, 4.3.1): offers the bearer's maximum as the Client Rx MTU, once
    /// per connection.
    ///
    /// - Returns: the ATT_MTU now in effect: min(Client Rx MTU, Server Rx MTU), at least 23.
    ///   A server that answers with ATT_ERROR_RSP leaves it at 23.
    /// - Throws: ``GATTClientError/mtuAlreadyExchanged`` on a second call; ``GATTClientError/timeout``,
    ///   ``GATTClientError/closed``, or a protocol violation.
    public func exchangeMTU() async throws(GATTClientError) -> Int {
        do {
            return try await engine.exchangeMTU()
        } catch {
            throw GATTClientError(error)
        }
    }

    /// Sets the CSRK for signed writes and the next SignCounter (Vol 3, Part H, 2.4.5), for
    /// example once pairing has distributed the peer's Signing Information.
    public func setSigningKey(_ key: GATTSigningKey?, signCounter: UInt32 = 0) {
        signingKey = key
        self.signCounter = signCounter
    }

    /// Closes the bearer: every pending procedure fails with ``GATTClientError/closed`` and
    /// every subscription finishes.
    public func close() async {
        await engine.close()
    }

    // MARK: Requests

    /// Sends `request` and returns the server's answer: its response, or ATT_ERROR_RSP as
    /// ``ATTPDU/errorResponse(_:)``. It runs where its caller runs and goes straight to the
    /// engine: only a recovery enters the client's actor.
    ///
    /// With `recovering`, a Database Out Of Sync error (0x12) is recovered from (see the type's
    /// documentation) and the request repeated once; its second answer is returned, whatever it is.
    ///
    /// - Throws: the engine's failures as ``GATTClientError``, and
    ///   ``GATTClientError/databaseChanged(handle:)`` when recovery shows the request's handle
    ///   now designates another attribute.
    nonisolated(nonsending) func exchange(_ request: ATTPDU, recovering: Bool = true) async throws(GATTClientError) -> ATTPDU {
        let response = try await send(request)
        guard recovering, case .errorResponse(let error) = response, error.errorCode == .databaseOutOfSync else {
            return response
        }
        try await recoverFromOutOfSync(handles: request.attributeHandles)
        return try await send(request)
    }

    /// One request through the engine, its failures mapped.
    nonisolated(nonsending) func send(_ request: ATTPDU) async throws(GATTClientError) -> ATTPDU {
        do {
            return try await engine.request(request)
        } catch {
            throw GATTClientError(error)
        }
    }

    /// One command (or notification) through the engine, its failures mapped.
    nonisolated(nonsending) func sendCommand(_ command: ATTPDU) async throws(GATTClientError) {
        do {
            try await engine.send(command)
        } catch {
            throw GATTClientError(error)
        }
    }

    /// The error for an answer that is neither the expected response nor handled: the server's
    /// ATT_ERROR_RSP, or a violation for anything else.
    static func failure(_ response: ATTPDU) -> GATTClientError {
        if case .errorResponse(let error) = response { return GATTClientError(error) }
        return .protocolViolation(.unexpectedResponse(response))
    }

    // MARK: Lifetime

    /// Reads the engine's notifications and indications until it closes, then ends every
    /// subscription and the ``serviceChanges`` stream. When the engine ended on a transaction
    /// timeout (Part F, 3.3.3), what waited fails with ``GATTClientError/timeout``, the cause,
    /// whether this or the timed-out call's own task gets to it first.
    func readServerInitiated() async {
        for await pdu in engine.serverInitiated {
            deliver(pdu)
        }
        let timedOut = await engine.didTimeOut
        // No suspension from here: a caller that finds isClosed finds the subscriptions ended.
        isClosed = true
        endAllSubscriptions(with: timedOut ? .timeout : .closed)
        serviceChangesInput.finish()
        serviceChangeNoticesInput.finish()
        for waiter in closedWaiters { waiter.resume() }
        closedWaiters = []
        endChangeWaits()
    }

    /// Returns once the client has stopped (``isClosed``): it has delivered the last
    /// notification and indication its engine received, and ended every subscription. A link
    /// layer waits for it before it ends what it built on the subscriptions, so that values the
    /// peer sent before the link's end are not lost on the way up.
    public func waitUntilClosed() async {
        guard !isClosed else { return }
        await withCheckedContinuation { closedWaiters.append($0) }
    }
}
