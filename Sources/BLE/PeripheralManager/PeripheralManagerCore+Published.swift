import ATT
import Foundation
import GATT

/// A database published as it is (``PeripheralManager/publish(_:)``), and updates sent at once
/// (``PeripheralManager/sendUpdate(_:for:kind:to:)``).
extension PeripheralManagerCore {
    /// Serves `database` as it is (see ``PeripheralManager/publish(_:)``).
    func publish(_ database: GATTDatabase) async throws(BLEError) -> [MutableService] {
        let (_, server) = try await ready()
        await untilDatabaseSettles()   // changes go one at a time
        let mirrors = database.services.map(Self.mirror(of:))
        for (service, mirror) in zip(database.services, mirrors) {
            mirror.includedServices = service.includes.compactMap { include in
                zip(database.services, mirrors).first { $0.0.handle == include.serviceHandle }?.1
            }
        }
        // Laid out as a server made on it lays it out, whatever was served before.
        try await swap(to: database, on: server, placingServerServicesAfresh: true) { [self] in
            await self.published(mirrors, database: database)
        }
        return mirrors
    }

    /// The server serves the published `database`, which `mirrors` stand for: the manager follows
    /// it, and updates go again.
    private func published(_ mirrors: [MutableService], database: GATTDatabase) async {
        services = mirrors
        servesPublishedDatabase = true
        // The state file keeps MutableServices, which a database's dynamic values are not:
        // restoration publishes nothing for it, and says so in the file by listing none.
        restoration?.published([])
        await adopt(mirrors, served: database)
        endDatabaseChange()
    }

    /// The ``MutableService`` that stands for `service` of a published database: its UUID and
    /// kind, and a ``MutableCharacteristic`` per characteristic with its properties, its static
    /// value (nil for a dynamic one) and its permissions as Core Bluetooth's bits say them.
    static func mirror(of service: GATTService) -> MutableService {
        let mirror = MutableService(type: service.uuid, primary: service.isPrimary)
        mirror.characteristics = service.characteristics.map { characteristic in
            var permissions: AttributePermissions = []
            if let read = characteristic.permissions.read {
                permissions.insert(.readable)
                if !read.isOpen { permissions.insert(.readEncryptionRequired) }
            }
            if let write = characteristic.permissions.write {
                permissions.insert(.writeable)
                if !write.isOpen { permissions.insert(.writeEncryptionRequired) }
            }
            var value: Data?
            if case .fixed(let octets) = characteristic.value { value = Data(octets) }
            return MutableCharacteristic(type: characteristic.uuid, properties: CharacteristicProperties(rawValue: characteristic.properties.rawValue),
                                         value: value, permissions: permissions)
        }
        return mirror
    }

    /// Sends `value` at once (see ``PeripheralManager/sendUpdate(_:for:kind:to:)``).
    func sendUpdate(_ value: [UInt8], for characteristic: MutableCharacteristic, kind: ValueUpdateKind,
                    to centrals: [Central]?) async throws(BLEError) -> [Central] {
        let (_, server) = try await ready()
        await untilDatabaseSettles()
        guard let handle = valueHandles.withLock({ $0[ObjectIdentifier(characteristic)] }) else {
            throw .invalidArgument("\(characteristic) is not served")
        }
        let report: GATTDeliveryReport
        do {
            if let centrals {
                let wanted = Set(centrals.map(ObjectIdentifier.init))
                let peers = links.values.filter { wanted.contains(ObjectIdentifier($0.central)) }.map(\.connection.peer)
                    .sorted { $0.connectionID < $1.connectionID }
                report = kind == .notification ? try await server.notify(value, for: handle, to: peers)
                                               : try await server.indicate(value, for: handle, to: peers)
            } else {
                report = kind == .notification ? try await server.notify(value, for: handle) : try await server.indicate(value, for: handle)
            }
        } catch {
            throw .invalidArgument("\(error)")
        }
        return report.delivered.compactMap { links[$0.connectionID]?.central }
    }

    /// The controller's own identity address and type; nil unless the mode runs.
    func localAddress() -> (address: BluetoothAddress, type: Peripheral.AddressType)? {
        guard !closed else { return nil }
        return backend?.localAddress
    }
}
