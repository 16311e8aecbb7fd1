import BLECore
import Foundation
import GATT
import Synchronization

/// The state of one ``CentralManager`` on one serial executor: bring-up, the mode's backend,
/// the scan, the links of its peripherals, and restoration.
actor CentralCore {
    /// Stands for the manager in its peripherals' ``Peripheral/owner``.
    private final class Token: Sendable {}

    nonisolated let broadcast = StateBroadcast()
    nonisolated let events: AsyncStream<CentralEvent>
    nonisolated let isScanning = Mutex(false)
    nonisolated let options: ManagerOptions
    nonisolated let registry: PeripheralRegistry
    /// What ``Peripheral/owner`` is for this manager's peripherals.
    nonisolated let owner: ObjectIdentifier
    private nonisolated let token = Token()
    nonisolated let scanIDs = Mutex<UInt64>(0)
    /// Scans whose stream ended and whose stop has not finished yet: marked as the stream
    /// terminates (synchronously, before the application's next call), cleared once
    /// ``scanTerminated(_:)`` has stopped the scan. A connect waits for them.
    nonisolated let stoppingScans = Mutex<Set<UInt64>>([])
    /// The manager's restoration; nil without a restore identifier.
    nonisolated let restoration: CentralRestoration?
    /// The restoration problems reported so far.
    nonisolated let problems: RestorationProblemLog
    /// The databases ``Peripheral/discoverDatabase()`` found, by peer, for the manager's life:
    /// a reconnection whose Database Hash is unchanged takes its tree from here.
    nonisolated let databases = InMemoryGATTClientCache()

    let eventInput: AsyncStream<CentralEvent>.Continuation
    var backend: (any CentralBackend)?
    var closed = false

    // Scanning (CentralCore+Scanning.swift).
    var scan: ScanSession?
    var lastStartedScan: UInt64 = 0
    var scansEndedBeforeStart: Set<UInt64> = []
    var scanTurnHeld = false
    var scanTurnWaiters: [CheckedContinuation<Void, Never>] = []
    var scanEndWaiters: [CheckedContinuation<Void, Never>] = []
    var scanStopWaiters: [CheckedContinuation<Void, Never>] = []

    // Connections (CentralCore+Connecting.swift).
    /// The peripherals with a link or an attempt, held while they have one.
    var live: [UUID: Peripheral] = [:]
    var attempts: [UUID: ConnectionAttempt] = [:]
    /// The number of the last attempt made (``ConnectionAttempt/number``).
    private var lastAttempt: UInt64 = 0

    /// The number of a new attempt (``ConnectionAttempt/number``).
    func newAttemptNumber() -> UInt64 {
        lastAttempt &+= 1
        return lastAttempt
    }
    var disconnectRequested: Set<UUID> = []

    // Restoration's reconnections (CentralCore+Reconnecting.swift).
    var reconnections: [UUID: PendingReconnection] = [:]
    var reconnecting = false
    var reconnectAttempt: Task<Result<any BackendLink, BLEError>, Never>?
    var applicationConnects = 0
    /// Where the next Filter Accept List turn starts among the waiting peripherals.
    var rotation = 0
    var reconnectionWaiters: [CheckedContinuation<Void, Never>] = []

    init(options: ManagerOptions) {
        self.options = options
        let (events, eventInput) = AsyncStream.makeStream(of: CentralEvent.self, bufferingPolicy: .bufferingNewest(1024))
        self.events = events
        self.eventInput = eventInput
        let problems = RestorationProblemLog { eventInput.yield(.restorationProblem($0)) }
        self.problems = problems
        restoration = options.restoreIdentifier.map {
            CentralRestoration(identifier: $0, directory: options.stateDirectory, problems: problems)
        }
        owner = ObjectIdentifier(token)
        registry = PeripheralRegistry(owner: owner, restoration: restoration)
    }

    // MARK: Bring-up and end

    /// Restores what the state file holds (with a restore identifier), opens `transport`,
    /// brings its controller up, and moves the state to what that gave; then reconnects the
    /// restored peripherals.
    func bringUp(_ transport: Transport) async {
        if restoration != nil { restore() }
        let started: any CentralBackend
        do {
            started = try await ModeBackends.central(transport, options: options)
        } catch {
            restoration?.writer.freeze()   // the mode never ran: keep the file as it is
            endReconnections(with: closed ? .poweredOff : error.error)
            broadcast.set(closed ? .poweredOff : error.state, failure: closed ? .poweredOff : error.error)
            return
        }
        guard !closed else {
            await started.close()
            return
        }
        backend = started
        broadcast.set(.poweredOn)
        watchEnd(of: started)
        startReconnecting()
    }

    /// Hands the end of `backend` to ``backendEnded(_:of:)``.
    private func watchEnd(of backend: any CentralBackend) {
        Task { [weak self] in
            let end = await backend.ended()
            await self?.backendEnded(end, of: backend)
        }
    }

    /// The backend, once bring-up has settled with the controller powered on.
    ///
    /// - Throws: what the settled state gives (``BLEError/poweredOff``,
    ///   ``BLEError/unsupported(_:)``, ``BLEError/unauthorized(_:)``); ``BLEError/cancelled``
    ///   when the calling task is cancelled while it waits.
    func readyBackend() async throws(BLEError) -> any CentralBackend {
        try await broadcast.poweredOn()
        guard let backend, !closed else { throw .poweredOff }
        return backend
    }

    /// The mode ended under the manager (a Hardware Error, the transport closed): restoration's
    /// file keeps what ran, the scan fails, the links have dropped (their watchers end their
    /// calls), the reconnections end, the state moves. When the mode can come back (host mode
    /// after a Hardware Error: ``BackendEnd/restart``), the manager is
    /// ``ManagerState/resetting`` (calls wait) while the controller is reset and brought up
    /// again, then ``ManagerState/poweredOn`` on the new mode; with a restore identifier, the
    /// peripherals that were connected are reconnected and resubscribed as after a restart
    /// (without ``CentralEvent/willRestoreState(_:)``, and without the scan, which the
    /// application starts again).
    func backendEnded(_ end: BackendEnd, of ended: any CentralBackend) async {
        guard let current = backend, current === ended else { return }
        restoration?.writer.freeze()
        backend = nil
        if let scan { await finish(scan, throwing: end.error, stopping: nil) }
        endReconnections(with: end.error)
        guard let restart = end.restart, !closed else {
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
            watchEnd(of: next)
            if restoration != nil { resumeAfterReset() }
            broadcast.set(.poweredOn)
            startReconnecting()
        case .failure(let failure):
            guard !closed else { return }
            broadcast.set(failure.state, failure: failure.error)
        }
    }

    /// Ends the scan and the links, closes the transport, and finishes the streams.
    /// Restoration's file keeps what ran until now.
    func close() async {
        guard !closed else { return }
        closed = true
        restoration?.writer.freeze()
        if let scan { await finish(scan, throwing: nil, stopping: backend) }
        endReconnections(with: .poweredOff)
        for attempt in attempts.values { attempt.task.cancel() }
        let backend = self.backend
        self.backend = nil
        let links = live.values.compactMap { peripheral in peripheral.record.withLock { $0.link } }
        await backend?.close()
        for link in links { await link.settled.wait() }   // their peripherals are disconnected now
        await restoration?.writer.written()
        broadcast.set(.poweredOff)
        broadcast.finish()
        eventInput.finish()
    }
}
