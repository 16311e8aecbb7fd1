import BLECore
import GATT

/// The whole database in one call (Core v5.4, Vol 3, Part G, 4.4.1, 4.5.1, 4.6.1, 4.7.1, with
/// robust caching's Database Hash, 7.3), and what the client worked around while discovering it.
extension Peripheral {
    /// Discovers the peripheral's whole GATT database: the Database Hash (read best effort,
    /// 7.3), every primary service (Discover All Primary Services, 4.4.1), in each its included
    /// services (Find Included Services, 4.5.1) and the services reached through them, their
    /// characteristics (4.6.1) and every characteristic's descriptors (4.7.1); then Client
    /// Supported Features is written when the server has it (7.2). The tree fills as the
    /// stepwise calls fill it: ``services`` gets the primary services (objects already there
    /// are kept), each ``Service`` its ``Service/includedServices`` and
    /// ``Service/characteristics``, each ``Characteristic`` its ``Characteristic/descriptors``.
    ///
    /// The manager keeps each database discovered whole, by peer, for its life: on a later
    /// connection, when the Database Hash read first equals the one the tree was discovered
    /// under, the tree comes from there (robust caching, 2.5.2; ``databaseFromCache``), and the
    /// call costs that one round trip and the writes that configure the connection.
    ///
    /// The optional steps (the hash, Client Supported Features) never fail the call: a server
    /// that answers one badly leaves a ``PeripheralDiagnostic`` in ``diagnostics`` instead.
    ///
    /// A Service Changed the tree takes while it runs makes it run again, as
    /// ``discoverServices(_:)`` does (up to ``discoveryRuns`` times).
    ///
    /// - Returns: every service discovered, primary and secondary (those reached only through
    ///   includes), in handle order.
    /// - Throws: ``BLEError/notConnected``; ``BLEError/disconnected(_:)`` when the link drops
    ///   meanwhile; ``BLEError/att(_:handle:)`` for a server error other than the Attribute Not
    ///   Found that ends each procedure; ``BLEError/protocolError(_:)``; ``BLEError/transactionTimeout``;
    ///   ``BLEError/cancelled`` when the task is cancelled before a run again.
    public func discoverDatabase() async throws(BLEError) -> [Service] {
        let link = try connectedLink()
        defer { restoration?.treeChanged(self) }
        // As in discoverServices(_:): a Service Changed the tree took meanwhile may have come
        // before this run's results are merged, which would then stay stale.
        return try await settledDiscovery(on: link) { () async throws(BLEError) -> [RemoteService] in
            try await link.gatt { (client) async throws(GATTClientError) -> [RemoteService] in
                try await client.discoverDatabase()
            }
        } merge: { record, tree, fresh in
            let current = record.link === link ? record.services ?? [] : []
            let all = Self.adopt(tree.filter { fresh($0.handleRange) }, keeping: current, generation: link.generation)
            if record.link === link {
                let primaries = all.filter(\.isPrimary)
                record.services = (current + primaries.filter { new in !current.contains { $0 === new } })
                    .sorted { $0.remote.handle < $1.remote.handle }
            }
            return all
        }
    }

    /// What the GATT client worked around on the current connection, oldest first; empty when
    /// not connected (a new connection starts with none).
    public var diagnostics: [PeripheralDiagnostic] {
        get async {
            guard let link = record.withLock({ $0.link }) else { return [] }
            return await link.client.diagnostics.map(PeripheralDiagnostic.init)
        }
    }

    /// `tree` (a whole-database discovery's services) as objects of the connection numbered
    /// `generation`, reusing the services of `current` (and what hangs from them) by handle.
    static func adopt(_ tree: [RemoteService], keeping current: [Service], generation: UInt64) -> [Service] {
        var byHandle: [UInt16: Service] = [:]
        var pending = current
        while let service = pending.popLast() {
            guard byHandle[service.remote.handle] == nil else { continue }
            byHandle[service.remote.handle] = service
            pending += service.includedServices ?? []
        }
        func object(_ remote: RemoteService) -> Service {
            if let known = byHandle[remote.handle] { return known }
            let made = Service(remote: RemoteService(uuid: remote.uuid, isPrimary: remote.isPrimary, handle: remote.handle,
                                                     endHandle: remote.endHandle),
                               isPrimary: remote.isPrimary, generation: generation)
            byHandle[remote.handle] = made
            return made
        }
        let all = tree.map(object)
        for (remote, service) in zip(tree, all) {
            _ = service.merge(included: remote.includedServices.map { object($0.service) })
            let made = remote.characteristics.map { Characteristic(remote: $0, generation: generation) }
            for (characteristic, declared) in zip(service.merge(characteristics: made), remote.characteristics) {
                _ = characteristic.merge(descriptors: declared.descriptors.map {
                    Descriptor(handle: $0.handle, uuid: $0.uuid, generation: generation)
                })
            }
        }
        return all
    }
}
