import ATT
import BLECore

/// One subscriber of a characteristic.
struct ClientSubscriber {
    /// The Characteristic Value Handle whose values it receives.
    var valueHandle: UInt16
    /// The CCCD that holds its bit.
    var configurationHandle: UInt16
    /// The bit it holds.
    var kind: GATTClientSubscription.Kind
}

/// A caller waiting for a CCCD's value to settle.
struct ClientConfigurationWaiter {
    /// The bits it needs written (0 for "whatever the subscribers now want").
    var needs: UInt16
    /// The subscriber that needs them (dropped if the write fails), if any.
    var subscriber: UInt64?
    /// Resumed with nil once settled, or with the write's failure.
    var continuation: CheckedContinuation<GATTClientError?, Never>
}

/// The reference count of one Client Characteristic Configuration descriptor (Core v5.4,
/// Vol 3, Part G, 3.3.3.3) and the value last written to it.
struct ClientConfigurationState {
    /// Subscribers holding the notification bit.
    var notificationCount = 0
    /// Subscribers holding the indication bit.
    var indicationCount = 0
    /// The value the server last accepted (0x0000 at the start of a connection).
    var written: UInt16 = 0
    /// The number of the settling task that is writing, if one is. A task goes on only while
    /// the state holds its number: a task whose state a database change removed (and a new
    /// subscriber made afresh) must not land its write's outcome on the new state.
    var settler: UInt64?
    /// Whether a settling task is writing.
    var isSettling: Bool { settler != nil }
    /// Callers waiting for the settling task.
    var waiters: [ClientConfigurationWaiter] = []

    /// The value the subscribers want: 0x0001 if any wants notifications, | 0x0002 if any
    /// wants indications.
    var desired: UInt16 {
        (notificationCount > 0 ? 0x0001 : 0) | (indicationCount > 0 ? 0x0002 : 0)
    }

    /// Whether nothing is wanted, written or pending: the state can be forgotten.
    var isIdle: Bool { desired == 0 && written == 0 && !isSettling && waiters.isEmpty }

    /// Counts one more (`by` 1) or one fewer (`by` -1) subscriber of `kind`.
    mutating func count(_ kind: GATTClientSubscription.Kind, by delta: Int) {
        if kind == .notification { notificationCount += delta } else { indicationCount += delta }
    }
}

/// Notifications and indications (Core v5.4, Vol 3, Part G, 4.10, 4.11), with Client
/// Characteristic Configuration writes (4.12.3) reference-counted across subscribers.
///
/// **Reference counting.** Each CCCD has a count per bit. The value the subscribers want is
/// the union of their bits; one settling task per CCCD writes it until what was written is what
/// is wanted, so concurrent subscribes and cancels cannot race: the last write always reflects
/// the latest counts, and a subscriber returns only once its bit is written. The first
/// subscriber of a bit causes a write, later ones none; the last to leave causes the write
/// without its bit (0x0000 when none is left).
extension GATTClient {
    /// Subscribes to the characteristic's notifications or indications.
    ///
    /// Finds the Client Characteristic Configuration descriptor (among the characteristic's
    /// discovered descriptors, then in ``services``, else by discovering descriptors, 4.7.1),
    /// writes its bit if no other subscriber holds it (ATT_WRITE_REQ, 4.12.3), and returns once
    /// it is written.
    ///
    /// - Parameter kind: notifications or indications; nil picks notifications when the
    ///   characteristic has the Notify property, else indications.
    /// - Throws: ``GATTClientError/notificationsNotSupported(valueHandle:)`` when the properties
    ///   lack the bit; ``GATTClientError/noClientCharacteristicConfiguration(valueHandle:)``;
    ///   the CCCD write's failure (Insufficient Authentication, ...); ``GATTClientError/closed``.
    public func notifications(for characteristic: RemoteCharacteristic,
                              kind: GATTClientSubscription.Kind? = nil) async throws(GATTClientError) -> GATTClientSubscription {
        try await subscribe(characteristic, kind: kind, receiver: nil)
    }

    /// Subscribes as ``notifications(for:kind:)`` does, but hands each value to `receiver`, in
    /// the order the server sent them, as the client takes it in, rather than through the
    /// subscription's sequence: one hand-off fewer per value, for a subscriber that routes
    /// values on by itself (the BLE layer's peripheral). `receiver` runs on the client's
    /// executor and must not block. The returned subscription's sequence yields nothing and
    /// finishes when the subscription ends (``GATTClientSubscription/cancel()``, Service Changed
    /// over the characteristic, the bearer closing); discarding its iterator ends it, as for any
    /// subscription.
    ///
    /// - Throws: as ``notifications(for:kind:)``.
    public func notifications(for characteristic: RemoteCharacteristic, kind: GATTClientSubscription.Kind? = nil,
                              receiver: @escaping @Sendable (RemoteNotification) -> Void) async throws(GATTClientError) -> GATTClientSubscription {
        try await subscribe(characteristic, kind: kind, receiver: receiver)
    }

    private func subscribe(_ characteristic: RemoteCharacteristic, kind: GATTClientSubscription.Kind?,
                           receiver: (@Sendable (RemoteNotification) -> Void)?) async throws(GATTClientError) -> GATTClientSubscription {
        guard !isClosed else { throw .closed }
        let properties = characteristic.properties
        let chosen: GATTClientSubscription.Kind
        if let kind {
            guard properties.contains(kind == .notification ? .notify : .indicate) else {
                throw .notificationsNotSupported(valueHandle: characteristic.valueHandle)
            }
            chosen = kind
        } else if properties.contains(.notify) {
            chosen = .notification
        } else if properties.contains(.indicate) {
            chosen = .indication
        } else {
            throw .notificationsNotSupported(valueHandle: characteristic.valueHandle)
        }
        // A change being handled: its tree and its ending of subscriptions come first.
        await changesHandled()
        let mark = changeCount
        let configuration = try await configurationHandle(for: characteristic)
        await changesHandled()
        guard !isClosed else { throw .closed }
        if changed(since: mark, over: characteristic.declarationHandle...max(characteristic.declarationHandle, characteristic.endHandle)) {
            throw .databaseChanged(handle: characteristic.valueHandle)
        }

        let (stream, continuation) = AsyncStream.makeStream(of: RemoteNotification.self,
                                                            bufferingPolicy: self.configuration.notificationBuffering)
        let id = register(valueHandle: characteristic.valueHandle, configurationHandle: configuration,
                          kind: chosen, delivery: ClientDelivery(continuation: continuation, receiver: receiver))
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id, waiting: false) }
        }
        if let failure = await settled(configuration, needs: chosen.configurationBit, subscriber: id) {
            await unsubscribe(id, waiting: false)
            throw failure
        }
        return GATTClientSubscription(characteristic: characteristic, kind: chosen, configurationHandle: configuration,
                                      id: id, client: self, stream: stream)
    }

    /// The handle of the characteristic's Client Characteristic Configuration descriptor.
    func configurationHandle(for characteristic: RemoteCharacteristic) async throws(GATTClientError) -> UInt16 {
        if let known = characteristic.clientCharacteristicConfiguration { return known.handle }
        for service in services {
            if let match = service.characteristics.first(where: { $0.valueHandle == characteristic.valueHandle }),
               let known = match.clientCharacteristicConfiguration {
                return known.handle
            }
        }
        let found = try await discoverDescriptors(of: characteristic)
        guard let descriptor = found.first(where: { $0.uuid == GATTAttributeType.clientCharacteristicConfiguration }) else {
            throw .noClientCharacteristicConfiguration(valueHandle: characteristic.valueHandle)
        }
        return descriptor.handle
    }

    /// Records a subscriber; `delivery` is nil for the client's own (Service Changed).
    func register(valueHandle: UInt16, configurationHandle: UInt16, kind: GATTClientSubscription.Kind,
                  delivery: ClientDelivery?) -> UInt64 {
        lastSubscriberID &+= 1
        let id = lastSubscriberID
        subscribers[id] = ClientSubscriber(valueHandle: valueHandle, configurationHandle: configurationHandle, kind: kind)
        if let delivery { deliveries[valueHandle, default: [:]][id] = delivery }
        configurations[configurationHandle, default: ClientConfigurationState()].count(kind, by: 1)
        return id
    }

    /// Removes subscriber `id` (if still there), finishes its sequence and settles its CCCD,
    /// waiting for the write when `waiting`.
    ///
    /// - Returns: when `waiting`, the failure of the write that was to settle the CCCD (the
    ///   server's CCCD then keeps the bit, and may go on sending values, which are dropped);
    ///   nil otherwise.
    @discardableResult
    func unsubscribe(_ id: UInt64, waiting: Bool) async -> GATTClientError? {
        guard let subscriber = drop(id) else { return nil }
        let handle = subscriber.configurationHandle
        if waiting {
            return await settled(handle, needs: 0, subscriber: nil)
        }
        startSettling(handle)
        return nil
    }

    /// Forgets subscriber `id` without writing anything (``GATTClientSubscription/forget()``);
    /// with no subscriber of its CCCD left, the CCCD's state goes too (its waiters end with
    /// ``GATTClientError/databaseChanged(handle:)``), so that a later subscription at that
    /// handle writes its configuration rather than trusting what was written before the change.
    func forget(_ id: UInt64) {
        guard let subscriber = drop(id) else { return }
        forgetConfigurationIfUnused(subscriber.configurationHandle)
    }

    /// Removes the state of CCCD `handle` when no subscriber of it is left (its waiters end with
    /// ``GATTClientError/databaseChanged(handle:)``): the next subscription there writes its
    /// configuration, rather than trust a value written before the database changed.
    func forgetConfigurationIfUnused(_ handle: UInt16) {
        guard configurations[handle] != nil, !subscribers.values.contains(where: { $0.configurationHandle == handle }) else { return }
        for waiter in configurations[handle]?.waiters ?? [] { waiter.continuation.resume(returning: .databaseChanged(handle: handle)) }
        configurations[handle] = nil
    }

    /// Forgets subscriber `id` and finishes its sequence, without writing anything.
    @discardableResult
    func drop(_ id: UInt64) -> ClientSubscriber? {
        guard let subscriber = subscribers.removeValue(forKey: id) else { return nil }
        if serviceChangedSubscriber == id { serviceChangedSubscriber = nil }
        let delivery = deliveries[subscriber.valueHandle]?.removeValue(forKey: id)
        if deliveries[subscriber.valueHandle]?.isEmpty == true { deliveries[subscriber.valueHandle] = nil }
        configurations[subscriber.configurationHandle]?.count(subscriber.kind, by: -1)
        delivery?.continuation.finish()
        return subscriber
    }

    /// Waits until CCCD `handle` holds what its subscribers want.
    ///
    /// A closed client writes nothing more, so it answers at once: a waiter queued after the
    /// bearer closed would wait for ever. (Waiters queued before get the close's cause.)
    ///
    /// - Returns: nil when settled with `needs` written; ``GATTClientError/closed`` when called
    ///   on a closed client; the write's failure otherwise (the waiting `subscriber` has then
    ///   been dropped).
    func settled(_ handle: UInt16, needs: UInt16, subscriber: UInt64?) async -> GATTClientError? {
        guard !isClosed else { return .closed }
        guard let state = configurations[handle] else { return nil }
        if !state.isSettling, state.written == state.desired {
            forgetIfIdle(handle)
            return nil
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<GATTClientError?, Never>) in
            configurations[handle]?.waiters.append(ClientConfigurationWaiter(needs: needs, subscriber: subscriber,
                                                                       continuation: continuation))
            startSettling(handle)
        }
    }

    /// Starts the settling task of CCCD `handle` unless it runs or nothing is to be written.
    func startSettling(_ handle: UInt16) {
        guard let state = configurations[handle], !state.isSettling, !isClosed else { return }
        guard state.written != state.desired else {
            forgetIfIdle(handle)
            return
        }
        lastSettlerID &+= 1
        let settler = lastSettlerID
        configurations[handle]?.settler = settler
        Task { await self.settle(handle, as: settler) }
    }

    /// Writes CCCD `handle` until it holds what its subscribers want, resuming waiters as
    /// their bits are written. A failed write fails (and drops) the subscribers whose bits it
    /// did not write, and stops: a later change starts a new task.
    ///
    /// The task is `settler`; it stops, touching nothing, once the state no longer names it: the
    /// bearer closed, or a database change forgot the CCCD (its waiters already ended with
    /// ``GATTClientError/databaseChanged(handle:)``), perhaps while a new subscriber started
    /// another task at the handle.
    func settle(_ handle: UInt16, as settler: UInt64) async {
        while let state = configurations[handle], state.settler == settler, state.written != state.desired, !isClosed {
            let value = state.desired
            var failure: GATTClientError?
            do {
                try await write([UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)], to: handle)
            } catch {
                failure = error
            }
            guard configurations[handle]?.settler == settler else { return }   // closed or forgotten: waiters already resumed
            if let failure {
                failWaiters(of: handle, with: failure)
                break
            }
            configurations[handle]?.written = value
            resumeWaiters(of: handle) { ($0.needs & value) == $0.needs && $0.needs != 0 }
        }
        guard configurations[handle]?.settler == settler else { return }
        configurations[handle]?.settler = nil
        resumeWaiters(of: handle) { _ in true }
        forgetIfIdle(handle)
    }

    /// Resumes (with nil) and removes the waiters of `handle` that `isSatisfied`.
    private func resumeWaiters(of handle: UInt16, where isSatisfied: (ClientConfigurationWaiter) -> Bool) {
        guard let waiters = configurations[handle]?.waiters else { return }
        var remaining: [ClientConfigurationWaiter] = []
        for waiter in waiters {
            if isSatisfied(waiter) { waiter.continuation.resume(returning: nil) } else { remaining.append(waiter) }
        }
        configurations[handle]?.waiters = remaining
    }

    /// After a failed write: the waiters needing bits that are not written fail, and their
    /// subscribers are dropped; so do the waiters that needed the CCCD to hold what the
    /// subscribers want (`needs` 0, an unsubscribing caller), which it does not; the others stay.
    private func failWaiters(of handle: UInt16, with failure: GATTClientError) {
        guard let state = configurations[handle] else { return }
        var remaining: [ClientConfigurationWaiter] = []
        for waiter in state.waiters {
            if waiter.needs == 0 || (waiter.needs & state.written) != waiter.needs {
                if let id = waiter.subscriber { drop(id) }
                waiter.continuation.resume(returning: failure)
            } else {
                remaining.append(waiter)
            }
        }
        configurations[handle]?.waiters = remaining
    }

    /// Removes the state of CCCD `handle` when nothing is wanted, written or pending.
    private func forgetIfIdle(_ handle: UInt16) {
        if configurations[handle]?.isIdle == true { configurations[handle] = nil }
    }

    // MARK: Delivery

    /// Hands a notification or indication from the engine to the subscribers of its handle;
    /// ATT_MULTIPLE_HANDLE_VALUE_NTF is split into one value per handle, in PDU order. A
    /// Service Changed indication also starts the rediscovery of its range (Part G, 7.1).
    func deliver(_ pdu: ATTPDU) {
        switch pdu {
        case .handleValueNotification(let notification):
            deliver(RemoteNotification(handle: notification.handle, value: notification.value, isIndication: false))
        case .multipleHandleValueNotification(let multiple):
            for tuple in multiple.tuples {
                deliver(RemoteNotification(handle: tuple.handle, value: tuple.value, isIndication: false))
            }
        case .handleValueIndication(let indication):
            if indication.handle == (serviceChangedValueHandle ?? learnedServiceChangedValueHandle),
               let range = try? RemoteDeclarations.serviceChangedRange(indication.value, handle: indication.handle) {
                Task { await self.serviceChanged(range) }
            }
            deliver(RemoteNotification(handle: indication.handle, value: indication.value, isIndication: true))
        default:
            break
        }
    }

    private func deliver(_ notification: RemoteNotification) {
        guard let targets = deliveries[notification.handle] else { return }
        for delivery in targets.values { delivery.deliver(notification) }
    }

    /// The bearer closed: every subscription finishes and every waiter fails with `cause`
    /// (``GATTClientError/closed``, or ``GATTClientError/timeout`` when a transaction timed out).
    func endAllSubscriptions(with cause: GATTClientError) {
        let all = deliveries.values.flatMap(\.values)
        let waiters = configurations.values.flatMap(\.waiters)
        subscribers = [:]
        deliveries = [:]
        configurations = [:]
        serviceChangedSubscriber = nil
        for waiter in waiters { waiter.continuation.resume(returning: cause) }
        for delivery in all { delivery.continuation.finish() }
    }

    /// The value handle of Service Changed in ``services``, if discovered.
    var serviceChangedValueHandle: UInt16? {
        for service in services where service.uuid == GATTProfileUUID.genericAttribute {
            if let characteristic = service.characteristic(GATTProfileUUID.serviceChanged) { return characteristic.valueHandle }
        }
        return nil
    }
}
