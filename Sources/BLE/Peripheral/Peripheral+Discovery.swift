import BLECore
import GATT

/// Service, included service, characteristic and descriptor discovery (Core v5.4, Vol 3,
/// Part G, 4.4 to 4.7). Each call returns what it found and fills the tree: ``services``,
/// ``Service/includedServices``, ``Service/characteristics``, ``Characteristic/descriptors``.
/// Objects already in the tree are kept, so a second discovery returns the same objects.
///
/// A Service Changed indication (Part G, 7.1) that the tree takes while a discovery runs may
/// make its results mix the database before the change with the one after: service discovery
/// then runs again (up to ``discoveryRuns`` times in all, then keeps only the services the
/// changes missed), included services the change overlaps are left out, and a discovery inside
/// a service the change took out of the tree throws ``BLEError/serviceNotFound(_:)``
/// (``BLEError/characteristicNotFound(_:)`` for descriptors): ``servicesModified`` has said to
/// discover again.
extension Peripheral {
    /// How many times service discovery runs when Service Changed indications keep coming
    /// while it runs: 3.
    static let discoveryRuns = 3

    /// Discovers primary services: all of them (Discover All Primary Services, Part G, 4.4.1,
    /// ATT_READ_BY_GROUP_TYPE_REQ), or with `serviceUUIDs`, those with these UUIDs (Discover
    /// Primary Service by Service UUID, 4.4.2, ATT_FIND_BY_TYPE_VALUE_REQ per UUID).
    ///
    /// - Parameter serviceUUIDs: the services wanted; nil (or empty) for all.
    /// - Returns: the services found, in handle order (empty when none has the UUIDs). When
    ///   Service Changed indications came during each of the ``discoveryRuns`` runs, the
    ///   services they overlap are left out (``servicesModified`` tells of them).
    /// - Throws: ``BLEError/notConnected``; ``BLEError/disconnected(_:)`` when the link drops
    ///   meanwhile; ``BLEError/att(_:handle:)`` for a server error other than the Attribute Not
    ///   Found that ends discovery; ``BLEError/protocolError(_:)``; ``BLEError/transactionTimeout``;
    ///   ``BLEError/cancelled`` when the task is cancelled before a run again.
    public func discoverServices(_ serviceUUIDs: [BluetoothUUID]? = nil) async throws(BLEError) -> [Service] {
        let link = try connectedLink()
        let wanted = serviceUUIDs ?? []
        defer { restoration?.treeChanged(self) }
        return try await settledDiscovery(on: link) { () async throws(BLEError) -> [RemoteService] in
            try await link.gatt { (client) async throws(GATTClientError) -> [RemoteService] in
                guard !wanted.isEmpty else { return try await client.discoverPrimaryServices() }
                var found: [RemoteService] = []
                for uuid in Set(wanted) { found += try await client.discoverPrimaryServices(uuid: uuid) }
                return found.sorted { $0.handle < $1.handle }
            }
        } merge: { record, found, fresh in
            let current = record.link === link ? record.services ?? [] : []
            // A service known only as another's include is the same object, now primary.
            let known = record.link === link ? record.allServices : []
            let merged = found.filter { fresh($0.handleRange) }.map { remote in
                guard let existing = known.first(where: { $0.remote.handle == remote.handle }) else {
                    return Service(remote: remote, isPrimary: true, generation: link.generation)
                }
                existing.markPrimary()
                return existing
            }
            if record.link === link {
                record.services = (current + merged.filter { new in !current.contains { $0 === new } })
                    .sorted { $0.remote.handle < $1.remote.handle }
            }
            return merged
        }
    }

    /// Runs `discover` on `link` and merges what it found with `merge`, under the tree's lock,
    /// where Service Changed applies: either a change came meanwhile and is seen there, or it
    /// comes after and takes what is merged out of the tree. A change seen there may have added
    /// what the run passed by (a service in a gap, a wanted UUID), so the discovery runs again,
    /// up to ``discoveryRuns`` times; the last run merges only what the changes missed
    /// (`merge`'s third argument says whether a handle range is untouched by them).
    ///
    /// - Throws: `discover`'s errors; ``BLEError/cancelled`` when the task is cancelled before a
    ///   run again.
    func settledDiscovery<Found: Sendable, Merged>(
        on link: PeripheralLink, _ discover: () async throws(BLEError) -> Found,
        merge: (inout Record, Found, (ClosedRange<UInt16>) -> Bool) -> Merged
    ) async throws(BLEError) -> Merged {
        var run = 1
        while true {
            let mark = link.treeChanges.withLock { $0.mark }
            let found = try await discover()
            let merged: Merged? = record.withLock { record in
                let changes = link.treeChanges.withLock { $0 }
                guard run == Self.discoveryRuns || changes.mark == mark else { return nil }
                return merge(&record, found) { !changes.changes(since: mark, overlap: $0) }
            }
            if let merged { return merged }
            if Task.isCancelled { throw .cancelled }
            run += 1
        }
    }

    /// Discovers the services `service` includes (Find Included Services, Part G, 4.5.1,
    /// ATT_READ_BY_TYPE_REQ for «Include»; a 128-bit UUID is read from the included service's
    /// declaration).
    ///
    /// - Parameter includedServiceUUIDs: keeps only these; nil for all.
    /// - Returns: the included services found, in handle order; one that is also a discovered
    ///   primary service is that same object.
    /// - Throws: as ``discoverServices(_:)``; ``BLEError/serviceNotFound(_:)`` when `service`
    ///   is not from the current connection, or a Service Changed has taken it out of the tree.
    public func discoverIncludedServices(_ includedServiceUUIDs: [BluetoothUUID]? = nil, for service: Service) async throws(BLEError) -> [Service] {
        let link = try connectedLink()
        guard service.generation == link.generation else { throw .serviceNotFound(service.uuid) }
        let remote = service.remote
        let mark = link.treeChanges.withLock { $0.mark }
        let includes = try await link.gatt { (client) async throws(GATTClientError) -> [RemoteIncludedService] in
            try await client.discoverIncludedServices(of: remote)
        }
        let wanted = includedServiceUUIDs.map(Set.init) ?? []
        defer { restoration?.treeChanged(self) }
        return try record.withLock { (record) throws(BLEError) -> [Service] in
            guard record.link === link, record.holds(service) else { throw .serviceNotFound(service.uuid) }
            let changes = link.treeChanges.withLock { $0 }
            let known = record.allServices
            let fresh = includes.filter { !changes.changes(since: mark, overlap: $0.service.handleRange) }
            let found = fresh.filter { wanted.isEmpty || wanted.contains($0.uuid) }.map { include in
                known.first { $0.remote.handle == include.serviceHandle }
                    ?? Service(remote: include.service, isPrimary: false, generation: link.generation)
            }
            return service.merge(included: found)
        }
    }

    /// Discovers the characteristics of `service`: all (Discover All Characteristics of a
    /// Service, Part G, 4.6.1), or with `characteristicUUIDs`, those with these UUIDs (Discover
    /// Characteristics by UUID, 4.6.2), ATT_READ_BY_TYPE_REQ for «Characteristic» over the
    /// service's handles.
    ///
    /// - Returns: the characteristics found, in handle order.
    /// - Throws: as ``discoverIncludedServices(_:for:)``.
    public func discoverCharacteristics(_ characteristicUUIDs: [BluetoothUUID]? = nil, for service: Service) async throws(BLEError) -> [Characteristic] {
        let link = try connectedLink()
        guard service.generation == link.generation else { throw .serviceNotFound(service.uuid) }
        let remote = service.remote
        let wanted = Set(characteristicUUIDs ?? [])
        let found = try await link.gatt { (client) async throws(GATTClientError) -> [RemoteCharacteristic] in
            if wanted.count == 1, let uuid = wanted.first { return try await client.discoverCharacteristics(of: remote, uuid: uuid) }
            let all = try await client.discoverCharacteristics(of: remote)
            return wanted.isEmpty ? all : all.filter { wanted.contains($0.uuid) }
        }
        defer { restoration?.treeChanged(self) }
        return try record.withLock { (record) throws(BLEError) -> [Characteristic] in
            guard record.link === link, record.holds(service) else { throw .serviceNotFound(service.uuid) }
            return service.merge(characteristics: found.map { Characteristic(remote: $0, generation: link.generation) })
        }
    }

    /// Discovers the descriptors of `characteristic` (Discover All Characteristic Descriptors,
    /// Part G, 4.7.1, ATT_FIND_INFORMATION_REQ over the handles after its value). Sends
    /// nothing when the value is the characteristic's last handle.
    ///
    /// - Returns: the descriptors found, in handle order.
    /// - Throws: as ``discoverServices(_:)``; ``BLEError/characteristicNotFound(_:)`` when
    ///   `characteristic` is not from the current connection, or a Service Changed has taken
    ///   its service out of the tree.
    public func discoverDescriptors(for characteristic: Characteristic) async throws(BLEError) -> [Descriptor] {
        let link = try connectedLink(for: characteristic)
        let remote = characteristic.remote
        let found = try await link.gatt { (client) async throws(GATTClientError) -> [RemoteDescriptor] in
            try await client.discoverDescriptors(of: remote)
        }
        defer { restoration?.treeChanged(self) }
        return try record.withLock { (record) throws(BLEError) -> [Descriptor] in
            guard record.link === link, record.holds(characteristic) else { throw .characteristicNotFound(characteristic.uuid) }
            return characteristic.merge(descriptors: found.map { Descriptor(handle: $0.handle, uuid: $0.uuid, generation: link.generation) })
        }
    }
}
