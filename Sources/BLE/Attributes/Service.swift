import BLECore
import GATT
import Synchronization

/// A service on a connected peripheral's GATT server (Core v5.4, Vol 3, Part G, 3.1), found by
/// ``Peripheral/discoverServices(_:)`` or ``Peripheral/discoverIncludedServices(_:for:)``.
///
/// ```swift
/// let services = try await peripheral.discoverServices([BluetoothUUID("180D")!])
/// let characteristics = try await peripheral.discoverCharacteristics(nil, for: services[0])
/// services[0].characteristics == characteristics      // the tree is filled as it is discovered
/// ```
///
/// A reference: the same object stands for the same service for as long as the connection lasts,
/// and its ``includedServices`` and ``characteristics`` fill in as they are discovered (nil until
/// then). It belongs to one connection: after a disconnection, discover again; an old one is
/// refused with ``BLEError/serviceNotFound(_:)``. A discovery inside a service a Service Changed
/// took out of the tree (``Peripheral/servicesModified``) is refused the same way, and reads,
/// writes and subscriptions of its characteristics and descriptors throw
/// ``BLEError/characteristicNotFound(_:)``: their handles may name other attributes now.
public final class Service: Sendable, Hashable, CustomStringConvertible {
    /// The service UUID (16 or 128 bits).
    public let uuid: BluetoothUUID
    /// Whether the service is primary; false for a secondary service, found only through an
    /// include (Part G, 2.6.2; an include does not say which, so an included service is marked
    /// secondary until a primary service discovery finds it too).
    public var isPrimary: Bool { primary.load(ordering: .relaxed) }
    private let primary: Atomic<Bool>

    /// The service's handles on the server.
    let remote: RemoteService
    /// The connection it was discovered on.
    let generation: UInt64
    private let tree = Mutex<(included: [Service]?, characteristics: [Characteristic]?)>((nil, nil))

    init(remote: RemoteService, isPrimary: Bool, generation: UInt64) {
        uuid = remote.uuid
        primary = Atomic(isPrimary)
        self.remote = remote
        self.generation = generation
    }

    /// A primary service discovery found it (it was known through an include only).
    func markPrimary() { primary.store(true, ordering: .relaxed) }

    /// The handles the service's declaration groups on the server: its Attribute Handle to its
    /// End Group Handle (Core v5.4, Vol 3, Part G, 3.1 and 4.4.1; Part F, 3.4.4.10). Core
    /// Bluetooth hides handles; they are here for tools that print a database or address a
    /// peer's attributes the way its documentation does. Valid for this connection only.
    public var handleRange: ClosedRange<UInt16> { remote.handleRange }

    /// The included services found by ``Peripheral/discoverIncludedServices(_:for:)``; nil until then.
    public var includedServices: [Service]? { tree.withLock { $0.included } }
    /// The characteristics found by ``Peripheral/discoverCharacteristics(_:for:)``; nil until then.
    public var characteristics: [Characteristic]? { tree.withLock { $0.characteristics } }

    /// Merges `found` into the included services, keeping the objects already there.
    func merge(included found: [Service]) -> [Service] {
        tree.withLock { tree in
            var current = tree.included ?? []
            let merged = found.map { new in current.first { $0.remote.handle == new.remote.handle } ?? new }
            for service in merged where !current.contains(where: { $0 === service }) { current.append(service) }
            tree.included = current.sorted { $0.remote.handle < $1.remote.handle }
            return merged
        }
    }

    /// Takes `gone` (services the server's database lost) out of the included services.
    func remove(included gone: [Service]) {
        tree.withLock { tree in
            tree.included = tree.included.map { included in included.filter { service in !gone.contains { $0 === service } } }
        }
    }

    /// Merges `found` into the characteristics, keeping the objects already there.
    func merge(characteristics found: [Characteristic]) -> [Characteristic] {
        tree.withLock { tree in
            var current = tree.characteristics ?? []
            let merged = found.map { new in current.first { $0.remote.valueHandle == new.remote.valueHandle } ?? new }
            for characteristic in merged where !current.contains(where: { $0 === characteristic }) { current.append(characteristic) }
            tree.characteristics = current.sorted { $0.remote.valueHandle < $1.remote.valueHandle }
            return merged
        }
    }

    /// Identity: the same object.
    public static func == (lhs: Service, rhs: Service) -> Bool { lhs === rhs }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// "Service 180D (Heart Rate), primary".
    public var description: String { "Service \(uuid.descriptionWithName), \(isPrimary ? "primary" : "secondary")" }
}
