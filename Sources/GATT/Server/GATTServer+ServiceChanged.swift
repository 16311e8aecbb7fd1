import ATT

/// Replacing the database: Service Changed and Robust Caching's change-aware state (Core v5.4,
/// Vol 3, Part G, 2.5.2, 2.5.2.1 and 7.1).
extension GATTServer {
    /// Serves `database` from now on, with the GAP and GATT services the server adds (keeping
    /// their handles when they are free in it), and tells the clients when its structure changed:
    ///
    /// 1. the Service Changed range is the structural change (``GATTDatabase/changedHandles(since:)``,
    ///    whole services) widened to the GATT service, whose Database Hash value changes with it
    ///    (7.1); a database with the same structure changes nothing but values, and returns an
    ///    empty report;
    /// 2. every connected client becomes change-unaware (2.5.2.1: "Whenever the server updates the
    ///    database definitions, all connected clients become change-unaware"); its queued writes
    ///    become stale (an Execute Write answers Database Out Of Sync, Part F, 3.4.6.3); its CCCD
    ///    values outside the range are kept (those attributes did not move), inside it dropped,
    ///    except Service Changed's own, which follows Service Changed; if Service Changed itself
    ///    had to move (see ``GATTServerConfiguration/serverServicesHandle``), the range is
    ///    0x0001-0xFFFF;
    /// 3. Service Changed is indicated, with the range, to every client that configured it
    ///    (Part G, 7.1); a client that confirms it becomes change-aware, unless the database
    ///    changed again meanwhile (2.5.2.1).
    ///
    /// Values clients wrote to the old database are dropped: the new database's values apply.
    ///
    /// - Returns: the Service Changed indications' outcome, once every client has confirmed or
    ///   failed (at most the transaction timeout, 30 s).
    /// - Throws: as ``init(database:configuration:)``; the old database stays served then.
    @discardableResult
    public func replaceDatabase(_ database: GATTDatabase) async throws(GATTServerError) -> GATTDeliveryReport {
        try await replace(database, whenServed: nil)
    }

    /// ``replaceDatabase(_:)``, calling `whenServed` once `database` is served and the clients'
    /// CCCD values have followed it (step 2), before Service Changed is indicated and its
    /// confirmations awaited (up to 30 s): an owner that keeps its own map of handles switches
    /// it there, not after the confirmations. Requests that come while `whenServed` runs are
    /// served from `database`. Not called when the database is refused.
    ///
    /// - Throws: as ``replaceDatabase(_:)``.
    @discardableResult
    public func replaceDatabase(_ database: GATTDatabase,
                                whenServed: @escaping @Sendable () async -> Void) async throws(GATTServerError) -> GATTDeliveryReport {
        try await replace(database, afresh: false, whenServed: whenServed)
    }

    /// ``replaceDatabase(_:whenServed:)`` with the GAP and GATT services placed as a server made
    /// on `database` places them (with ``GATTServerConfiguration/preferredServerServicesHandle``
    /// nil), not kept where they were: for a database served as it is, whose layout and Database
    /// Hash must be the same whatever was served before. When Service Changed moves, the range
    /// indicated is 0x0001-0xFFFF (Core v5.4, Vol 3, Part G, 7.1).
    ///
    /// - Throws: as ``replaceDatabase(_:)``.
    @discardableResult
    public func replaceDatabasePlacingServerServicesAfresh(_ database: GATTDatabase,
                                                           whenServed: @escaping @Sendable () async -> Void) async throws(GATTServerError) -> GATTDeliveryReport {
        try await replace(database, afresh: true, whenServed: whenServed)
    }

    /// The ``replaceDatabase(_:)`` forms; without `whenServed`, nothing suspends between the
    /// swap and the choice of the clients Service Changed is indicated to.
    private func replace(_ database: GATTDatabase, afresh: Bool = false,
                         whenServed: (@Sendable () async -> Void)?) async throws(GATTServerError) -> GATTDeliveryReport {
        var placing = configuration
        if afresh { placing.preferredServerServicesHandle = nil }
        let new = try GATTServedDatabase(database, configuration: placing, previous: afresh ? nil : served)
        let old = served
        served = new
        values = [:]
        guard var range = new.serviceChangedRange(since: old) else {
            await whenServed?()
            return GATTDeliveryReport()
        }
        // Service Changed itself moved (its handles were taken): its subscriptions move with it,
        // and the client is told to rediscover everything.
        let moved = old.serviceChangedHandle != new.serviceChangedHandle
        if moved { range = 0x0001...0xFFFF }
        generation &+= 1
        for id in states.keys {
            guard var state = states[id] else { continue }
            state.becomeUnaware(generation: generation)
            state.prepareQueue.markStale()
            var kept: [UInt16: UInt16] = [:]
            for (handle, value) in state.configurations {
                if handle == old.serviceChangedConfigurationHandle, let cccd = new.serviceChangedConfigurationHandle {
                    kept[cccd] = value
                } else if !range.contains(handle), new.roles[handle] != nil {
                    kept[handle] = value
                }
            }
            state.configurations = kept
            states[id] = state
        }
        let generation = self.generation
        await whenServed?()
        return await indicateServiceChanged(range, generation: generation, only: nil)
    }

    /// Indicates Service Changed with `range` to the connections that configured it (or to `only`),
    /// and makes each that confirms change-aware if the database is still at `generation`.
    ///
    /// The engine records each confirmation as it arrives (``ATTEngine/indicate(_:whenConfirmed:)``),
    /// so a request the client sends right after confirming is served change-aware.
    @discardableResult
    func indicateServiceChanged(_ range: ClosedRange<UInt16>, generation: UInt64, only: UInt64?) async -> GATTDeliveryReport {
        guard let handle = served.serviceChangedHandle, let cccd = served.serviceChangedConfigurationHandle else {
            return GATTDeliveryReport()
        }
        // Start and End of Affected Attribute Handle Range, little-endian (Table 7.3).
        let value: [UInt8] = [UInt8(truncatingIfNeeded: range.lowerBound), UInt8(truncatingIfNeeded: range.lowerBound >> 8),
                              UInt8(truncatingIfNeeded: range.upperBound), UInt8(truncatingIfNeeded: range.upperBound >> 8)]
        var targets: [(id: UInt64, engine: ATTEngine)] = []
        var hooks: [UInt64: @Sendable () -> Void] = [:]
        for id in only.map({ [$0] }) ?? states.keys.sorted() {
            // Service Changed goes even to change-unaware clients (2.5.2.1).
            guard let state = states[id], state.configuration(cccd).contains(.indication) else { continue }
            targets.append((id, state.engine))
            let confirmation = state.serviceChangedConfirmation
            hooks[id] = { confirmation.record(generation) }
        }
        let outcomes = await Self.indicate(value, handle: handle, to: targets, whenConfirmed: hooks)
        var report = GATTDeliveryReport()
        for (id, _) in targets {
            guard let peer = states[id]?.peer ?? handles[id]?.peer else { continue }
            if let error = outcomes[id] ?? nil {
                report.failed[peer] = error
                if error == .timeout { drop(id) }     // closed: dropped once the engine has shut down
                continue
            }
            report.delivered.append(peer)
            // "The client receives and confirms a Handle Value Indication for the Service Changed
            // characteristic" makes a single-bearer client change-aware (2.5.2.1).
            if var state = states[id], state.confirmServiceChanged(generation, current: self.generation) {
                states[id] = state
            }
        }
        return report
    }
}
