import BLECore
import Foundation
import GATT
import Host

extension CentralCore {
    /// Connects `peripheral` (see ``CentralManager/connect(_:options:)``).
    func connect(_ peripheral: Peripheral, options: ConnectOptions) async throws(BLEError) {
        guard peripheral.owner == owner else { throw .invalidArgument("\(peripheral) belongs to another manager") }
        var backend = try await readyBackend()
        while true {
            switch peripheral.state {
            case .connected:
                // A link that has dropped, its end not yet taken in by the manager (its calls
                // have already thrown disconnected): wait for that, then connect anew.
                guard let session = peripheral.record.withLock({ $0.link }), session.downReason != nil else { return }
                backend = try await untilSettled(session, timeout: options.timeout, clock: backend.clock)
                continue
            case .connecting:
                guard let attempt = attempts[peripheral.identifier] else { throw .invalidArgument("\(peripheral) is connecting") }
                try await join(attempt.task, timeout: options.timeout, clock: backend.clock)
                return
            case .disconnecting:
                // The link ends within its supervision timeout (up to 32 s): the wait is this
                // call's first phase, bounded by its timeout and its task's cancellation.
                if let session = peripheral.record.withLock({ $0.link }) {
                    backend = try await untilSettled(session, timeout: options.timeout, clock: backend.clock)
                } else {
                    backend = try await readyBackend()
                }
                continue
            case .disconnected:
                break
            }
            break
        }
        guard !closed else { throw .poweredOff }
        peripheral.record.withLock { $0.state = .connecting }
        live[peripheral.identifier] = peripheral
        restoration?.intent(.connecting, for: peripheral)
        let number = newAttemptNumber()
        let attempt = Task { await self.establish(peripheral, on: backend, options: options, attempt: number) }
        attempts[peripheral.identifier] = ConnectionAttempt(number: number, task: attempt)
        let outcome = await withTaskCancellationHandler {
            await attempt.value
        } onCancel: {
            attempt.cancel()
        }
        try outcome.get()
    }

    /// Waits for an attempt that is not this call's (another `connect`'s, or restoration's
    /// reconnection, which waits for the peripheral for as long as it takes), as a `connect`
    /// made while connecting does: bounded by this call's own `timeout`
    /// (``BLEError/connectionTimeout``) and its task's cancellation (``BLEError/cancelled``),
    /// neither of which ends the attempt itself.
    nonisolated func join(_ attempt: Task<Result<Void, BLEError>, Never>, timeout: Duration,
                          clock: any Clock<Duration>) async throws(BLEError) {
        try await race({ await attempt.value }, timeout: timeout, clock: clock)
    }

    /// Waits, within `timeout` and the caller's cancellation, until the manager has taken in
    /// the end of `session`'s link, then for the backend again (a controller reset may have come
    /// meanwhile).
    ///
    /// - Throws: as ``race(_:timeout:clock:)``; as `readyBackend()`.
    func untilSettled(_ session: PeripheralLink, timeout: Duration, clock: any Clock<Duration>) async throws(BLEError) -> any CentralBackend {
        try await race({ await session.settled.wait(); return .success(()) }, timeout: timeout, clock: clock)
        return try await readyBackend()
    }

    /// Waits for `work`'s outcome, bounded by `timeout` (on `clock`) and the caller's
    /// cancellation; `work` runs on in a task of its own when the caller stops waiting.
    ///
    /// - Throws: `work`'s failure; ``BLEError/connectionTimeout`` after `timeout`;
    ///   ``BLEError/cancelled`` when the caller's task is cancelled.
    nonisolated func race(_ work: @escaping @Sendable () async -> Result<Void, BLEError>, timeout: Duration,
                          clock: any Clock<Duration>) async throws(BLEError) {
        let race = OneShot<Result<Void, BLEError>>()
        Task { race.resolve(await work()) }
        let timer = TimeoutSleep.timer(after: timeout, on: clock) { race.resolve(.failure(.connectionTimeout)) }
        defer { timer.cancel() }
        let outcome = await withTaskCancellationHandler {
            await race.wait()
        } onCancel: {
            race.resolve(.failure(.cancelled))
        }
        try outcome.get()
    }

    /// Makes the link, its GATT client and the ATT MTU exchange (Core v5.4, Vol 3, Part G,
    /// 4.3.1), with restoration the Database Hash read (7.3), then marks `peripheral`
    /// connected; runs as the task of attempt number `attempt`, which a cancel ends. A restoration's reconnection
    /// of other peripherals pauses meanwhile (the controller initiates one link at a time).
    ///
    /// `options.timeout` bounds each phase: the link's creation (the backend cancels it), and
    /// then the steps that wait on the peer, which end at once with the link that the deadline
    /// (``ConnectDeadline``) or a cancel terminates, rather than at the 30 s ATT timeout.
    nonisolated func establish(_ peripheral: Peripheral, on backend: any CentralBackend,
                               options: ConnectOptions, attempt: UInt64) async -> Result<Void, BLEError> {
        let link: any BackendLink
        await pauseReconnection()
        await untilScanStopsFinish()
        do {
            link = try await backend.connect(to: peripheral.address, addressType: peripheral.addressType.leAddressType,
                                             timeout: options.timeout, security: options.security)
        } catch {
            await resumeReconnection()
            await attemptEnded(peripheral, recording: !(await backend.hasEnded))
            return .failure(error)
        }
        await resumeReconnection()
        let session = await newSession(on: link, clock: backend.clock)
        watch(link, of: peripheral, session: session, backend: backend)
        // The steps that wait on the peer get `options.timeout` of their own, from the link's
        // creation (whose own timeout started after any wait for the controller's turn).
        let deadline = ConnectDeadline(link: link)
        let timer = TimeoutSleep.timer(after: options.timeout, on: backend.clock) { await deadline.expire() }
        defer { timer.cancel() }
        let restoring = restoration != nil
        let steps: Result<[UInt8]?, BLEError> = await withTaskCancellationHandler {
            do throws(BLEError) {
                _ = try await session.gatt { (client) async throws(GATTClientError) -> Int in try await client.exchangeMTU() }
                guard restoring else { return .success(nil) }
                // Best effort (an optional step, Vol 3, Part G, 7.3): a bad answer gives a
                // diagnostic and no hash, and the restoration then discovers the database.
                return .success(try await session.gatt { (client) async throws(GATTClientError) -> [UInt8]? in
                    try await client.readUsableDatabaseHash()?.value
                })
            } catch {
                return .failure(error)
            }
        } onCancel: {
            Task { await link.terminate() }
        }
        var failure: BLEError?
        if case .failure(let error) = steps { failure = error }
        if Task.isCancelled { failure = .cancelled }
        // Settled before the link is handed over: a deadline that passes from now on leaves it up.
        if failure == nil, !deadline.settle() { failure = .connectionTimeout }
        if failure == nil, await !connected(peripheral, attempt: attempt, session: session, mtu: session.client.mtu,
                                            databaseHash: try? steps.get()) {
            // The link dropped after the last step (not closed by the manager, nor by a cancel):
            // its Reason, as the steps would have thrown.
            if let reason = session.downReason, !Task.isCancelled, await !closed {
                failure = .disconnected(reason)
            } else {
                failure = .cancelled
            }
        }
        if failure != nil, !Task.isCancelled, deadline.hasExpired { failure = .connectionTimeout }
        guard let failure else { return .success(()) }
        await link.terminate()
        await session.settled.wait()
        await attemptEnded(peripheral, recording: !(await backend.hasEnded))
        return .failure(failure)
    }

    /// Watches `link` (of `session`) until it drops: the session's calls end, then the manager
    /// takes the end in (``linkEnded(_:session:modeEnded:)``).
    nonisolated func watch(_ link: any BackendLink, of peripheral: Peripheral, session: PeripheralLink, backend: any CentralBackend) {
        Task { [weak self] in
            let reason = await link.disconnected()
            // What the peer sent before its end may still be on its way up (host mode hands a
            // link's ACL data over until its route ends; kernel mode's socket holds what the
            // kernel received): the client reads it into the streams before they end.
            await session.untilClientHasRead(within: .seconds(2), on: backend.clock)
            session.drop(reason)
            let modeEnded = await backend.hasEnded
            await self?.linkEnded(peripheral, session: session, modeEnded: modeEnded)
        }
    }

    /// A session for a new link.
    func newSession(on link: any BackendLink, clock: any Clock<Duration>) -> PeripheralLink {
        PeripheralLink(generation: PeripheralLink.nextGeneration(), backend: link, clock: clock, cache: databases)
    }

    /// The link is ready: `peripheral` is connected on `session`, with `services` as its tree
    /// (a restoration's; nil otherwise), unless the manager closed, or `attempt` (its
    /// ``ConnectionAttempt/number``) was cancelled or is no longer the peripheral's attempt
    /// (the application cancelled it and connected again meanwhile), which returns false.
    /// `databaseHash` is what the server's Database Hash read, when restoration read it.
    func connected(_ peripheral: Peripheral, attempt: UInt64, session: PeripheralLink, mtu: Int, services: [Service]? = nil,
                   databaseHash: [UInt8]? = nil) -> Bool {
        guard !closed, let current = attempts[peripheral.identifier], current.number == attempt, !current.task.isCancelled,
              session.downReason == nil else { return false }
        attempts[peripheral.identifier] = nil
        peripheral.record.withLock { record in
            record.state = .connected
            record.link = session
            record.services = services
            record.mtu = mtu
            record.disconnectionReason = nil
        }
        peripheral.watchServiceChanges(on: session)
        restoration?.connected(peripheral, databaseHash: databaseHash)
        restoration?.treeChanged(peripheral)
        eventInput.yield(.connected(peripheral))
        return true
    }

    /// An attempt failed or was cancelled: `peripheral` is disconnected again, and, `recording`
    /// (the mode still runs), no longer to be reconnected on restoration.
    func attemptEnded(_ peripheral: Peripheral, recording: Bool) {
        attempts[peripheral.identifier] = nil
        let ended = peripheral.record.withLock { record -> Bool in
            guard record.state == .connecting else { return false }
            record.state = .disconnected
            return true
        }
        if peripheral.state == .disconnected { live[peripheral.identifier] = nil }
        if ended, recording { restoration?.intent(.none, for: peripheral) }
    }

    /// The link of `session` ended (its calls have ended already): `peripheral` is
    /// disconnected, and ``CentralManager/events`` says so, with no error when the application
    /// asked for it. Unless the mode ended with it (`modeEnded`), restoration no longer
    /// reconnects it.
    func linkEnded(_ peripheral: Peripheral, session: PeripheralLink, modeEnded: Bool) {
        defer { session.settled.resolve(()) }
        let wasCurrent = peripheral.record.withLock { record -> Bool in
            guard record.link === session else { return false }
            record.link = nil
            record.services = nil
            record.mtu = 23
            record.state = .disconnected
            record.disconnectionReason = session.ended.value
            return true
        }
        guard wasCurrent else { return }
        live[peripheral.identifier] = nil
        if !modeEnded { restoration?.linkEnded(peripheral) }
        let requested = disconnectRequested.remove(peripheral.identifier) != nil
        let reason = session.ended.value ?? .unspecifiedError
        eventInput.yield(.disconnected(peripheral, requested ? nil : .disconnected(reason)))
    }

    /// Ends `peripheral`'s attempt or link (see ``CentralManager/cancelPeripheralConnection(_:)``).
    func cancelConnection(_ peripheral: Peripheral) async {
        guard peripheral.owner == owner else { return }
        switch peripheral.state {
        case .disconnected:
            return
        case .connecting:
            if reconnections[peripheral.identifier] != nil {
                await cancelReconnection(of: peripheral)
                return
            }
            guard let attempt = attempts[peripheral.identifier] else { return }
            attempt.task.cancel()
            _ = await attempt.task.value
        case .connected, .disconnecting:
            guard let session = peripheral.record.withLock({ $0.link }) else { return }
            // Dropped already, by the peer or the controller: its event keeps its Reason.
            if session.downReason != nil {
                await session.settled.wait()
                return
            }
            disconnectRequested.insert(peripheral.identifier)
            peripheral.record.withLock { record in
                if record.link === session { record.state = .disconnecting }
            }
            await session.backend.terminate()
            await session.settled.wait()
        }
    }

    /// The peripherals with these identifiers (see ``CentralManager/retrievePeripherals(withIdentifiers:)``).
    nonisolated func retrieve(_ identifiers: [UUID]) -> [Peripheral] {
        identifiers.compactMap { registry.peripheral(identifier: $0) }
    }
}
