import BLECore
import Foundation
import Host

/// One running scan.
struct ScanSession: Sendable {
    let id: UInt64
    let continuation: AsyncThrowingStream<Discovery, any Error>.Continuation
    let consumer: Task<Void, Never>
}

extension CentralCore {
    /// A new scan's stream (see ``CentralManager/scanForPeripherals(withServices:options:)``):
    /// the scan starts when its turn comes; ending the stream stops it.
    nonisolated func makeScan(services serviceUUIDs: [BluetoothUUID]?, options: ScanOptions) -> AsyncThrowingStream<Discovery, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Discovery.self, throwing: (any Error).self,
                                                                    bufferingPolicy: .bufferingNewest(1024))
        let id = scanIDs.withLock { id -> UInt64 in
            id &+= 1
            return id
        }
        continuation.onTermination = { _ in
            // Marked now, stopped in a task: a connect the application makes next waits for the stop.
            self.stoppingScans.withLock { _ = $0.insert(id) }
            Task { await self.scanTerminated(id) }
        }
        let filter = ScanFilter(services: serviceUUIDs, solicited: options.solicitedServiceUUIDs)
        let entry = ScanEntry(services: serviceUUIDs, allowDuplicates: options.allowDuplicates,
                              solicitedServices: options.solicitedServiceUUIDs, passive: options.scanType == .passive ? true : nil)
        Task { await self.startScan(id: id, filter: filter, entry: entry, continuation: continuation) }
        return stream
    }

    /// Starts scan `id` when its turn comes (the latest request wins; the previous scan's stream
    /// finishes), delivering what `filter` admits into `continuation`; restoration records
    /// `entry`, its arguments.
    func startScan(id: UInt64, filter: ScanFilter, entry: ScanEntry,
                   continuation: AsyncThrowingStream<Discovery, any Error>.Continuation) async {
        let allowDuplicates = entry.allowDuplicates
        await takeScanTurn()
        defer { releaseScanTurn() }
        guard id > lastStartedScan, scansEndedBeforeStart.remove(id) == nil else {
            continuation.finish()
            return
        }
        lastStartedScan = id
        let backend: any CentralBackend
        do {
            backend = try await readyBackend()
        } catch {
            continuation.finish(throwing: error)
            return
        }
        if let scan { await finish(scan, throwing: nil, stopping: backend, byApplication: true) }
        let discoveries: AsyncStream<LEDiscovery>
        do {
            discoveries = try await backend.startScan(entry.passive == true ? .passive : .active, filterDuplicates: !allowDuplicates)
        } catch {
            continuation.finish(throwing: error)
            return
        }
        let registry = self.registry
        let consumer = Task { [weak self] in
            var delivered: [UUID: AdvertisementData] = [:]
            for await heard in discoveries {
                guard heard.addressType != .anonymous else { continue }
                let data = AdvertisementData(heard.advertisement)
                guard filter.admits(data) else { continue }
                let peripheral = registry.peripheral(address: heard.address, type: Peripheral.AddressType(heard.addressType))
                peripheral.heard(name: data.localName)
                if !allowDuplicates {
                    guard delivered[peripheral.identifier] != data else { continue }
                    delivered[peripheral.identifier] = data
                }
                continuation.yield(Discovery(peripheral: peripheral, advertisementData: data, rssi: heard.rssi.map(Int.init),
                                             reportedAddressType: heard.addressType, txPower: heard.advertisement.txPower.map(Int.init)))
            }
            await self?.scannerFinished(id)
        }
        scan = ScanSession(id: id, continuation: continuation, consumer: consumer)
        isScanning.withLock { $0 = true }
        restoration?.scan(entry)
    }

    /// The stream of scan `id` ended (its consumer stopped iterating, or it was finished).
    func scanTerminated(_ id: UInt64) async {
        await takeScanTurn()
        defer {
            releaseScanTurn()
            scanStopped(id)
        }
        if let scan, scan.id == id {
            await finish(scan, throwing: nil, stopping: backend, byApplication: true)
        } else if id > lastStartedScan {
            scansEndedBeforeStart.insert(id)
        }
    }

    /// Scan `id`'s stop has finished: a connect waiting for the stops goes on once none is left.
    private func scanStopped(_ id: UInt64) {
        let none = stoppingScans.withLock { stopping in
            stopping.remove(id)
            return stopping.isEmpty
        }
        guard none else { return }
        for waiter in scanStopWaiters { waiter.resume() }
        scanStopWaiters = []
    }

    /// Returns once every scan whose stream has ended is stopped at the controller (at once when
    /// none is stopping). Ending a scan's iteration stops the scan in a task of its own; a
    /// connect must not overtake that stop. In kernel mode the kernel, asked for a link while it
    /// believes a scan runs, disables scanning itself; with our own disable in flight, its
    /// disable was refused (Command Disallowed) and it never created the connection, so the
    /// connect ran into its timeout (the kernel lane's scenario 80 under load).
    func untilScanStopsFinish() async {
        while !stoppingScans.withLock({ $0.isEmpty }) {
            await withCheckedContinuation { scanStopWaiters.append($0) }
        }
    }

    /// Stops the scan, if one runs; its stream finishes.
    ///
    /// - Throws: ``BLEError/controllerError(_:)`` when the controller refused to stop scanning.
    func stopScan() async throws(BLEError) {
        await takeScanTurn()
        defer { releaseScanTurn() }
        guard let scan else { return }
        if let refused = await finish(scan, throwing: nil, stopping: backend, byApplication: true) { throw refused }
    }

    /// The backend's discoveries of scan `id` ended by themselves: the mode ended.
    func scannerFinished(_ id: UInt64) async {
        guard let scan, scan.id == id else { return }
        await finish(scan, throwing: .poweredOff, stopping: nil)
    }

    /// Ends `session`: its stream finishes (with `error`, if any) and `backend` stops scanning.
    /// `byApplication` (stopped, its stream ended, a newer scan): restoration no longer
    /// resumes it; otherwise the manager or its mode is ending, and the state file keeps it.
    ///
    /// - Returns: the controller's refusal to stop scanning, if it refused.
    @discardableResult
    func finish(_ session: ScanSession, throwing error: BLEError?, stopping backend: (any CentralBackend)?,
                byApplication: Bool = false) async -> BLEError? {
        if scan?.id == session.id {
            scan = nil
            isScanning.withLock { $0 = false }
            if byApplication { restoration?.scan(nil) }
            for waiter in scanEndWaiters { waiter.resume() }
            scanEndWaiters = []
        }
        session.consumer.cancel()
        if let error { session.continuation.finish(throwing: error) } else { session.continuation.finish() }
        do {
            try await backend?.stopScan()
            return nil
        } catch {
            return error
        }
    }

    /// Returns once no scan runs (at once when none does).
    func untilScanEnds() async {
        guard scan != nil else { return }
        await withCheckedContinuation { scanEndWaiters.append($0) }
    }

    private func takeScanTurn() async {
        while scanTurnHeld { await withCheckedContinuation { scanTurnWaiters.append($0) } }
        scanTurnHeld = true
    }

    private func releaseScanTurn() {
        scanTurnHeld = false
        if !scanTurnWaiters.isEmpty { scanTurnWaiters.removeFirst().resume() }
    }
}
