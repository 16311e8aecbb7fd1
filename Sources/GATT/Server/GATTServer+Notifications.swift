import ATT

/// Server-initiated PDUs: notifications, Multiple Handle Value Notifications and indications to
/// the clients that configured them (Core v5.4, Vol 3, Part F, 3.4.7; Part G, 4.10, 4.11).
extension GATTServer {
    /// Notifies `value` for the characteristic whose value is at `handle` to every connection whose
    /// CCCD has Notification set (Part G, 4.10.1), each cut to its ATT_MTU-3 octets (Part F,
    /// 3.4.7.1). The server keeps `value` as the characteristic's value when it is a fixed one, so
    /// reads see what was notified (at most 512 octets are kept, Part F, 3.2.9).
    ///
    /// Withheld (``GATTDeliveryReport/withheld``): change-unaware clients that use Robust Caching
    /// (Part G, 2.5.2.1), and links whose security does not meet the characteristic value's read
    /// requirements or its CCCD's write requirements (Part C, 10.3.1.1).
    ///
    /// - Throws: ``GATTServerError/notNotifiable(handle:operation:)`` when `handle` is not the value
    ///   of a characteristic with the Notify property and a CCCD.
    @discardableResult
    public func notify(_ value: [UInt8], for handle: UInt16) async throws(GATTServerError) -> GATTDeliveryReport {
        try await notify(value, for: handle, only: nil)
    }

    /// Notifies several characteristics at once (Part G, 4.10.1 and 4.10.2): each connection is
    /// sent the values it subscribed to; to a client that set Multiple Handle Value
    /// Notifications in Client Supported Features (Part G, 7.2), two or more values go in
    /// ATT_MULTIPLE_HANDLE_VALUE_NTF PDUs (Part F, 3.4.7.4), as many whole tuples as fit its
    /// ATT_MTU; a value too long for a tuple, or left alone, goes in ATT_HANDLE_VALUE_NTF, cut to
    /// ATT_MTU-3. Other clients get one ATT_HANDLE_VALUE_NTF per value.
    ///
    /// - Throws: ``GATTServerError/notNotifiable(handle:operation:)`` for the first handle that
    ///   cannot notify; nothing is sent then.
    @discardableResult
    public func notify(_ updates: [GATTHandleValue]) async throws(GATTServerError) -> GATTDeliveryReport {
        var targets: [(update: GATTHandleValue, characteristic: GATTCharacteristic, cccd: UInt16)] = []
        for update in updates {
            let (characteristic, cccd) = try notifiable(update.handle, .notify)
            targets.append((update, characteristic, cccd))
        }
        for target in targets { keep(target.update.value, for: target.characteristic) }
        var report = GATTDeliveryReport()
        for id in states.keys.sorted() {
            guard let state = states[id] else { continue }
            var mine: [GATTHandleValue] = []
            var withheld = false
            for target in targets where state.configuration(target.cccd).contains(.notification) {
                if await mayDeliver(target.characteristic, cccd: target.cccd, connection: id) {
                    mine.append(target.update)
                } else {
                    withheld = true
                }
            }
            if mine.isEmpty {
                if withheld { report.withheld.append(state.peer) }
                continue
            }
            let useMultiple = state.receivesMultipleNotifications && mine.count >= 2
            do throws(ATTError) {
                let mtu = state.engine.mtu
                for pdu in Self.notificationPDUs(mine, mtu: mtu, multiple: useMultiple) {
                    try await state.engine.send(pdu)
                }
                report.delivered.append(state.peer)
            } catch {
                // Closed: the link dropped, and the connection's state goes once its engine has
                // served the commands the client sent before the end (register(id:engine:options:)).
                report.failed[state.peer] = error
            }
        }
        return report
    }

    /// Indicates `value` for the characteristic whose value is at `handle` to every connection
    /// whose CCCD has Indication set, cut to its ATT_MTU-3 octets, and waits for each client's
    /// confirmation (Part G, 4.11.1). Connections are indicated concurrently; on each, the engine
    /// keeps one indication outstanding and queues the others in call order (Part F, 3.3.2). The
    /// server keeps `value` as ``notify(_:for:)`` does; the same clients are withheld.
    ///
    /// - Throws: ``GATTServerError/notNotifiable(handle:operation:)`` when `handle` is not the value
    ///   of a characteristic with the Indicate property and a CCCD.
    @discardableResult
    public func indicate(_ value: [UInt8], for handle: UInt16) async throws(GATTServerError) -> GATTDeliveryReport {
        try await indicate(value, for: handle, only: nil)
    }

    /// ``notify(_:for:)`` to those of `peers` that subscribed, and no other connection.
    ///
    /// - Throws: ``GATTServerError/notNotifiable(handle:operation:)`` as ``notify(_:for:)``.
    @discardableResult
    public func notify(_ value: [UInt8], for handle: UInt16, to peers: [GATTPeer]) async throws(GATTServerError) -> GATTDeliveryReport {
        try await notify(value, for: handle, only: peers.map(\.connectionID))
    }

    /// ``indicate(_:for:)`` to those of `peers` that subscribed, concurrently, and no other
    /// connection: a client slow to confirm delays no other's indication.
    ///
    /// - Throws: ``GATTServerError/notNotifiable(handle:operation:)`` as ``indicate(_:for:)``.
    @discardableResult
    public func indicate(_ value: [UInt8], for handle: UInt16, to peers: [GATTPeer]) async throws(GATTServerError) -> GATTDeliveryReport {
        try await indicate(value, for: handle, only: peers.map(\.connectionID))
    }

    // MARK: Internals

    /// ``notify(_:for:)`` to every subscribed connection, or only to those of `only`.
    func notify(_ value: [UInt8], for handle: UInt16, only: [UInt64]?) async throws(GATTServerError) -> GATTDeliveryReport {
        let (characteristic, cccd) = try notifiable(handle, .notify)
        keep(value, for: characteristic)
        var report = GATTDeliveryReport()
        for id in only ?? states.keys.sorted() {
            guard let state = states[id], state.configuration(cccd).contains(.notification) else { continue }
            guard await mayDeliver(characteristic, cccd: cccd, connection: id) else {
                report.withheld.append(state.peer)
                continue
            }
            do throws(ATTError) {
                let mtu = state.engine.mtu
                let pdu = ATTHandleValueNotification(handle: handle, value: Array(value.prefix(mtu - 3)))
                try await state.engine.send(.handleValueNotification(pdu))
                report.delivered.append(state.peer)
            } catch {
                // Closed: the link dropped, and the connection's state goes once its engine has
                // served the commands the client sent before the end (register(id:engine:options:)).
                report.failed[state.peer] = error
            }
        }
        return report
    }

    /// ``indicate(_:for:)`` to every subscribed connection, or only to those of `only`.
    func indicate(_ value: [UInt8], for handle: UInt16, only: [UInt64]?) async throws(GATTServerError) -> GATTDeliveryReport {
        let (characteristic, cccd) = try notifiable(handle, .indicate)
        keep(value, for: characteristic)
        var report = GATTDeliveryReport()
        var targets: [(id: UInt64, peer: GATTPeer, engine: ATTEngine)] = []
        for id in only ?? states.keys.sorted() {
            guard let state = states[id], state.configuration(cccd).contains(.indication) else { continue }
            if await mayDeliver(characteristic, cccd: cccd, connection: id) {
                targets.append((id, state.peer, state.engine))
            } else {
                report.withheld.append(state.peer)
            }
        }
        let outcomes = await Self.indicate(value, handle: handle, to: targets.map { ($0.id, $0.engine) })
        for target in targets {
            if let error = outcomes[target.id] ?? nil {
                report.failed[target.peer] = error
                // A timeout ended the engine; a closed bearer ends it once the client's commands
                // sent before the end are served, and the state goes then.
                if error == .timeout { drop(target.id) }
            } else {
                report.delivered.append(target.peer)
            }
        }
        return report
    }

    /// Sends one indication per engine concurrently and waits for all: nil for a confirmed one,
    /// else its error, by connection id.
    static func indicate(_ value: [UInt8], handle: UInt16, to targets: [(id: UInt64, engine: ATTEngine)],
                         whenConfirmed hooks: [UInt64: @Sendable () -> Void] = [:]) async -> [UInt64: ATTError?] {
        await withTaskGroup(of: (UInt64, ATTError?).self) { group in
            for (id, engine) in targets {
                let hook = hooks[id]
                group.addTask {
                    let mtu = engine.mtu
                    do throws(ATTError) {
                        try await engine.indicate(ATTHandleValueIndication(handle: handle, value: Array(value.prefix(mtu - 3))),
                                                  whenConfirmed: hook)
                        return (id, nil)
                    } catch {
                        return (id, error)
                    }
                }
            }
            var outcomes: [UInt64: ATTError?] = [:]
            for await (id, error) in group { outcomes[id] = error }
            return outcomes
        }
    }

    /// The characteristic whose value is at `handle` and its CCCD, when its properties include
    /// `property` (Part G, 3.3.1.1).
    func notifiable(_ handle: UInt16, _ property: GATTCharacteristicProperties) throws(GATTServerError)
        -> (GATTCharacteristic, UInt16) {
        guard let characteristic = served.database.characteristic(valueHandle: handle),
              characteristic.properties.contains(property),
              let cccd = characteristic.clientCharacteristicConfigurationHandle else {
            throw .notNotifiable(handle: handle, operation: property == .notify ? "notify" : "indicate")
        }
        return (characteristic, cccd)
    }

    /// Keeps `value` as the characteristic's value when the server holds it (a fixed value).
    func keep(_ value: [UInt8], for characteristic: GATTCharacteristic) {
        guard case .fixed = characteristic.value else { return }
        values[characteristic.valueHandle] = Array(value.prefix(Self.maximumValueLength))
    }

    /// Whether connection `id` may be sent the characteristic's value now: it is not a
    /// change-unaware Robust Caching client, and its link meets the security the characteristic
    /// value's reads and its CCCD's writes require (Part C, 10.3.1.1).
    func mayDeliver(_ characteristic: GATTCharacteristic, cccd: UInt16, connection id: UInt64) async -> Bool {
        guard let state = states[id], !state.isWithheld else { return false }
        let requirements = [characteristic.permissions.read, served.database.attribute(at: cccd)?.permissions.write]
            .compactMap { $0 }.filter { !$0.isOpen }
        guard !requirements.isEmpty else { return true }
        let security = await state.engine.security
        return requirements.allSatisfy {
            GATTPermissionCheck.error($0, security: security, hasKey: state.isBonded) == nil
        }
    }

    /// The notification PDUs for `updates` at `mtu`: Multiple Handle Value Notifications packed
    /// with whole tuples when `multiple`, else one Handle Value Notification each.
    static func notificationPDUs(_ updates: [GATTHandleValue], mtu: Int, multiple: Bool) -> [ATTPDU] {
        func single(_ update: GATTHandleValue) -> ATTPDU {
            .handleValueNotification(ATTHandleValueNotification(handle: update.handle, value: Array(update.value.prefix(mtu - 3))))
        }
        guard multiple else { return updates.map(single) }
        var pdus: [ATTPDU] = []
        var batch: [ATTMultipleHandleValueNotification.HandleLengthValueTuple] = []
        var size = 1
        func flush() {
            if batch.count == 1, let only = batch.first {
                pdus.append(single(GATTHandleValue(handle: only.handle, value: only.value)))
            } else if batch.count > 1, let pdu = try? ATTMultipleHandleValueNotification(tuples: batch) {
                pdus.append(.multipleHandleValueNotification(pdu))
            }
            batch = []
            size = 1
        }
        for update in updates {
            let tupleSize = 4 + update.value.count
            guard tupleSize <= mtu - 1 else {
                // Too long for a whole tuple (tuples are never cut, 3.4.7.4): notified alone, cut,
                // after the values before it.
                flush()
                pdus.append(single(update))
                continue
            }
            if size + tupleSize > mtu { flush() }
            batch.append(ATTMultipleHandleValueNotification.HandleLengthValueTuple(handle: update.handle, value: update.value))
            size += tupleSize
        }
        flush()
        return pdus
    }
}
