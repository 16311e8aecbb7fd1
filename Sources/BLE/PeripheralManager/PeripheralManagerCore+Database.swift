import ATT
import Foundation
import GATT

/// The served database: the added services as GATT definitions, replaced on the server whole on
/// every change, so centrals hear of it through Service Changed and the Database Hash (Core
/// v5.4, Vol 3, Part G, 7.1 and 7.3).
extension PeripheralManagerCore {
    /// Adds `service` (see ``PeripheralManager/add(_:)``).
    func add(_ service: MutableService) async throws(BLEError) {
        let (_, server) = try await ready()
        // Changes go one at a time: each builds on the services the one before left.
        await untilDatabaseSettles()
        guard !servesPublishedDatabase else {
            throw .invalidArgument("a published database is served as it is; removeAllServices() first, then add \(service)")
        }
        guard !services.contains(service) else { throw .invalidArgument("\(service) is added already") }
        // The server serves these itself (Part C, 12; Part G, 7), as Core Bluetooth does.
        guard !(service.isPrimary && [GATTProfileUUID.genericAccess, GATTProfileUUID.genericAttribute].contains(service.uuid)) else {
            throw .invalidArgument("\(service): the stack serves the GAP (1800) and GATT (1801) services itself")
        }
        try await serve(services + [service], on: server)
    }

    /// Removes `service` (see ``PeripheralManager/remove(_:)``).
    func remove(_ service: MutableService) async {
        await untilDatabaseSettles()
        guard let server, !servesPublishedDatabase, services.contains(service) else { return }
        try? await serve(services.filter { $0 != service }, on: server)
    }

    /// Removes every service.
    func removeAll() async {
        await untilDatabaseSettles()
        guard let server, !services.isEmpty else { return }
        try? await serve([], on: server)
    }

    /// Serves `next` from now on. The caller has waited for any change under way to end
    /// (``untilDatabaseSettles()``), with no suspension since.
    func serve(_ next: [MutableService], on server: GATTServer) async throws(BLEError) {
        let database: GATTDatabase
        do {
            database = try GATTDatabase(services: next.map { definition(of: $0, among: next) })
        } catch {
            throw .invalidArgument(error.description)
        }
        try await swap(to: database, on: server) { [self] in await self.served(next, database: database) }
    }

    /// Has `server` serve `database`, then `follow` (which ends the change) once it does.
    /// Updates wait from here until the handles have followed the server's swap, which comes
    /// before its wait for Service Changed confirmations (up to 30 s): a central slow to
    /// confirm holds up nobody's updates.
    ///
    /// - Throws: ``BLEError/invalidArgument(_:)`` with the server's refusal (the change ends).
    func swap(to database: GATTDatabase, on server: GATTServer, placingServerServicesAfresh afresh: Bool = false,
              then follow: @escaping @Sendable () async -> Void) async throws(BLEError) {
        beginDatabaseChange()
        do {
            if afresh {
                try await server.replaceDatabasePlacingServerServicesAfresh(database, whenServed: follow)
            } else {
                try await server.replaceDatabase(database, whenServed: follow)
            }
        } catch {
            endDatabaseChange()
            throw .invalidArgument(error.description)
        }
    }

    /// The server serves `database`, made of `next`: the manager follows it, and updates go again.
    private func served(_ next: [MutableService], database: GATTDatabase) async {
        services = next
        servesPublishedDatabase = false
        restoration?.published(next)
        await adopt(next, served: database)
        endDatabaseChange()
    }

    /// `served` is served now, made of `next` (one ``MutableService`` per service, in order):
    /// each characteristic learns its value handle, and the links' subscriptions follow what the
    /// server kept.
    func adopt(_ next: [MutableService], served database: GATTDatabase) async {
        let before = byHandle
        for characteristic in byHandle.values { characteristic.setValueHandle(nil) }
        var handles: [ObjectIdentifier: UInt16] = [:]
        byHandle = [:]
        for (service, served) in zip(next, database.services) {
            for (characteristic, declared) in zip(service.characteristics, served.characteristics) {
                handles[ObjectIdentifier(characteristic)] = declared.valueHandle
                byHandle[declared.valueHandle] = characteristic
                characteristic.setValueHandle(declared.valueHandle)
            }
        }
        valueHandles.withLock { $0 = handles }
        // The server dropped the configurations the change covered: follow it. A link's
        // configurations are keyed by the old handles: each is the characteristic's that was
        // there, now at its new handle (or gone with its service). They are taken out before
        // the first wait, so a configuration the server reports meanwhile (keyed by the new
        // handles already) is kept, and wins over what is looked up here.
        // A link that ends meanwhile ends the subscriptions taken out here too.
        var previous: [(id: UInt64, link: Link)] = []
        for (id, link) in links {
            previous.append((id, link))
            links[id]?.configurations = [:]
        }
        for (id, link) in previous {
            for (handle, old) in link.configurations where !old.isEmpty {
                guard let characteristic = before[handle] else { continue }
                if links[id] != nil, let moved = handles[ObjectIdentifier(characteristic)] {
                    let now = await link.connection.configuration(for: moved).withoutReservedBits
                    if !now.isEmpty, links[id] != nil {
                        if links[id]?.configurations[moved] == nil { links[id]?.configurations[moved] = now }
                        continue
                    }
                }
                characteristic.unsubscribed(link.central)
                subscriptionInput.yield(.unsubscribed(link.central, characteristic))
            }
        }
    }

    /// The GATT definition of `service`; its includes name services of `all`.
    private func definition(of service: MutableService, among all: [MutableService]) -> GATTServiceDefinition {
        let includes = service.includedServices.filter { all.contains($0) }.map { GATTIncludeDefinition(.id(Self.id(of: $0))) }
        return GATTServiceDefinition(uuid: service.uuid, isPrimary: service.isPrimary, id: Self.id(of: service), includes: includes,
                                     characteristics: service.characteristics.map(definition(of:)))
    }

    private static func id(of service: MutableService) -> String { "service-\(UInt(bitPattern: ObjectIdentifier(service).hashValue))" }

    /// The GATT definition of `characteristic`: its value fixed, or asked through the requests.
    private func definition(of characteristic: MutableCharacteristic) -> GATTCharacteristicDefinition {
        let permissions = characteristic.permissions
        let read: GATTAccess? = permissions.contains(.readable) ? (permissions.contains(.readEncryptionRequired) ? .encrypted : .open) : nil
        let write: GATTAccess? = permissions.contains(.writeable) ? (permissions.contains(.writeEncryptionRequired) ? .encrypted : .open) : nil
        let value: GATTAttributeValue
        if let fixed = characteristic.value {
            value = .fixed([UInt8](fixed))
        } else {
            value = .dynamic(GATTValueHandlers(name: characteristic.uuid.description, read: { [weak self] offset, peer async throws(ATTErrorCode) -> [UInt8] in
                guard let self else { throw .unlikelyError }
                return try await self.ask(read: characteristic, offset: offset, peer: peer)
            }, write: { [weak self] octets, offset, peer async throws(ATTErrorCode) in
                guard let self else { throw .unlikelyError }
                try await self.ask(write: characteristic, value: octets, offset: offset, peer: peer)
            }, writeWithoutResponse: { [weak self] octets, _, peer async throws(ATTErrorCode) in
                await self?.tell(writeWithoutResponse: characteristic, value: octets, peer: peer)
            }))
        }
        return GATTCharacteristicDefinition(uuid: characteristic.uuid,
                                            properties: GATTCharacteristicProperties(rawValue: characteristic.properties.rawValue),
                                            permissions: GATTPermissions(read: read, write: write), value: value)
    }

    // MARK: Requests

    /// Asks the application for a read of `characteristic` from `offset`.
    func ask(read characteristic: MutableCharacteristic, offset: Int, peer: GATTPeer) async throws(ATTErrorCode) -> [UInt8] {
        guard let central = await central(for: peer) else { throw .unlikelyError }
        let request = ATTRequest(central: central, characteristic: characteristic, offset: offset, value: nil, writeType: nil)
        let result = await ask(request, as: .read(request))
        guard result == .success else { throw result }
        return [UInt8](request.value ?? Data())
    }

    /// Asks the application to take a write of `value` at `offset` to `characteristic`.
    func ask(write characteristic: MutableCharacteristic, value: [UInt8], offset: Int, peer: GATTPeer) async throws(ATTErrorCode) {
        guard let central = await central(for: peer) else { throw .unlikelyError }
        let request = ATTRequest(central: central, characteristic: characteristic, offset: offset, value: Data(value),
                                 writeType: .withResponse)
        let result = await ask(request, as: .write([request]))
        guard result == .success else { throw result }
    }

    /// Asks the application to take the parts of one executed queued write together (a Write
    /// Long, or a Reliable Write across characteristics: Core v5.4, Vol 3, Part G, 4.9.4 and
    /// 4.9.5): one ``PeripheralRequest/write(_:)`` with a request per part, in queue order,
    /// answered once through its first request, as Core Bluetooth delivers them. A refusal names
    /// the first part's handle.
    func ask(queuedWrites parts: [GATTQueuedWrite], peer: GATTPeer) async throws(GATTQueuedWriteRefusal) {
        guard let first = parts.first else { return }
        guard let central = await central(for: peer) else { throw GATTQueuedWriteRefusal(handle: first.handle, code: .unlikelyError) }
        var requests: [ATTRequest] = []
        for part in parts {
            guard let characteristic = byHandle[part.handle] else { throw GATTQueuedWriteRefusal(handle: part.handle, code: .unlikelyError) }
            requests.append(ATTRequest(central: central, characteristic: characteristic, offset: part.offset, value: Data(part.value),
                                       writeType: .withResponse))
        }
        let result = await ask(requests[0], as: .write(requests))
        guard result == .success else { throw GATTQueuedWriteRefusal(handle: first.handle, code: result) }
    }

    /// Hands `item` to the application through ``requests`` and waits for the answer to
    /// `request`, which stands for it: the application's, or Unlikely Error at the deadline, when
    /// an item still unread is withdrawn.
    private func ask(_ request: ATTRequest, as item: PeripheralRequest) async -> ATTErrorCode {
        let result = await pending.ask(request, deadline: options.requestDeadline, clock: backend?.clock ?? ContinuousClock()) {
            requestQueue.yield(item)
        }
        requestQueue.withdraw(request)
        return result
    }

    /// Tells the application of a Write Command or Signed Write Command (Core v5.4, Vol 3,
    /// Part F, 3.4.5.3 and 3.4.5.4) to `characteristic`: the request goes out with
    /// ``ATTRequest/writeType`` `.withoutResponse`, and nothing waits for an answer, since the
    /// central is told nothing.
    func tell(writeWithoutResponse characteristic: MutableCharacteristic, value: [UInt8], peer: GATTPeer) async {
        guard let central = await central(for: peer) else { return }
        let request = ATTRequest(central: central, characteristic: characteristic, offset: 0, value: Data(value),
                                 writeType: .withoutResponse)
        requestQueue.yield(.write([request]))
    }
}
