import BLECore
import Synchronization

/// A service a ``PeripheralManager`` serves, as Core Bluetooth's `CBMutableService` (Core v5.4,
/// Vol 3, Part G, 3.1): set its ``characteristics`` and ``includedServices``, then
/// ``PeripheralManager/add(_:)`` it.
///
/// ```swift
/// let service = MutableService(type: BluetoothUUID("180D")!, primary: true)
/// service.characteristics = [measurement, location]
/// try await manager.add(service)
/// ```
///
/// Changes after ``PeripheralManager/add(_:)`` take effect when the service is added again.
public final class MutableService: Sendable, Hashable, CustomStringConvertible {
    /// The service UUID.
    public let uuid: BluetoothUUID
    /// Whether it is a primary service (0x2800) or a secondary one (0x2801), meant to be included.
    public let isPrimary: Bool
    private let contents = Mutex<(characteristics: [MutableCharacteristic], included: [MutableService])>(([], []))

    /// A service of type `type`, without characteristics.
    public init(type: BluetoothUUID, primary: Bool) {
        uuid = type
        isPrimary = primary
    }

    /// Its characteristics, in the order they are served.
    public var characteristics: [MutableCharacteristic] {
        get { contents.withLock { $0.characteristics } }
        set { contents.withLock { $0.characteristics = newValue } }
    }

    /// The services it includes (Part G, 3.2); each must be added to the same manager.
    public var includedServices: [MutableService] {
        get { contents.withLock { $0.included } }
        set { contents.withLock { $0.included = newValue } }
    }

    /// Identity: the same object.
    public static func == (lhs: MutableService, rhs: MutableService) -> Bool { lhs === rhs }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// "Service 180D (Heart Rate), primary".
    public var description: String { "Service \(uuid.descriptionWithName), \(isPrimary ? "primary" : "secondary")" }
}
