import BLECore

/// An attribute database as a GATT server exposes it (Core v5.4, Vol 3, Part G, 3; Part F, 3.2):
/// every attribute in handle order, the service tree built from them, and the Database Hash.
///
/// It is immutable once built (by ``GATTDatabaseBuilder`` or from JSON), so one database can be
/// shared by every connection of a server. Lookups by handle are binary searches.
public struct GATTDatabase: Sendable {
    /// Every attribute, handles strictly ascending (gaps allowed).
    public let attributes: [GATTAttribute]
    /// The services, in handle order.
    public let services: [GATTService]
    /// The value of the Database Hash characteristic (Part G, 7.3) for this database, as
    /// transmitted: the 128-bit AES-CMAC result as a uint128, least significant octet first,
    /// as multi-octet characteristic values are sent. This is the order the qualification test
    /// GATT/SR/GAS/BV-02-C expects, and Bumble 0.0.236 and Zephyr send.
    /// For the specification's example (Appendix B), whose hash it prints most significant
    /// octet first as F1CA2D48 ECF58BAC 8A8830BB B9FBA990, this is 90 A9 FB B9 ... CA F1.
    public let databaseHash: [UInt8]
    /// Whether a ``GATTServer`` serving this database adds the GAP service (0x1800, Vol 3,
    /// Part C, 12) and the GATT service (0x1801, Part G, 7) when the database declares no
    /// primary service of that UUID; true unless set false (JSON: `"addServerServices": false`).
    /// A database that declares either service itself never gets a second one.
    public var addsServerServices: Bool

    init(attributes: [GATTAttribute], services: [GATTService], databaseHash: [UInt8], addsServerServices: Bool = true) {
        self.attributes = attributes
        self.services = services
        self.databaseHash = databaseHash
        self.addsServerServices = addsServerServices
    }

    /// The database the definitions describe (the same as ``GATTDatabaseBuilder/build()``).
    ///
    /// - Throws: a ``GATTDatabaseError`` naming the first definition at fault.
    public init(services: [GATTServiceDefinition]) throws(GATTDatabaseError) {
        self = try GATTDatabaseLayout.build(services)
    }

    /// The message the Database Hash is computed over (Part G, 7.3.1), from ``attributes``.
    public var databaseHashMessage: [UInt8] { GATTDatabaseHash.message(attributes) }

    // MARK: Lookups

    /// The index in ``attributes`` of the first attribute whose handle is at least `handle`.
    func firstIndex(atOrAfter handle: UInt16) -> Int {
        var low = 0, high = attributes.count
        while low < high {
            let mid = (low + high) / 2
            if attributes[mid].handle < handle { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The attribute at `handle`; nil when no attribute has that handle.
    public func attribute(at handle: UInt16) -> GATTAttribute? {
        let i = firstIndex(atOrAfter: handle)
        return i < attributes.count && attributes[i].handle == handle ? attributes[i] : nil
    }

    /// The attributes whose handles lie in `range`, in handle order (empty when none do).
    public func attributes(in range: ClosedRange<UInt16>) -> ArraySlice<GATTAttribute> {
        let start = firstIndex(atOrAfter: range.lowerBound)
        let end = range.upperBound == .max ? attributes.count : firstIndex(atOrAfter: range.upperBound + 1)
        return attributes[start..<max(start, end)]
    }

    /// The service whose handle range contains `handle`; nil when the handle lies outside every
    /// service.
    public func service(containing handle: UInt16) -> GATTService? {
        var low = 0, high = services.count
        while low < high {
            let mid = (low + high) / 2
            if services[mid].endGroupHandle < handle { low = mid + 1 } else { high = mid }
        }
        return low < services.count && services[low].handleRange.contains(handle) ? services[low] : nil
    }

    /// The service declared at `handle`; nil when `handle` is not a service declaration.
    public func service(declaredAt handle: UInt16) -> GATTService? {
        guard let service = service(containing: handle), service.handle == handle else { return nil }
        return service
    }

    /// The characteristic whose definition (declaration through ``GATTCharacteristic/endHandle``)
    /// contains `handle`: the one a value or descriptor handle belongs to.
    public func characteristic(containing handle: UInt16) -> GATTCharacteristic? {
        guard let characteristics = service(containing: handle)?.characteristics else { return nil }
        var low = 0, high = characteristics.count
        while low < high {
            let mid = (low + high) / 2
            if characteristics[mid].endHandle < handle { low = mid + 1 } else { high = mid }
        }
        return low < characteristics.count && characteristics[low].handleRange.contains(handle) ? characteristics[low] : nil
    }

    /// The characteristic whose value attribute is at `handle`.
    public func characteristic(valueHandle handle: UInt16) -> GATTCharacteristic? {
        guard let characteristic = characteristic(containing: handle), characteristic.valueHandle == handle else { return nil }
        return characteristic
    }

    /// Every characteristic in handle order, with `uuid` when given.
    public func characteristics(_ uuid: BluetoothUUID? = nil) -> [GATTCharacteristic] {
        services.flatMap { service in service.characteristics.filter { uuid == nil || $0.uuid == uuid } }
    }

    /// The services whose UUID is `uuid`, in handle order.
    public func services(_ uuid: BluetoothUUID) -> [GATTService] { services.filter { $0.uuid == uuid } }
}
