import ATT
import BLECore

/// The discovered tree kept current: robust caching (Core v5.4, Vol 3, Part G, 2.5.2 and 7.3),
/// Service Changed (7.1) and Database Out Of Sync recovery (2.5.2.1).
extension GATTClient {
    /// Discovers the whole database into ``services``, from the cache when it is still valid.
    ///
    /// 1. Reads the Database Hash (ATT_READ_BY_TYPE_REQ for 0x2B2A over 0x0001...0xFFFF, 7.3).
    /// 2. If the configuration has a cache and a peer identity, and the cache's entry for the
    ///    peer was discovered under the same hash (listed at that entry's Database Hash
    ///    characteristic), takes the tree from it: a cached reconnection costs that one round trip.
    /// 3. Otherwise discovers everything (4.4.1, then 4.5.1, 4.6.1 and 4.7.1 per service and per
    ///    service reachable through includes) and stores it in the cache under the hash (not
    ///    without one: the tree could not be checked later).
    /// 4. Writes Client Supported Features (7.2) and enables Service Changed indications (7.1)
    ///    when the server has them and the configuration asks for them; on a bonded peer whose
    ///    cached entry records them as written, the server kept them, so nothing is written.
    ///
    /// Steps 1 and 4 are optional and best effort (GATTClient+OptionalSteps.swift): an error
    /// response, a malformed answer, or an answer for another attribute type (a hash listed at a
    /// handle the tree shows is no Database Hash) gives a ``GATTClientDiagnostic`` in
    /// ``diagnostics``, switches off what the step served (robust caching, say) for the
    /// connection, and the discovery goes on in full. A Database Out Of Sync error during
    /// discovery makes the client read the hash again and start over, once.
    ///
    /// - Returns: the tree, as ``services`` now holds it.
    /// - Throws: the discovery's failures; of the optional steps, only the bearer's end
    ///   (``GATTClientError/timeout``, ``GATTClientError/closed``).
    public func discoverDatabase() async throws(GATTClientError) -> [RemoteService] {
        let entry = try await loadTree()
        let bonded = configuration.hasTrustedRelationship
        if bonded, usedCachedDatabase, entry?.configuredForBond == true {
            adoptServiceChangedConfiguration()
            return services
        }
        try await writeClientSupportedFeatures()
        try await enableServiceChangedIndications()
        // Only a complete configuration is one the bonded server keeps (7.2; 3.3.3.3).
        if bonded, !isRobustCachingOff, !clientSupportedFeaturesOff, !serviceChangedIndicationsOff,
           let cache = configuration.cache, let peer = configuration.peer, var entry {
            entry.configuredForBond = true
            await cache.store(entry, for: peer)
        }
        return services
    }

    /// Read Using Characteristic UUID (4.8.2) for the Database Hash (7.3). A server answers it
    /// even when it counts the client change-unaware, and reading it is how the client becomes
    /// change-aware again (2.5.2.1). It leaves ``databaseHash``, the hash of the tree the
    /// client holds, alone. (``discoverDatabase()`` reads it best effort instead.)
    ///
    /// - Returns: the 16-octet hash; nil when the server answers with ATT_ERROR_RSP (it has no
    ///   Database Hash, or will not let it be read).
    /// - Throws: ``GATTClientError/ProtocolViolation/malformedValue(handle:_:)`` when the value
    ///   is not 16 octets; transport failures.
    public func readDatabaseHash() async throws(GATTClientError) -> [UInt8]? {
        let request = ATTReadByTypeRequest(startingHandle: 0x0001, endingHandle: 0xFFFF, attributeType: GATTProfileUUID.databaseHash)
        let response = try await send(.readByTypeRequest(request))
        switch response {
        case .readByTypeResponse(let list):
            guard let entry = list.attributeData.first else { return nil }
            return try RemoteDeclarations.databaseHash(entry.value, handle: entry.handle)
        case .errorResponse:
            return nil
        default:
            throw Self.failure(response)
        }
    }

    /// Steps 1-3 of ``discoverDatabase()``, holding the tree lock.
    ///
    /// - Returns: the cache entry now describing the tree, if the tree is cached.
    func loadTree() async throws(GATTClientError) -> GATTClientCacheEntry? {
        await acquire(.tree)
        defer { release(.tree) }
        var hash = try await readUsableDatabaseHash()
        databaseHash = hash?.value
        let peer = configuration.peer
        if let cache = configuration.cache, let peer, let read = hash,
           let entry = await cache.entry(for: peer), entry.databaseHash == read.value {
            if let checked = checkedDatabaseHash(read, in: entry.services) {
                services = entry.services
                treeIsPartial = false
                databaseHash = checked.value
                usedCachedDatabase = true
                return entry
            }
            hash = nil
        }
        let tree: [RemoteService]
        do {
            tree = try await discoverTree(in: 0x0001...0xFFFF)
        } catch {
            guard error.attErrorCode == .databaseOutOfSync else { throw error }
            hash = try await readUsableDatabaseHash()
            tree = try await discoverTree(in: 0x0001...0xFFFF)
        }
        services = tree
        treeIsPartial = false
        usedCachedDatabase = false
        hash = checkedDatabaseHash(hash, in: tree)
        databaseHash = hash?.value
        guard !isRobustCachingOff, let cache = configuration.cache, let peer, let hash else { return nil }
        let entry = GATTClientCacheEntry(databaseHash: hash.value, services: tree)
        await cache.store(entry, for: peer)
        return entry
    }

    // MARK: Service Changed (7.1)

    /// Handles a Service Changed indication for `range`: the services overlapping it are
    /// removed from ``services`` and the range, widened to cover them whole, is discovered
    /// again; subscriptions inside it finish (their characteristics may be gone or renumbered);
    /// the cache is updated under a freshly read hash (its entry is removed when the range's
    /// discovery or the hash read fails: the tree it would keep is not the database); the range
    /// is published on ``serviceChanges`` (and, before all that, on ``serviceChangeNotices``).
    /// A client that holds no whole tree (its caller
    /// discovers service by service) discovers nothing: the caller rediscovers what it needs.
    func serviceChanged(_ range: ClosedRange<UInt16>) async {
        // Before the notice: an owner that ends its subscriptions in the range on hearing it
        // finds nothing to write to handles that may name other attributes now. The client's own
        // Service Changed subscription waits for the rediscovery, as before (its CCCD write, if
        // under way, is answered, and the change's handling enables the indications again).
        beginChange(affectedRange(range))
        dropSubscriptions(in: affectedRange(range), sparingServiceChanged: true)
        serviceChangeNoticesInput.yield(range)
        await acquire(.tree)
        let affected = affectedRange(range)
        let holdsTree = !services.isEmpty
        var whole = holdsTree && !treeIsPartial
        if holdsTree {
            let kept = services.filter { !$0.handleRange.overlaps(affected) }
            do {
                services = try await discoverTree(in: affected, keeping: kept)
            } catch {
                // The tree now lacks the range: the caller rediscovers what it needs, and no
                // cache may keep it as the database (a later connection would trust it whole),
                // not even after a later change's rediscovery succeeds.
                services = kept
                whole = false
                treeIsPartial = true
            }
        } else if let adopted = adoptedGenericAttribute, adopted.handleRange.overlaps(affected) {
            // The Generic Attribute service the caller gave may have moved: its handles are no
            // longer written to (the Service Changed CCCD the server holds stays as it was).
            adoptedGenericAttribute = nil
        }
        dropSubscriptions(in: affected)
        if whole, let read = try? await readUsableDatabaseHash(), let hash = checkedDatabaseHash(read, in: services) {
            databaseHash = hash.value
            if let cache = configuration.cache, let peer = configuration.peer {
                await cache.store(GATTClientCacheEntry(databaseHash: hash.value, services: services), for: peer)
            }
        } else if holdsTree {
            // The entry was made under the hash before the change: no longer the database's.
            databaseHash = nil
            if let cache = configuration.cache, let peer = configuration.peer { await cache.removeEntry(for: peer) }
        }
        release(.tree)
        try? await enableServiceChangedIndications()
        serviceChangesInput.yield(range)
        endChange()
    }

    /// `range` widened to cover whole the services of the tree it overlaps.
    private func affectedRange(_ range: ClosedRange<UInt16>) -> ClosedRange<UInt16> {
        var lower = range.lowerBound
        var upper = range.upperBound
        for service in services where service.handleRange.overlaps(range) {
            lower = min(lower, service.handle)
            upper = max(upper, service.endHandle)
        }
        return lower...upper
    }

    /// Ends, without writing anything, the subscriptions whose value is in `affected`, and the
    /// Client Characteristic Configuration state of the handles in it (their waiters end with
    /// ``GATTClientError/databaseChanged(handle:)``); with `sparingServiceChanged`, not the
    /// client's own Service Changed subscription and its CCCD.
    private func dropSubscriptions(in affected: ClosedRange<UInt16>, sparingServiceChanged: Bool = false) {
        let sparedID = sparingServiceChanged ? serviceChangedSubscriber : nil
        let sparedHandle = sparedID.flatMap { subscribers[$0]?.configurationHandle }
        for (id, subscriber) in subscribers where affected.contains(subscriber.valueHandle) && id != sparedID {
            drop(id)
        }
        for handle in configurations.keys where affected.contains(handle) && handle != sparedHandle {
            for waiter in configurations[handle]?.waiters ?? [] { waiter.continuation.resume(returning: .databaseChanged(handle: handle)) }
            configurations[handle] = nil
        }
    }

    // MARK: Database Out Of Sync (2.5.2.1)

    /// Recovers from a Database Out Of Sync error: reads the Database Hash (the server then
    /// counts this client change-aware) and, when the client holds a tree and the hash changed
    /// (or cannot be read), rediscovers the whole database and updates the cache. Subscriptions
    /// whose characteristic is no longer at its handle finish. With robust caching off the hash
    /// is not read: the rediscovery's first request, a request after the error, makes the
    /// client change-aware (2.5.2.1). A changed database is published on ``serviceChanges`` as
    /// the whole range 0x0001...0xFFFF; a client that holds no whole tree, and so cannot tell,
    /// publishes it after every such error.
    ///
    /// - Parameter handles: the handles of the request to repeat.
    /// - Throws: ``GATTClientError/databaseChanged(handle:)`` when one of `handles` now
    ///   designates another attribute than it did; discovery failures.
    func recoverFromOutOfSync(handles: [UInt16]) async throws(GATTClientError) {
        await acquire(.tree)
        defer { release(.tree) }
        let previous = databaseHash
        var hash = try await readUsableDatabaseHash()
        databaseHash = hash?.value
        guard !services.isEmpty else {
            // No whole tree to refresh or check `handles` against (the caller discovers service
            // by service, or not at all): the request is repeated, and the caller hears that the
            // database changed while this client was change-unaware.
            beginChange(0x0001...0xFFFF)
            serviceChangeNoticesInput.yield(0x0001...0xFFFF)
            serviceChangesInput.yield(0x0001...0xFFFF)
            endChange()
            return
        }
        guard hash == nil || hash?.value != previous else { return }
        beginChange(0x0001...0xFFFF)
        defer { endChange() }
        serviceChangeNoticesInput.yield(0x0001...0xFFFF)
        let old = services
        services = try await discoverTree(in: 0x0001...0xFFFF)
        treeIsPartial = false
        hash = checkedDatabaseHash(hash, in: services)
        databaseHash = hash?.value
        if let hash, let cache = configuration.cache, let peer = configuration.peer {
            await cache.store(GATTClientCacheEntry(databaseHash: hash.value, services: services), for: peer)
        }
        serviceChangesInput.yield(0x0001...0xFFFF)
        for (id, subscriber) in subscribers
        where Self.identity(of: subscriber.valueHandle, in: old) != Self.identity(of: subscriber.valueHandle, in: services) {
            drop(id)
            forgetConfigurationIfUnused(subscriber.configurationHandle)
        }
        for handle in handles {
            if let before = Self.identity(of: handle, in: old), before != Self.identity(of: handle, in: services) {
                throw .databaseChanged(handle: handle)
            }
        }
    }

    /// What a handle designates in a discovered tree.
    enum AttributeIdentity: Hashable {
        case service(BluetoothUUID)
        case include(serviceHandle: UInt16)
        case characteristicDeclaration(BluetoothUUID)
        case characteristicValue(BluetoothUUID)
        case descriptor(BluetoothUUID)
    }

    /// What `handle` designates in `tree`; nil when the tree does not know it.
    static func identity(of handle: UInt16, in tree: [RemoteService]) -> AttributeIdentity? {
        for service in tree where service.handleRange.contains(handle) {
            if service.handle == handle { return .service(service.uuid) }
            if let include = service.includedServices.first(where: { $0.declarationHandle == handle }) {
                return .include(serviceHandle: include.serviceHandle)
            }
            for characteristic in service.characteristics {
                if characteristic.declarationHandle == handle { return .characteristicDeclaration(characteristic.uuid) }
                if characteristic.valueHandle == handle { return .characteristicValue(characteristic.uuid) }
                if let descriptor = characteristic.descriptors.first(where: { $0.handle == handle }) {
                    return .descriptor(descriptor.uuid)
                }
            }
        }
        return nil
    }
}
