import BLECore
import GATT

/// A restored peripheral's database and subscriptions on its new link (docs/state-restoration.md):
/// the cached tree reused when the Database Hash is unchanged, rediscovered otherwise, and the
/// Client Characteristic Configuration descriptors written again.
extension PeripheralLink {
    /// The tree a restoration gives the new connection.
    struct RestoredTree: Sendable {
        /// The top-level services, for ``Peripheral/services``; nil when nothing was discovered before.
        var services: [Service]?
        /// The Database Hash read now; nil when the server has none.
        var databaseHash: [UInt8]?
        /// Whether the cached tree was taken as it was (no discovery).
        var reused: Bool
    }

    /// Reads the server's Database Hash (one ATT_READ_BY_TYPE_REQ for 0x2B2A, Core v5.4, Vol 3,
    /// Part G, 7.3) and, when it equals the hash the cached tree of `entry` was discovered under,
    /// takes that tree with no other request (robust caching, 2.5.2); when it differs, or either
    /// side has no hash (a tree without one cannot be checked), discovers the whole database
    /// again (``rediscoverTree()``).
    ///
    /// A server with a Database Hash answers it even to a change-unaware client, and reading it
    /// makes the client change-aware (2.5.2.1), so nothing that follows is refused with
    /// Database Out Of Sync.
    ///
    /// - Throws: the discovery's ``BLEError`` (``BLEError/disconnected(_:)``, ...); a Database
    ///   Hash answer that cannot be used (an error, a malformed or wrong-type answer) only makes
    ///   it discover the whole database.
    func restoreTree(from entry: PeripheralEntry) async throws(BLEError) -> RestoredTree {
        // Best effort: a server that botches the read costs the cache, not the restoration.
        let hash = try await gatt { (client) async throws(GATTClientError) -> [UInt8]? in try await client.readUsableDatabaseHash()?.value }
        guard entry.hasTree else { return RestoredTree(services: nil, databaseHash: hash, reused: false) }
        if let hash, let cached = entry.databaseHash?.octets, cached == hash {
            return RestoredTree(services: entry.makeTree(generation: generation), databaseHash: hash, reused: true)
        }
        return RestoredTree(services: try await rediscoverTree(), databaseHash: hash, reused: false)
    }

    /// The Generic Attribute service (1801) of `services` as the GATT client models it, with
    /// its characteristics and Service Changed's descriptors, when the tree holds it (Part G,
    /// 7). What the application never discovered of it is discovered here (a few requests), so
    /// that a Client Characteristic Configuration never looked for is not taken for missing.
    func genericAttributeService(in services: [Service]) async throws(BLEError) -> RemoteService? {
        guard let service = services.first(where: { $0.uuid == GATTProfileUUID.genericAttribute }) else { return nil }
        var remote = service.remote
        if let characteristics = service.characteristics {
            remote.characteristics = characteristics.map { characteristic in
                var modelled = characteristic.remote
                if let descriptors = characteristic.descriptors {
                    modelled.descriptors = descriptors.map { RemoteDescriptor(handle: $0.handle, uuid: $0.uuid) }
                }
                return modelled
            }
        } else {
            let bare = remote
            remote.characteristics = try await gatt { (client) async throws(GATTClientError) -> [RemoteCharacteristic] in
                try await client.discoverCharacteristics(of: bare)
            }
        }
        if let index = remote.characteristics.firstIndex(where: { $0.uuid == GATTProfileUUID.serviceChanged }),
           service.characteristics?.first(where: { $0.uuid == GATTProfileUUID.serviceChanged })?.descriptors == nil {
            let serviceChanged = remote.characteristics[index]
            remote.characteristics[index].descriptors = try await gatt { (client) async throws(GATTClientError) -> [RemoteDescriptor] in
                try await client.discoverDescriptors(of: serviceChanged)
            }
        }
        return remote
    }

    /// Discovers every primary service (Part G, 4.4.1), then in each its includes (4.5.1), in
    /// each service and included service its characteristics (4.6.1), and in each
    /// characteristic its descriptors (4.7.1): the whole tree, as objects of this connection.
    func rediscoverTree() async throws(BLEError) -> [Service] {
        let primaries = try await gatt { (client) async throws(GATTClientError) -> [RemoteService] in try await client.discoverPrimaryServices() }
        let top = primaries.map { Service(remote: $0, isPrimary: true, generation: generation) }
        var all = top
        var index = 0
        while index < all.count {
            let service = all[index]
            index += 1
            let remote = service.remote
            // An include the server answers malformed is not followed, as the GATT client's
            // whole-database discovery does; the rest of the tree is still discovered.
            let includes: [RemoteIncludedService]
            do {
                includes = try await gatt { (client) async throws(GATTClientError) -> [RemoteIncludedService] in
                    try await client.discoverIncludedServices(of: remote)
                }
            } catch .protocolError {
                includes = []
            }
            let found = includes.map { include in
                all.first { $0.remote.handle == include.serviceHandle } ?? Service(remote: include.service, isPrimary: false, generation: generation)
            }
            for included in service.merge(included: found) where !all.contains(where: { $0 === included }) { all.append(included) }
        }
        for service in all {
            let remote = service.remote
            let characteristics = try await gatt { (client) async throws(GATTClientError) -> [RemoteCharacteristic] in
                try await client.discoverCharacteristics(of: remote)
            }
            for characteristic in service.merge(characteristics: characteristics.map { Characteristic(remote: $0, generation: generation) }) {
                let declared = characteristic.remote
                let descriptors = try await gatt { (client) async throws(GATTClientError) -> [RemoteDescriptor] in
                    try await client.discoverDescriptors(of: declared)
                }
                _ = characteristic.merge(descriptors: descriptors.map { Descriptor(handle: $0.handle, uuid: $0.uuid, generation: generation) })
            }
        }
        return top
    }

    /// Enables notifications (or indications) again of each characteristic at `places` in
    /// `tree`: one Client Characteristic Configuration write each (Part G, 3.3.3.3: a server
    /// sets it to its default at each connection with a client it is not bonded with).
    /// `byHandle`: the tree is the cached one, so a place is found by its value handle.
    ///
    /// - Returns: why each one not resubscribed was not (gone from a changed database, the
    ///   write refused).
    /// - Throws: ``BLEError/disconnected(_:)`` and the other errors that end the link.
    func resubscribe(_ places: [CharacteristicPlace], in tree: [Service], byHandle: Bool) async throws(BLEError) -> [String] {
        var refused: [String] = []
        let all = tree.flatMap { service in [service] + (service.includedServices ?? []) }.flatMap { $0.characteristics ?? [] }
        for place in places {
            let found = byHandle ? all.first { $0.remote.valueHandle == place.valueHandle } : place.find(in: tree)
            guard let characteristic = found, !characteristic.properties.isDisjoint(with: [.notify, .indicate]) else {
                refused.append("\(place) is gone from the peripheral's changed database: not resubscribed")
                continue
            }
            do {
                try await subscribe(characteristic)
            } catch {
                switch error {
                case .att, .protocolError, .invalidArgument, .characteristicNotFound:
                    refused.append("\(place): resubscribing failed: \(error)")
                default:
                    throw error
                }
            }
        }
        return refused
    }
}
