import BLECore
import Foundation
import GATT
import Host
import Synchronization

/// A restored peripheral that was connected or connecting, waiting to be reconnected.
final class PendingReconnection: Sendable {
    /// The peripheral.
    let peripheral: Peripheral
    /// What the state file held of it: its tree, Database Hash and subscriptions.
    let entry: PeripheralEntry
    /// How the reconnection ended: connected, or cancelled, or the manager ended.
    let outcome = OneShot<Result<Void, BLEError>>()
    /// The link being set up, while one is.
    let session = Mutex<PeripheralLink?>(nil)

    /// Its attempt's number (``ConnectionAttempt/number``).
    let attempt: UInt64

    init(peripheral: Peripheral, entry: PeripheralEntry, attempt: UInt64) {
        self.peripheral = peripheral
        self.entry = entry
        self.attempt = attempt
    }
}

/// Restoration at bring-up (docs/state-restoration.md): the state file's peripherals and scan
/// delivered first, and each reconnected peripheral's link set up with its cached or
/// rediscovered database and its subscriptions.
extension CentralCore {
    /// Reads the state file and delivers what it held: the peripherals (those to reconnect are
    /// ``PeripheralState/connecting``, each with an attempt that ends when it is back) and the
    /// scan (started again, its stream in the event), as ``CentralEvent/willRestoreState(_:)``.
    func restore() {
        guard let restoration, let state = restoration.load() else { return }
        var peripherals: [Peripheral] = []
        for entry in state.peripherals {
            let peripheral = registry.peripheral(address: entry.address, type: entry.addressType)
            peripheral.heard(name: entry.name)
            peripherals.append(peripheral)
            guard entry.connection != .none, peripheral.state == .disconnected else { continue }
            peripheral.record.withLock { $0.state = .connecting }
            live[peripheral.identifier] = peripheral
            let pending = PendingReconnection(peripheral: peripheral, entry: entry, attempt: newAttemptNumber())
            reconnections[peripheral.identifier] = pending
            attempts[peripheral.identifier] = ConnectionAttempt(number: pending.attempt, task: Task { await pending.outcome.wait() })
        }
        let scan = state.scan.map { entry in
            let options = ScanOptions(allowDuplicates: entry.allowDuplicates, solicitedServiceUUIDs: entry.solicitedServices,
                                      scanType: entry.passive == true ? .passive : .active)
            return RestoredScan(serviceUUIDs: entry.services, options: options, discoveries: makeScan(services: entry.services, options: options))
        }
        eventInput.yield(.willRestoreState(RestoredState(peripherals: peripherals, scan: scan)))
    }

    /// The controller is back after a reset (``backendEnded(_:of:)``): the state file, frozen
    /// when the mode ended, still holds the peripherals that were connected or connecting then;
    /// each that is disconnected now is reconnected and resubscribed, as ``restore()`` does at
    /// bring-up, but with no ``CentralEvent/willRestoreState(_:)`` (the application has these
    /// peripherals already) and no scan (the application's scan ended with the reset). The file
    /// is written again from here on.
    func resumeAfterReset() {
        guard let restoration else { return }
        let state = restoration.load()
        restoration.writer.unfreeze()
        for entry in state?.peripherals ?? [] where entry.connection != .none {
            let peripheral = registry.peripheral(address: entry.address, type: entry.addressType)
            guard peripheral.state == .disconnected, reconnections[peripheral.identifier] == nil,
                  attempts[peripheral.identifier] == nil else { continue }
            peripheral.record.withLock { $0.state = .connecting }
            live[peripheral.identifier] = peripheral
            let pending = PendingReconnection(peripheral: peripheral, entry: entry, attempt: newAttemptNumber())
            reconnections[peripheral.identifier] = pending
            attempts[peripheral.identifier] = ConnectionAttempt(number: pending.attempt, task: Task { await pending.outcome.wait() })
        }
    }

    /// The restored peripheral of `pending` is linked on `session`: the MTU exchange, its
    /// database (reused when the Database Hash is unchanged, else rediscovered), Client
    /// Supported Features and Service Changed indications (Core v5.4, Vol 3, Part G, 7.1, 7.2)
    /// and its subscriptions written again, then connected and ``CentralEvent/connected(_:)``. When the
    /// link fails first, the peripheral waits for the next reconnection.
    nonisolated func setUp(_ pending: PendingReconnection, session: PeripheralLink, backend: any CentralBackend) async {
        let peripheral = pending.peripheral
        watch(session.backend, of: peripheral, session: session, backend: backend)
        var failure: BLEError?
        var tree = PeripheralLink.RestoredTree(services: nil, databaseHash: nil, reused: false)
        do {
            _ = try await session.gatt { (client) async throws(GATTClientError) -> Int in try await client.exchangeMTU() }
            tree = try await session.restoreTree(from: pending.entry)
            if let services = tree.services {
                // The GATT client did not discover this tree on this link: it runs the steps its
                // own whole-database discovery would (Client Supported Features, Service Changed
                // indications, which an unbonded server forgets between connections), so that
                // a database change still reaches servicesModified.
                if let genericAttribute = try await session.genericAttributeService(in: services) {
                    try await session.gatt { (client) async throws(GATTClientError) in
                        try await client.runOptionalSteps(genericAttribute: genericAttribute)
                    }
                }
                let refused = try await session.resubscribe(pending.entry.notifyingPlaces, in: services, byHandle: tree.reused)
                for reason in refused { restoration?.notRestored("\(peripheral.address) (\(peripheral.addressType)): \(reason)") }
            }
        } catch {
            failure = error
        }
        if failure == nil,
           await connected(peripheral, attempt: pending.attempt, session: session, mtu: session.client.mtu, services: tree.services,
                           databaseHash: tree.databaseHash) {
            await reconnectionEnded(pending, with: .success(()))
            return
        }
        await session.backend.terminate()
        await session.settled.wait()
        await reconnectionFailed(pending)
    }
}
