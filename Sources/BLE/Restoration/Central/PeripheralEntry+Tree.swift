import BLECore
import GATT

/// A peripheral's discovered tree (``Peripheral/services`` and what hangs from it) as state-file
/// entries, and back: the same handles, UUIDs, properties, includes and descriptors, and what
/// was notifying.
extension PeripheralEntry {
    /// The entries of `tree`, the top-level services of one connection: the services in handle
    /// order, and the services reached only through includes (the secondary ones).
    static func entries(of tree: [Service]) -> (services: [ServiceEntry], included: [ServiceEntry]) {
        let top = tree.sorted { $0.remote.handle < $1.remote.handle }
        var secondaries: [UInt16: Service] = [:]
        var pending: [Service] = []
        func entry(_ service: Service) -> ServiceEntry {
            var made = ServiceEntry()
            made.uuid = service.uuid
            made.primary = service.isPrimary
            made.handle = service.remote.handle
            made.endHandle = max(service.remote.handle, service.remote.endHandle)
            made.includes = service.includedServices?.map { included in
                let handle = included.remote.handle
                if !top.contains(where: { $0.remote.handle == handle }), secondaries[handle] == nil {
                    secondaries[handle] = included
                    pending.append(included)
                }
                return handle
            }
            made.characteristics = service.characteristics?.map { characteristic in
                let remote = characteristic.remote
                var made = CharacteristicEntry()
                made.uuid = characteristic.uuid
                made.handle = remote.declarationHandle
                made.valueHandle = remote.valueHandle
                made.endHandle = remote.endHandle
                made.properties = characteristic.properties.rawValue
                made.descriptors = characteristic.descriptors?.map { DescriptorEntry(handle: $0.handle, uuid: $0.uuid) }
                made.notifying = characteristic.isNotifying
                return made
            }
            return made
        }
        let services = top.map(entry)
        var included: [ServiceEntry] = []
        while !pending.isEmpty { included.append(entry(pending.removeFirst())) }
        return (services, included.sorted { $0.handle < $1.handle })
    }

    /// Whether the entry holds a discovered tree.
    var hasTree: Bool { services != nil }

    /// The tree as objects of the connection numbered `generation`: ``Peripheral/services``
    /// for it, every service, include, characteristic and descriptor as discovered before.
    func makeTree(generation: UInt64) -> [Service] {
        func object(_ entry: ServiceEntry) -> Service {
            Service(remote: RemoteService(uuid: entry.uuid, isPrimary: entry.primary, handle: entry.handle, endHandle: entry.endHandle),
                    isPrimary: entry.primary, generation: generation)
        }
        let topEntries = services ?? []
        let includedEntries = includedServices ?? []
        let top = topEntries.map(object)
        let secondary = includedEntries.map(object)
        var byHandle: [UInt16: Service] = [:]
        for service in secondary { byHandle[service.remote.handle] = service }
        for service in top { byHandle[service.remote.handle] = service }
        for (entry, service) in zip(topEntries + includedEntries, top + secondary) {
            if let includes = entry.includes { _ = service.merge(included: includes.compactMap { byHandle[$0] }) }
            guard let characteristics = entry.characteristics else { continue }
            let made = characteristics.map { entry in
                Characteristic(remote: RemoteCharacteristic(uuid: entry.uuid, declarationHandle: entry.handle, valueHandle: entry.valueHandle,
                                                            endHandle: entry.endHandle, properties: RemoteCharacteristic.Properties(rawValue: entry.properties)),
                               generation: generation)
            }
            for (characteristic, entry) in zip(service.merge(characteristics: made), characteristics) {
                guard let descriptors = entry.descriptors else { continue }
                _ = characteristic.merge(descriptors: descriptors.map { Descriptor(handle: $0.handle, uuid: $0.uuid, generation: generation) })
            }
        }
        return top
    }

    /// Where each characteristic that was notifying sits, by UUIDs and positions rather than
    /// handles, to find it again in a rediscovered database.
    var notifyingPlaces: [CharacteristicPlace] {
        let all = ((services ?? []) + (includedServices ?? [])).sorted { $0.handle < $1.handle }
        var places: [CharacteristicPlace] = []
        for (index, service) in all.enumerated() {
            let serviceOrdinal = all[..<index].filter { $0.uuid == service.uuid }.count
            let characteristics = service.characteristics ?? []
            for (position, characteristic) in characteristics.enumerated() where characteristic.notifying {
                let ordinal = characteristics[..<position].filter { $0.uuid == characteristic.uuid }.count
                places.append(CharacteristicPlace(service: service.uuid, serviceOrdinal: serviceOrdinal,
                                                  characteristic: characteristic.uuid, characteristicOrdinal: ordinal,
                                                  valueHandle: characteristic.valueHandle))
            }
        }
        return places
    }
}

/// A characteristic's place in a database: the n-th service with a UUID (in handle order, the
/// included ones among them), then the m-th characteristic with a UUID in it.
struct CharacteristicPlace: Hashable, Sendable, CustomStringConvertible {
    var service: BluetoothUUID
    var serviceOrdinal: Int
    var characteristic: BluetoothUUID
    var characteristicOrdinal: Int
    /// Its value handle when it was recorded.
    var valueHandle: UInt16

    /// The characteristic at this place in `tree` (top-level services and those they include).
    func find(in tree: [Service]) -> Characteristic? {
        var all: [Service] = []
        var pending = tree
        while !pending.isEmpty {
            let service = pending.removeFirst()
            guard !all.contains(where: { $0 === service }) else { continue }
            all.append(service)
            pending += service.includedServices ?? []
        }
        let sameService = all.filter { $0.uuid == service }.sorted { $0.remote.handle < $1.remote.handle }
        guard serviceOrdinal < sameService.count else { return nil }
        let same = (sameService[serviceOrdinal].characteristics ?? []).filter { $0.uuid == characteristic }
        return characteristicOrdinal < same.count ? same[characteristicOrdinal] : nil
    }

    /// "characteristic 2A37 (Heart Rate Measurement) of service 180D (Heart Rate)".
    var description: String { "characteristic \(characteristic.descriptionWithName) of service \(service.descriptionWithName)" }
}
