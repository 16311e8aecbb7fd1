import BLECore
import Foundation
import Synchronization

/// A central manager's restoration: its ``CentralState``, kept current as the application
/// connects, discovers, subscribes and scans (docs/state-restoration.md).
///
/// What is recorded follows the application's intent, not the link's fate: a peripheral is
/// "connecting" from ``CentralManager/connect(_:options:)`` until the attempt fails or is
/// cancelled, "connected" once its link is ready, and back to "none" when the application
/// cancels it or the link drops under a running manager. When the manager itself ends (closed,
/// released, its transport or controller gone) the writer is frozen first, so the file keeps
/// what was running then, for the next manager with the identifier.
typealias CentralRestoration = RestorationStore<CentralState>

extension RestorationStore where Body == CentralState {
    /// Applies `change` to the entry of `peripheral` (made when new), which becomes the most
    /// recently used; the oldest entries not to be reconnected go beyond
    /// ``CentralState/maximumPeripherals``.
    func updateEntry(of peripheral: Peripheral, _ change: (inout PeripheralEntry) -> Void) {
        let key = PeripheralIdentityKey(address: peripheral.address, type: peripheral.addressType)
        let name = peripheral.name
        update { state in
            var entry = state.peripherals.first { $0.key == key } ?? {
                var made = PeripheralEntry()
                made.address = key.address
                made.addressType = key.type
                return made
            }()
            state.peripherals.removeAll { $0.key == key }
            if let name { entry.name = name }
            change(&entry)
            state.peripherals.append(entry)
            while state.peripherals.count > CentralState.maximumPeripherals {
                let idle = state.peripherals.firstIndex { $0.connection == .none } ?? 0
                state.peripherals.remove(at: idle)
            }
        }
    }

    // MARK: What the manager records

    /// ``CentralManager/connect(_:options:)`` started an attempt, or it ended without a link.
    func intent(_ intent: ConnectionIntent, for peripheral: Peripheral) {
        updateEntry(of: peripheral) { $0.connection = intent }
    }

    /// `peripheral`'s link is ready, and its server's Database Hash read as `hash`: the tree
    /// kept stays only if it was discovered under the same hash (a tree without a hash cannot be
    /// checked, but is kept for the next rediscovery to replace).
    func connected(_ peripheral: Peripheral, databaseHash hash: [UInt8]?) {
        updateEntry(of: peripheral) { entry in
            entry.connection = .connected
            if let hash, entry.databaseHash?.octets != hash {
                entry.services = nil
                entry.includedServices = nil
            }
            entry.databaseHash = hash.map(HexOctets.init)
            clearNotifying(&entry)
        }
    }

    /// `peripheral`'s discovered tree or subscriptions changed on its current connection.
    func treeChanged(_ peripheral: Peripheral) {
        guard let tree = peripheral.services else { return }
        let (services, included) = PeripheralEntry.entries(of: tree)
        updateEntry(of: peripheral) { entry in
            entry.services = services
            entry.includedServices = included.isEmpty ? nil : included
        }
    }

    /// `peripheral`'s link dropped under a running manager, or the application cancelled it:
    /// it is not to be reconnected, and nothing of it is notifying.
    func linkEnded(_ peripheral: Peripheral) {
        updateEntry(of: peripheral) { entry in
            entry.connection = .none
            clearNotifying(&entry)
        }
    }

    /// The scan now running (nil: none).
    func scan(_ scan: ScanEntry?) {
        update { $0.scan = scan }
    }

    private func clearNotifying(_ entry: inout PeripheralEntry) {
        for list in [\PeripheralEntry.services, \PeripheralEntry.includedServices] {
            guard var services = entry[keyPath: list] else { continue }
            for s in services.indices {
                guard var characteristics = services[s].characteristics else { continue }
                for c in characteristics.indices { characteristics[c].notifying = false }
                services[s].characteristics = characteristics
            }
            entry[keyPath: list] = services
        }
    }
}
