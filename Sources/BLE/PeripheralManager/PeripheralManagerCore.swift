import ATT
import Foundation
import GATT
import HCI
import Synchronization

/// The state of one ``PeripheralManager`` on one serial executor: bring-up, the GATT server and
/// its database, the links of centrals, their subscriptions, the updates to send, and
/// restoration.
actor PeripheralManagerCore {
    nonisolated let broadcast = StateBroadcast()
    nonisolated let options: ManagerOptions
    /// The manager's events (restoration's).
    nonisolated let events: AsyncStream<PeripheralManagerEvent>
    /// The restoration problems reported so far.
    nonisolated let problems: RestorationProblemLog
    /// The manager's restoration; nil without a restore identifier.
    nonisolated let restoration: PeripheralManagerRestoration?
    nonisolated let requests: AsyncStream<PeripheralRequest>
    nonisolated let subscriptions: AsyncStream<SubscriptionEvent>
    nonisolated let pending = PendingRequests()
    nonisolated let updates = UpdateQueue()
    /// Each served characteristic's value handle, by the characteristic's identity.
    nonisolated let valueHandles = Mutex<[ObjectIdentifier: UInt16]>([:])
    nonisolated let advertising = Mutex(false)
    /// What ``startAdvertising(_:)`` advertises while in effect, to advertise again after a
    /// controller reset.
    var advertised: AdvertisementData?

    let eventInput: AsyncStream<PeripheralManagerEvent>.Continuation
    /// What ``requests`` reads: requests that wait for an answer are never dropped.
    nonisolated let requestQueue = RequestQueue()
    let subscriptionInput: AsyncStream<SubscriptionEvent>.Continuation
    var backend: (any PeripheralBackend)?
    var server: GATTServer?
    var closed = false

    struct Link {
        let central: Central
        let connection: GATTServerConnection
        /// Its Client Characteristic Configuration values, by value handle.
        var configurations: [UInt16: GATTClientCharacteristicConfiguration] = [:]
        /// The updates for this central not yet sent, oldest first (``deliverUpdates(to:)``).
        var outbox: [UpdateDelivery] = []
        /// Whether a task is sending its ``outbox``.
        var delivering = false
    }

    /// The updates handed to the links and not yet finished with: by serial, how many links
    /// have yet to send (or drop) each (PeripheralManagerCore+Updates.swift).
    var unfinishedUpdates: [UInt64: Int] = [:]
    var nextUpdateSerial: UInt64 = 0
    /// How many database changes are under way; updates wait while any is.
    var databaseChanges = 0
    /// Whether the sender stopped for a database change, with updates left to send.
    var senderPaused = false
    /// The calls waiting for the database change under way to end (``untilDatabaseSettles()``).
    var databaseSettled: [CheckedContinuation<Void, Never>] = []

    /// The links of centrals, by the server's connection identifier.
    var links: [UInt64: Link] = [:]
    var centralWaiters: [UInt64: [CheckedContinuation<Central?, Never>]] = [:]

    // The database (PeripheralManagerCore+Database.swift, PeripheralManagerCore+Published.swift).
    var services: [MutableService] = []
    var byHandle: [UInt16: MutableCharacteristic] = [:]
    /// Whether the served database is one ``PeripheralManager/publish(_:)`` gave, as it is.
    var servesPublishedDatabase = false

    init(options: ManagerOptions) {
        self.options = options
        let (events, eventInput) = AsyncStream.makeStream(of: PeripheralManagerEvent.self, bufferingPolicy: .bufferingNewest(1024))
        self.events = events
        self.eventInput = eventInput
        let problems = RestorationProblemLog { eventInput.yield(.restorationProblem($0)) }
        self.problems = problems
        restoration = options.restoreIdentifier.map {
            PeripheralManagerRestoration(identifier: $0, directory: options.stateDirectory, problems: problems)
        }
        requests = requestQueue.stream()
        (subscriptions, subscriptionInput) = AsyncStream.makeStream(of: SubscriptionEvent.self, bufferingPolicy: .bufferingNewest(1024))
    }

    // MARK: Bring-up and end

    /// Opens `transport`, brings its controller up, starts an empty GATT server (with its GAP
    /// and GATT services) and serves every link centrals make; with a restore identifier, brings
    /// back the services and advertising its state file holds before powering on.
    func bringUp(_ transport: Transport) async {
        let restored = restoration?.load()
        let started: any PeripheralBackend
        let server: GATTServer
        do {
            started = try await ModeBackends.peripheral(transport, options: options, staticRandomAddress: restored?.staticRandomAddress)
            // The GAP and GATT services at the top of the handle space: the added services, from
            // 0x0001, never move them, so Service Changed keeps its handle (Part G, 7.1).
            let top = GATTServerConfiguration.topServerServicesHandle
            server = try GATTServer(database: try GATTDatabase(services: []),
                                    configuration: GATTServerConfiguration(deviceName: options.deviceName, preferredServerServicesHandle: top))
        } catch let failure as BackendFailure {
            restoration?.writer.freeze()   // the mode never ran: keep the file as it is
            broadcast.set(closed ? .poweredOff : failure.state, failure: closed ? .poweredOff : failure.error)
            return
        } catch {
            restoration?.writer.freeze()
            broadcast.set(.unsupported, failure: .unsupported("\(error)"))
            return
        }
        guard !closed else {
            await started.close()
            return
        }
        backend = started
        self.server = server
        await server.setQueuedWriteHandler { [weak self] parts, peer async throws(GATTQueuedWriteRefusal) in
            guard let self else { throw GATTQueuedWriteRefusal(handle: parts.first?.handle ?? 0, code: .unlikelyError) }
            try await self.ask(queuedWrites: parts, peer: peer)
        }
        guard !closed else { return }   // close() came meanwhile: it has closed `started`
        serve(started, on: server)
        Task { [weak self] in
            for await event in server.events { await self?.serverEvent(event) }
        }
        restoration?.usesAddress(started.staticRandomAddress)
        if let restored { await restore(restored, on: server, backend: started) }
        broadcast.set(.poweredOn)
    }

    /// Serves the links `backend` hands over on `server`, forwards its notices, and watches its end.
    private func serve(_ backend: any PeripheralBackend, on server: GATTServer) {
        forwardNotices(of: backend)
        Task { [weak self] in
            for await link in backend.incoming { await self?.accept(link, on: server, clock: backend.clock) }
        }
        Task { [weak self] in
            let end = await backend.ended()
            await self?.backendEnded(end, of: backend)
        }
    }

    /// The backend and server, once bring-up has settled with the controller powered on.
    ///
    /// - Parameter cancellable: whether the calling task's cancellation ends the wait.
    /// - Throws: ``BLEError/poweredOff`` or why the manager is not powered on;
    ///   ``BLEError/cancelled`` when `cancellable` and the task is cancelled while it waits.
    func ready(cancellable: Bool = true) async throws(BLEError) -> (backend: any PeripheralBackend, server: GATTServer) {
        try await broadcast.poweredOn(cancellable: cancellable)
        guard let backend, let server, !closed else { throw .poweredOff }
        return (backend, server)
    }

    /// The mode ended under the manager: advertising stopped, the links are gone, the state
    /// moves. When the mode can come back (host mode after a Hardware Error:
    /// ``BackendEnd/restart``), the manager is ``ManagerState/resetting`` (calls wait) while the
    /// controller is reset and brought up again with the same static random address, then
    /// ``ManagerState/poweredOn``: the services are still served (the database is the host's),
    /// and advertising that was in effect starts again, so centrals find the peripheral where
    /// they knew it.
    func backendEnded(_ end: BackendEnd, of ended: any PeripheralBackend) async {
        guard let current = backend, current === ended else { return }
        restoration?.writer.freeze()
        backend = nil
        let wasAdvertising = advertising.withLock { state in
            defer { state = false }
            return state
        }
        guard let restart = end.restart, let server, !closed else {
            for state in end.states { broadcast.set(state, failure: end.error) }
            return
        }
        broadcast.set(.resetting, failure: end.error)
        switch await restart() {
        case .success(let next):
            guard !closed else {
                await next.close()
                return
            }
            backend = next
            serve(next, on: server)
            restoration?.writer.unfreeze()
            if wasAdvertising, let advertised {
                do throws(BLEError) {
                    try await next.startAdvertising(try advertised.structures(), scanResponse: advertised.scanResponseStructures,
                                                  connectable: advertised.isConnectable)
                    advertising.withLock { $0 = true }
                } catch {
                    self.advertised = nil
                    restoration?.advertisingStopped()
                    eventInput.yield(.advertisingStopped(error))
                }
            }
            broadcast.set(.poweredOn)
        case .failure(let failure):
            guard !closed else { return }
            broadcast.set(failure.state, failure: failure.error)
        }
    }

    /// Ends advertising and the links, closes the transport, finishes the streams.
    /// Restoration's file keeps what ran until now.
    func close() async {
        guard !closed else { return }
        closed = true
        for id in Array(centralWaiters.keys) { resumeCentralWaiters(of: id, with: nil) }
        restoration?.writer.freeze()
        let backend = self.backend
        self.backend = nil
        advertising.withLock { $0 = false }
        await backend?.close()
        await restoration?.writer.written()
        broadcast.set(.poweredOff)
        broadcast.finish()
        eventInput.finish()
        requestQueue.finish()
        subscriptionInput.finish()
        updates.finish()
    }

    /// Tells what `backend` tells of itself (kernel mode's pairing answers) on ``events``.
    nonisolated func forwardNotices(of backend: any PeripheralBackend) {
        let input = eventInput
        Task {
            for await notice in backend.notices { input.yield(notice) }
        }
    }

    // MARK: Links

    /// Serves a central's new link: the server answers its requests from the first PDU. The
    /// link is ended when one of its ATT transactions times out.
    func accept(_ link: any BackendLink, on server: GATTServer, clock: any Clock<Duration>) async {
        let connection = await server.connect(link.attBearer, clock: clock)
        let central = Central(address: link.peerAddress, type: Peripheral.AddressType(link.peerAddressType))
        let id = connection.peer.connectionID
        links[id] = Link(central: central, connection: connection)
        resumeCentralWaiters(of: id, with: central)
        eventInput.yield(.connected(central))
        await tellReadvertisingErrors()
        Task {
            for await mtu in connection.engine.mtuUpdates { central.setMTU(mtu) }
        }
        Task { [weak self] in
            let reason = await link.disconnected()
            await self?.linkEnded(id, reason: reason)
        }
        Task {
            // A transaction that timed out (an indication the central left unconfirmed for 30 s)
            // closed the bearer with the link up: no more ATT PDUs go on it, and only a new
            // connection makes a new one (Core v5.4, Vol 3, Part F, 3.3.3). The link ends, as on
            // a central's side, and the central's state here goes with it.
            let engine = connection.engine
            await engine.waitUntilClosed()
            if await engine.didTimeOut, link.disconnectionReason == nil { await link.terminate() }
        }
    }

    /// Tells, on ``events``, each time advertising could not start again after a connection.
    func tellReadvertisingErrors() async {
        guard let backend else { return }
        for error in await backend.newReadvertisingErrors() { eventInput.yield(.advertisingRestartFailed(error)) }
    }

    /// A central's link dropped with `reason`: it is unsubscribed from everything, its server
    /// state goes, and ``events`` tells it.
    func linkEnded(_ id: UInt64, reason: HCIStatus) async {
        guard let link = links.removeValue(forKey: id) else { return }
        for delivery in link.outbox { finish(delivery) }
        for (handle, configuration) in link.configurations where !configuration.isEmpty {
            guard let characteristic = byHandle[handle] else { continue }
            characteristic.unsubscribed(link.central)
            subscriptionInput.yield(.unsubscribed(link.central, characteristic))
        }
        await link.connection.detach()
        // A request of the link that reached central(for:) after the link left `links` waits:
        // nothing will accept the link again.
        resumeCentralWaiters(of: id, with: nil)
        eventInput.yield(.disconnected(link.central, reason))
        await tellReadvertisingErrors()
    }

    /// The central of the server's connection `peer`, waiting for its link to be registered
    /// (a request can come before ``accept(_:on:clock:)`` has stored it); nil once the link has
    /// ended or the manager has closed.
    ///
    /// A request can also come after ``linkEnded(_:reason:)`` took its link out of `links`:
    /// then nothing will store it. Such a waiter ends at the end of `linkEnded` when that is
    /// still running, and otherwise at once, by the server, which no longer holds the
    /// connection (``GATTServer/hasConnection(_:)``) once `linkEnded` has detached it.
    func central(for peer: GATTPeer) async -> Central? {
        let id = peer.connectionID
        if let link = links[id] { return link.central }
        guard !closed, let server else { return nil }
        return await withCheckedContinuation { waiter in
            centralWaiters[id, default: []].append(waiter)
            Task { await self.endCentralWaitersIfGone(id, on: server) }
        }
    }

    /// Ends the waiters for connection `id` when `server` no longer holds it and no link was stored.
    private func endCentralWaitersIfGone(_ id: UInt64, on server: GATTServer) async {
        guard await !server.hasConnection(GATTPeer(connectionID: id)), links[id] == nil else { return }
        resumeCentralWaiters(of: id, with: nil)
    }

    /// Resumes, and forgets, the waiters for connection `id`.
    private func resumeCentralWaiters(of id: UInt64, with central: Central?) {
        for waiter in centralWaiters.removeValue(forKey: id) ?? [] { waiter.resume(returning: central) }
    }

    // MARK: Subscriptions

    /// A server event: CCCD writes become subscriptions (and, each, an event); writes of values
    /// the stack keeps become events.
    ///
    /// An event of a link not stored yet (a central that writes as soon as it connects, with
    /// handles it cached) waits for ``accept(_:on:clock:)`` to store it, as a request does
    /// (``central(for:)``), and so do the events after it, which keep their order.
    func serverEvent(_ event: GATTServerEvent) async {
        let peer: GATTPeer
        switch event {
        case .valueWritten(let writer, _, _), .configurationChanged(let writer, _, _): peer = writer
        default: return
        }
        if links[peer.connectionID] == nil { _ = await central(for: peer) }
        if case .valueWritten(_, let handle, let value) = event {
            // Kept by the characteristic too, so the database the next change builds keeps it.
            byHandle[handle]?.keep(Data(value))
            if let link = links[peer.connectionID] { eventInput.yield(.valueWritten(link.central, handle: handle, value: Data(value))) }
            return
        }
        guard case .configurationChanged(_, let handle, let written) = event,
              var link = links[peer.connectionID], let characteristic = byHandle[handle] else { return }
        // A value with only reserved bits (Part G, 3.3.3.3) subscribes to nothing.
        let configuration = written.withoutReservedBits
        var kinds: Set<ValueUpdateKind> = []
        if configuration.contains(.notification) { kinds.insert(.notification) }
        if configuration.contains(.indication) { kinds.insert(.indication) }
        eventInput.yield(.clientConfigurationChanged(link.central, characteristic, kinds))
        let previous = link.configurations[handle] ?? []
        link.configurations[handle] = configuration
        links[peer.connectionID] = link
        if previous.isEmpty, !configuration.isEmpty {
            characteristic.subscribed(link.central)
            subscriptionInput.yield(.subscribed(link.central, characteristic))
        } else if !previous.isEmpty, configuration.isEmpty {
            characteristic.unsubscribed(link.central)
            subscriptionInput.yield(.unsubscribed(link.central, characteristic))
        }
    }
}
