import BLECore
import Foundation
import Synchronization

/// The state of one ``CentralManager`` on one serial executor: bring-up, the mode's backend,
/// the scan, and the links of its peripherals.
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

    // Connections (CentralCore+Connecting.swift).
    var generation: UInt64 = 0
    /// The peripherals with a link or an attempt, held while they have one.
    var live: [UUID: Peripheral] = [:]
    var attempts: [UUID: Task<Result<Void, BLEError>, Never>] = [:]
    var disconnectRequested: Set<UUID> = []

    init(options: ManagerOptions) {
        self.options = options
        (events, eventInput) = AsyncStream.makeStream(of: CentralEvent.self, bufferingPolicy: .bufferingNewest(1024))
        owner = ObjectIdentifier(token)
        registry = PeripheralRegistry(owner: owner)
    }

    // MARK: Bring-up and end

    /// Opens `transport`, brings its controller up, and moves the state to what that gave.
    func bringUp(_ transport: Transport) async {
        if let identifier = options.restoreIdentifier {
            broadcast.set(.unsupported, failure: .unsupported(
                "state restoration (restoreIdentifier \"\(identifier)\") is not implemented yet; create the manager without a restoreIdentifier"))
            return
        }
        let started: HostModeBackend
        do {
            started = try await HostModeBackend.start(transport, attMTU: options.attMTU)
        } catch {
            broadcast.set(closed ? .poweredOff : error.state, failure: closed ? .poweredOff : error.error)
            return
        }
        guard !closed else {
            await started.close()
            return
        }
        backend = started
        broadcast.set(.poweredOn)
        Task { [weak self] in
            let end = await started.ended()
            await self?.backendEnded(end, of: started)
        }
    }

    /// The backend, once bring-up has settled with the controller powered on.
    ///
    /// - Throws: what the settled state gives (``BLEError/poweredOff``,
    ///   ``BLEError/unsupported(_:)``, ``BLEError/unauthorized(_:)``).
    func readyBackend() async throws(BLEError) -> any CentralBackend {
        try await broadcast.poweredOn()
        guard let backend, !closed else { throw .poweredOff }
        return backend
    }

    /// The mode ended under the manager (a Hardware Error, the transport closed): the scan
    /// fails, the links have dropped (their watchers end their calls), the state moves.
    func backendEnded(_ end: BackendEnd, of ended: any CentralBackend) async {
        guard let current = backend, current === ended else { return }
        backend = nil
        if let scan { await finish(scan, throwing: end.error, stopping: nil) }
        for state in end.states { broadcast.set(state, failure: end.error) }
    }

    /// Ends the scan and the links, closes the transport, and finishes the streams.
    func close() async {
        guard !closed else { return }
        closed = true
        if let scan { await finish(scan, throwing: nil, stopping: backend) }
        for attempt in attempts.values { attempt.cancel() }
        let backend = self.backend
        self.backend = nil
        let links = live.values.compactMap { peripheral in peripheral.record.withLock { $0.link } }
        await backend?.close()
        for link in links { await link.settled.wait() }   // their peripherals are disconnected now
        broadcast.set(.poweredOff)
        broadcast.finish()
        eventInput.finish()
    }
}
