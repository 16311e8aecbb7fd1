import BLECore
import Foundation
import Synchronization

/// The peripherals a manager knows, one object per device, by identifier. Entries are weak:
/// a peripheral the application and the manager no longer hold goes (a connected or connecting
/// one is held by the manager).
final class PeripheralRegistry: Sendable {
    private struct Entry {
        weak var peripheral: Peripheral?
    }

    private let owner: ObjectIdentifier
    private let restoration: CentralRestoration?
    private let entries = Mutex<[UUID: Entry]>([:])

    /// The registry of the manager `owner` stands for; its peripherals record their changes in
    /// `restoration`, if any.
    init(owner: ObjectIdentifier, restoration: CentralRestoration? = nil) {
        self.owner = owner
        self.restoration = restoration
    }

    /// The peripheral with `address` of `type`, made when not known.
    func peripheral(address: BluetoothAddress, type: Peripheral.AddressType) -> Peripheral {
        let identifier = Peripheral.identifier(for: address, type: type)
        return entries.withLock { entries in
            if let known = entries[identifier]?.peripheral { return known }
            if entries.count > 256 { entries = entries.filter { $0.value.peripheral != nil } }
            let made = Peripheral(address: address, type: type, owner: owner, restoration: restoration)
            entries[identifier] = Entry(peripheral: made)
            return made
        }
    }

    /// The peripheral with `identifier`: known, or made from the address the identifier names;
    /// nil for a UUID that names no address (``Peripheral/identifier(for:type:)``).
    func peripheral(identifier: UUID) -> Peripheral? {
        guard let identity = Peripheral.identity(of: identifier) else { return nil }
        return peripheral(address: identity.address, type: identity.type)
    }

    /// Every peripheral known now.
    var all: [Peripheral] { entries.withLock { $0.values.compactMap(\.peripheral) } }
}
