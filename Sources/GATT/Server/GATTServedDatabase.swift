import BLECore

/// The database a ``GATTServer`` serves: the application's database, plus the GAP service
/// (Core v5.4, Vol 3, Part C, 12) and the GATT service (Part G, 7) when it has none of its own,
/// and an index of the attributes whose values the server keeps per connection.
///
/// The GATT service the server adds holds Service Changed (with its CCCD), Client Supported
/// Features, Database Hash and Server Supported Features; the GAP service holds Device Name and
/// Appearance. A service the application already defines is never duplicated: its
/// characteristics are served as they are, except that the server answers for Client Supported
/// Features (per connection) and Database Hash (computed), and indicates Service Changed.
///
/// The added services go into the first free handle ranges that fit (``GATTServerServicesPlacement``):
/// a database that ends at 0xFFFF gets them in a gap. When a database replaces another, they keep
/// their previous handles if those are still free, so that the Service Changed handle does not
/// move (Part G, 7.1: it "shall not change if the server has a trusted relationship with any
/// client"). A database with ``GATTDatabase/addsServerServices`` false gets neither.
struct GATTServedDatabase: Sendable {
    /// What the server does with an attribute beyond reading and writing its value.
    enum Role: Sendable, Hashable {
        /// A Client Characteristic Configuration descriptor: one value per connection, for the
        /// characteristic whose value is at `valueHandle` and whose properties are `properties`.
        case clientCharacteristicConfiguration(valueHandle: UInt16, properties: GATTCharacteristicProperties)
        /// The Client Supported Features value (Part G, 7.2): one value per connection.
        case clientSupportedFeatures
        /// The Database Hash value (Part G, 7.3): reading it is a step towards change-awareness.
        case databaseHash
    }

    /// The attributes served, the application's and the server's.
    let database: GATTDatabase
    /// The database as the application gave it.
    let application: GATTDatabase
    /// The attributes with a ``Role``, by handle.
    let roles: [UInt16: Role]
    /// The Service Changed characteristic value handle, if the database has one.
    let serviceChangedHandle: UInt16?
    /// The handle of Service Changed's CCCD, if any.
    let serviceChangedConfigurationHandle: UInt16?
    /// The handles of the GATT service (0x1801), if any.
    let gattServiceRange: ClosedRange<UInt16>?
    /// The handles of each service the server added, by service UUID (empty when the
    /// application defined both, or said not to add them).
    let addedRanges: [BluetoothUUID: ClosedRange<UInt16>]

    /// The handles the added GAP service takes: declaration, Device Name and Appearance.
    static let gapServiceHandleCount = 5
    /// The handles the added GATT service takes: declaration, Service Changed with its CCCD,
    /// Client Supported Features, Database Hash, Server Supported Features.
    static let gattServiceHandleCount = 10

    /// The database served for `application`.
    ///
    /// - Parameter previous: the database served before, whose added services keep their handles
    ///   when they are free in `application`.
    /// - Throws: ``GATTServerError/noHandlesForServerServices(needed:)`` when an added service
    ///   fits in no free range; ``GATTServerError/serverServicesHandleInUse(handle:needed:)`` when
    ///   the configured handles are taken; ``GATTServerError/database(_:)`` when the merged
    ///   database cannot be hashed.
    init(_ application: GATTDatabase, configuration: GATTServerConfiguration,
         previous: GATTServedDatabase? = nil) throws(GATTServerError) {
        let adds = application.addsServerServices
        let hasGAP = application.services.contains { $0.isPrimary && $0.uuid == GATTProfileUUID.genericAccess }
        let hasGATT = application.services.contains { $0.isPrimary && $0.uuid == GATTProfileUUID.genericAttribute }
        var added: [GATTServiceDefinition] = []
        if adds, !hasGAP { added.append(Self.gapService(configuration)) }
        if adds, !hasGATT { added.append(Self.gattService()) }

        var attributes = application.attributes
        var services = application.services
        var addedRanges: [BluetoothUUID: ClosedRange<UInt16>] = [:]
        if !added.isEmpty {
            let counts = added.map { $0.uuid == GATTProfileUUID.genericAccess ? Self.gapServiceHandleCount : Self.gattServiceHandleCount }
            let placement = GATTServerServicesPlacement(application: application)
            let ranges = try placement.place(counts, fixed: configuration.serverServicesHandle,
                                             preferred: configuration.preferredServerServicesHandle,
                                             previous: added.map { previous?.addedRanges[$0.uuid] })
            for i in added.indices {
                added[i].handle = ranges[i].lowerBound
                addedRanges[added[i].uuid] = ranges[i]
            }
            added.sort { ($0.handle ?? 0) < ($1.handle ?? 0) }
            let extra: GATTDatabase
            do {
                extra = try GATTDatabaseBuilder(services: added).build()
            } catch {
                throw .database(error)
            }
            attributes = Self.merge(attributes, extra.attributes) { $0.handle }
            services = Self.merge(services, extra.services) { $0.handle }
        }

        // The GATT service: the first primary 0x1801 (the specification allows one, Part G, 7).
        let gatt = services.first { $0.isPrimary && $0.uuid == GATTProfileUUID.genericAttribute }
        let serviceChanged = gatt?.characteristics(GATTProfileUUID.serviceChanged).first
        var roles: [UInt16: Role] = [:]
        for service in services {
            for characteristic in service.characteristics {
                for descriptor in characteristic.descriptors
                where descriptor.type == GATTAttributeType.clientCharacteristicConfiguration {
                    roles[descriptor.handle] = .clientCharacteristicConfiguration(
                        valueHandle: characteristic.valueHandle, properties: characteristic.properties)
                }
            }
        }
        if let features = gatt?.characteristics(GATTProfileUUID.clientSupportedFeatures).first {
            roles[features.valueHandle] = .clientSupportedFeatures
        }
        let hashCharacteristic = gatt?.characteristics(GATTProfileUUID.databaseHash).first
        if let hashCharacteristic { roles[hashCharacteristic.valueHandle] = .databaseHash }

        // The hash covers no characteristic value, so it can be computed before the Database Hash
        // value is set (Part G, 7.3.1).
        let hash: [UInt8]
        do {
            hash = try GATTDatabaseHash.characteristicValue(attributes)
        } catch {
            throw .database(error)
        }
        if let hashCharacteristic {
            Self.setFixedValue(hash, at: hashCharacteristic.valueHandle, attributes: &attributes, services: &services)
        }

        self.database = GATTDatabase(attributes: attributes, services: services, databaseHash: hash,
                                     addsServerServices: adds)
        self.application = application
        self.roles = roles
        self.serviceChangedHandle = serviceChanged?.valueHandle
        self.serviceChangedConfigurationHandle = serviceChanged?.clientCharacteristicConfigurationHandle
        self.gattServiceRange = gatt?.handleRange
        self.addedRanges = addedRanges
    }

    // MARK: Lookups the server needs

    /// The fixed length of the attribute's value, when the server knows it (for Attribute Not
    /// Long, Part F, 3.4.4.5, and for writes, 3.4.5.1): declarations and the fixed-size
    /// descriptors of Part G, 3.3.3; the Database Hash (16) and Service Changed (4); and values
    /// that cannot change while the database is served (fixed, not writable, and neither notified
    /// nor indicated, since ``GATTServer/notify(_:for:)`` updates the value it sends).
    func fixedLength(of attribute: GATTAttribute) -> Int? {
        switch attribute.type {
        case GATTAttributeType.clientCharacteristicConfiguration, GATTAttributeType.serverCharacteristicConfiguration,
             GATTAttributeType.characteristicExtendedProperties:
            return 2
        case GATTAttributeType.characteristicPresentationFormat:
            return GATTPresentationFormat.length
        default:
            break
        }
        if roles[attribute.handle] == .databaseHash { return 16 }
        if attribute.handle == serviceChangedHandle { return 4 }
        if roles[attribute.handle] == .clientSupportedFeatures { return nil }
        guard case .fixed(let octets) = attribute.value, attribute.permissions.write == nil else { return nil }
        if let characteristic = database.characteristic(valueHandle: attribute.handle),
           !characteristic.properties.isDisjoint(with: [.notify, .indicate]) {
            return nil
        }
        return octets.count
    }

    /// The handles a client must rediscover when this database replaces `old` (Part G, 7.1): the
    /// structural change widened to the GATT service, whose Database Hash value changes with it
    /// ("the range shall also include the beginning and ending Attribute Handle for the GATT
    /// service definition"); nil when the structure is the same.
    func serviceChangedRange(since old: GATTServedDatabase) -> ClosedRange<UInt16>? {
        guard var range = database.changedHandles(since: old.database) else { return nil }
        for gatt in [gattServiceRange, old.gattServiceRange].compactMap({ $0 }) {
            range = min(range.lowerBound, gatt.lowerBound)...max(range.upperBound, gatt.upperBound)
        }
        return range
    }

    // MARK: Building

    /// The GAP service: Device Name and Appearance, read only (Part C, 12.1, 12.2).
    static func gapService(_ configuration: GATTServerConfiguration) -> GATTServiceDefinition {
        let appearance = configuration.appearance
        return .primary(GATTProfileUUID.genericAccess, characteristics: [
            GATTCharacteristicDefinition(uuid: GATTProfileUUID.deviceName, properties: [.read],
                                         value: .fixed(configuration.deviceNameValue)),
            GATTCharacteristicDefinition(uuid: GATTProfileUUID.appearance, properties: [.read],
                                         value: .fixed([UInt8(truncatingIfNeeded: appearance),
                                                        UInt8(truncatingIfNeeded: appearance >> 8)])),
        ])
    }

    /// The GATT service (Part G, 7, Tables 7.2-7.10): Service Changed (indicate; value neither
    /// readable nor writable), Client Supported Features (read, write), Database Hash (read) and
    /// Server Supported Features (read; no feature: EATT is not supported, so 0x00).
    static func gattService() -> GATTServiceDefinition {
        .primary(GATTProfileUUID.genericAttribute, characteristics: [
            GATTCharacteristicDefinition(uuid: GATTProfileUUID.serviceChanged, properties: [.indicate],
                                         permissions: GATTPermissions.none, value: .fixed([0x00, 0x00, 0x00, 0x00])),
            GATTCharacteristicDefinition(uuid: GATTProfileUUID.clientSupportedFeatures, properties: [.read, .write],
                                         value: .fixed([])),
            GATTCharacteristicDefinition(uuid: GATTProfileUUID.databaseHash, properties: [.read],
                                         value: .fixed([UInt8](repeating: 0, count: 16))),
            GATTCharacteristicDefinition(uuid: GATTProfileUUID.serverSupportedFeatures, properties: [.read],
                                         value: .fixed([0x00])),
        ])
    }

    /// Two lists sorted by `key`, merged in order.
    static func merge<T>(_ a: [T], _ b: [T], by key: (T) -> UInt16) -> [T] {
        var result: [T] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if key(a[i]) <= key(b[j]) { result.append(a[i]); i += 1 } else { result.append(b[j]); j += 1 }
        }
        result += a[i...]
        result += b[j...]
        return result
    }

    /// Replaces the value of the characteristic value attribute at `handle` with `value`, in the
    /// attribute list and in the service tree.
    static func setFixedValue(_ value: [UInt8], at handle: UInt16,
                              attributes: inout [GATTAttribute], services: inout [GATTService]) {
        if let i = attributes.firstIndex(where: { $0.handle == handle }) { attributes[i].value = .fixed(value) }
        guard let s = services.firstIndex(where: { $0.handleRange.contains(handle) }) else { return }
        let service = services[s]
        let characteristics = service.characteristics.map { c -> GATTCharacteristic in
            guard c.valueHandle == handle else { return c }
            return GATTCharacteristic(declarationHandle: c.declarationHandle, valueHandle: c.valueHandle,
                                      endHandle: c.endHandle, uuid: c.uuid, properties: c.properties,
                                      extendedProperties: c.extendedProperties, permissions: c.permissions,
                                      value: .fixed(value), descriptors: c.descriptors)
        }
        services[s] = GATTService(handle: service.handle, endGroupHandle: service.endGroupHandle, uuid: service.uuid,
                                  isPrimary: service.isPrimary, id: service.id, includes: service.includes,
                                  characteristics: characteristics)
    }
}
