import BLECore
import GATT

/// Changes of the server's database while connected, as Core Bluetooth's
/// `peripheral(_:didModifyServices:)` (Core v5.4, Vol 3, Part G, 7.1 Service Changed).
extension Peripheral {
    /// Yields, on the current connection, the services a change of the server's database
    /// invalidated: each Service Changed indication (Part G, 7.1) gives the discovered services
    /// (primary and included) whose handles overlap its range, and the services only they
    /// included. They are gone from ``services``
    /// (and from the services that include them) before the stream yields, their
    /// characteristics' notification streams have finished with
    /// ``BLEError/characteristicNotFound(_:)``, reads, writes and subscriptions of their
    /// characteristics and descriptors throw it without sending anything (their handles may
    /// name other attributes now), and the application rediscovers what it needs, as with Core
    /// Bluetooth. An indication whose range holds no discovered service yields an
    /// empty list: the server changed what the application had not discovered.
    ///
    /// The server sends Service Changed only to a client that enabled its indications:
    /// ``discoverDatabase()`` enables them (the GATT client's whole-database discovery does);
    /// an application that discovers service by service enables them itself, with
    /// ``setNotifyValue(_:for:)`` on the Generic Attribute service's Service Changed
    /// characteristic (2A05), once its characteristics were discovered.
    ///
    /// The stream finishes when the link drops (at once when not connected). Each access gives
    /// a stream of its own, which keeps the newest 64 changes for a reader that falls behind.
    public var servicesModified: AsyncStream<[Service]> {
        record.withLock { $0.link }?.modifications.stream() ?? StreamFanOut.finished()
    }

    /// Reads `link`'s Service Changed ranges from its GATT client until the client closes, and
    /// applies each (``servicesChanged(_:on:)``) as soon as the client learns of it, before the
    /// client rediscovers the range: nothing more goes to handles that may name other
    /// attributes now. ``CentralCore`` starts it with the link.
    func watchServiceChanges(on link: PeripheralLink) {
        Task { [weak self] in
            for await range in link.client.serviceChangeNotices {
                guard let self else { return }
                self.servicesChanged(range, on: link)
            }
        }
    }

    /// The server changed the attributes in `range` (Part G, 7.1): the services of `link`'s
    /// tree that overlap it leave the tree, with the services only they included, their
    /// characteristics and descriptors are invalidated (reads, writes and subscriptions of
    /// them throw ``BLEError/characteristicNotFound(_:)``), and ``servicesModified`` yields
    /// them.
    func servicesChanged(_ range: ClosedRange<UInt16>, on link: PeripheralLink) {
        let invalidated: [Service] = record.withLock { record in
            guard record.link === link else { return [] }
            // Under the tree's lock: a discovery merging its results sees the change or comes
            // before it (and its services then leave the tree here).
            link.treeChanges.withLock { $0.record(range) }
            guard let services = record.services else { return [] }
            let all = record.allServices
            let overlapping = all.filter { $0.remote.handleRange.overlaps(range) }
            guard !overlapping.isEmpty else { return [] }
            record.services = services.filter { service in !overlapping.contains { $0 === service } }
            for service in all where !overlapping.contains(where: { $0 === service }) { service.remove(included: overlapping) }
            // A service only included by one that left is out of reach: it leaves too.
            let reachable = record.allServices
            let gone = all.filter { service in !reachable.contains { $0 === service } }.sorted { $0.remote.handle < $1.remote.handle }
            // Under the lock, as discovery merges: nothing is sent to their handles from here on.
            for service in gone { for characteristic in service.characteristics ?? [] { characteristic.invalidate() } }
            return gone
        }
        for service in invalidated {
            for characteristic in service.characteristics ?? [] {
                link.routes.invalidate(characteristic, with: .characteristicNotFound(characteristic.uuid))
            }
        }
        if !invalidated.isEmpty { restoration?.treeChanged(self) }
        link.modifications.yield(invalidated)
    }
}

extension Peripheral.Record {
    /// Every service of the tree, primary and included, once each.
    var allServices: [Service] {
        var all: [Service] = []
        var pending = services ?? []
        while let service = pending.popLast() {
            guard !all.contains(where: { $0 === service }) else { continue }
            all.append(service)
            pending += service.includedServices ?? []
        }
        return all
    }

    /// Whether `service` is in the tree: discovered on the current link and not invalidated
    /// since by a Service Changed (Core v5.4, Vol 3, Part G, 7.1).
    func holds(_ service: Service) -> Bool {
        allServices.contains { $0 === service }
    }

    /// Whether `characteristic` belongs to a service in the tree.
    func holds(_ characteristic: Characteristic) -> Bool {
        allServices.contains { $0.characteristics?.contains { $0 === characteristic } == true }
    }
}
