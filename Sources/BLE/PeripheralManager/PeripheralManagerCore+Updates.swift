import GATT

/// One accepted update on its way to one central's link.
struct UpdateDelivery: Sendable {
    /// Which update it is, for ``PeripheralManagerCore/unfinishedUpdates``.
    let serial: UInt64
    /// Its value handle is looked up when it is sent.
    let characteristic: MutableCharacteristic
    let value: [UInt8]
}

/// Sending the updates ``PeripheralManager/updateValue(_:for:onSubscribedCentrals:)`` accepted.
///
/// One sender takes them in order. A notification waits for nothing but room on the transport,
/// so the sender sends it itself, at once. An indication waits for the central's confirmation
/// (Vol 3, Part F, 3.4.7.2: one outstanding at a time, for up to the 30 s transaction timeout,
/// 3.3.3), so it goes into the outbox of the central's link, which a task of its own sends: a
/// central slow to confirm delays no other central's updates (though what it holds counts in the
/// shared ``UpdateQueue``). While a link's outbox holds anything, or its task is sending, its
/// notifications queue there too, to keep its updates in order.
///
/// While the database changes (``beginDatabaseChange()``, until the manager has followed the
/// server's swap: not through the wait for Service Changed confirmations), nothing is sent: the
/// handles are moving. The updates wait, and then go to the characteristics' new handles and the
/// subscriptions that followed them.
extension PeripheralManagerCore {
    /// Sends every queued update to the centrals it is for: those subscribed to its
    /// characteristic now (or, of them, those named). An update for none is finished at once.
    func sendUpdates() async {
        while true {
            guard databaseChanges == 0 else {
                senderPaused = true   // the change's end starts it again
                return
            }
            guard let update = updates.next() else { return }
            let serial = nextUpdateSerial
            nextUpdateSerial += 1
            let delivery = UpdateDelivery(serial: serial, characteristic: update.characteristic, value: update.value)
            guard let handle = valueHandle(of: update.characteristic) else {
                updates.finished()   // removed since
                continue
            }
            var now: [(id: UInt64, connection: GATTServerConnection)] = []
            var queued = 0
            for id in links.keys.sorted() {
                guard let link = links[id], let configuration = link.configurations[handle], !configuration.isEmpty,
                      update.centrals?.contains(where: { $0 === link.central }) ?? true else { continue }
                if configuration.contains(.notification), link.outbox.isEmpty, !link.delivering {
                    now.append((id, link.connection))
                    continue
                }
                links[id]?.outbox.append(delivery)
                queued += 1
                startDelivering(to: id)
            }
            guard now.count + queued > 0 else {
                updates.finished()
                continue
            }
            unfinishedUpdates[serial] = now.count + queued
            for (index, target) in now.enumerated() {
                guard databaseChanges == 0, valueHandle(of: update.characteristic) == handle else {
                    // The database changed (or is changing) while an earlier one was sent: the
                    // rest go through their links' outboxes (empty, so the order holds), whose
                    // tasks look the handle and subscription up again, after the change.
                    for (id, _) in now[index...] {
                        guard links[id] != nil else {
                            finish(delivery)
                            continue
                        }
                        links[id]?.outbox.append(delivery)
                        if databaseChanges == 0 { startDelivering(to: id) }
                    }
                    break
                }
                _ = try? await target.connection.notify(update.value, for: handle)
                finish(delivery)
            }
        }
    }

    /// Starts a task sending link `id`'s outbox, unless one runs.
    private func startDelivering(to id: UInt64) {
        guard let link = links[id], !link.delivering else { return }
        links[id]?.delivering = true
        Task { await self.deliverUpdates(to: id) }
    }

    /// The value handle `characteristic` is served at now; nil once it is no longer served.
    private func valueHandle(of characteristic: MutableCharacteristic) -> UInt16? {
        valueHandles.withLock { $0[ObjectIdentifier(characteristic)] }
    }

    /// A database change begins: updates wait until ``endDatabaseChange()``.
    func beginDatabaseChange() {
        databaseChanges += 1
    }

    /// Returns once no database change is under way (at once when none is): the handles are
    /// the server's.
    func untilDatabaseSettles() async {
        while databaseChanges > 0 {
            await withCheckedContinuation { settled in databaseSettled.append(settled) }
        }
    }

    /// A database change is over (the handles and subscriptions have followed it): what waited
    /// is sent.
    func endDatabaseChange() {
        databaseChanges -= 1
        guard databaseChanges == 0 else { return }
        for waiter in databaseSettled { waiter.resume() }
        databaseSettled = []
        for (id, link) in links where !link.outbox.isEmpty { startDelivering(to: id) }
        if senderPaused {
            senderPaused = false
            Task { await self.sendUpdates() }
        }
    }

    /// Sends link `id`'s outbox in order until it is empty or the link has ended: each update as
    /// a notification when the central enabled notifications, else as an indication, whose
    /// confirmation it waits for (Vol 3, Part G, 4.10, 4.11); nothing when the central has
    /// unsubscribed meanwhile. A failed send is the link's end, which ``linkEnded(_:reason:)``
    /// handles (it finishes what is left in the outbox).
    func deliverUpdates(to id: UInt64) async {
        // The link is read field by field: a copy of it held while its outbox changes would
        // copy the outbox on each removal.
        while databaseChanges == 0, let delivery = links[id]?.outbox.first, let connection = links[id]?.connection {
            links[id]?.outbox.removeFirst()
            if let handle = valueHandle(of: delivery.characteristic) {
                let configuration = links[id]?.configurations[handle] ?? []
                if configuration.contains(.notification) {
                    _ = try? await connection.notify(delivery.value, for: handle)
                } else if configuration.contains(.indication) {
                    _ = try? await connection.indicate(delivery.value, for: handle)
                }
            }
            finish(delivery)
        }
        links[id]?.delivering = false   // during a database change, its end starts it again
    }

    /// One link has finished with `delivery` (sent it, or dropped it with the link): the update
    /// is finished when no link has it left.
    func finish(_ delivery: UpdateDelivery) {
        guard let left = unfinishedUpdates[delivery.serial] else { return }
        if left > 1 {
            unfinishedUpdates[delivery.serial] = left - 1
        } else {
            unfinishedUpdates[delivery.serial] = nil
            updates.finished()
        }
    }
}
