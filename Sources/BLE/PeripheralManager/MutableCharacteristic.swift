import BLECore
import Foundation
import Synchronization

/// A characteristic a ``PeripheralManager`` serves, as Core Bluetooth's
/// `CBMutableCharacteristic` (Core v5.4, Vol 3, Part G, 3.3).
///
/// ```swift
/// let name = MutableCharacteristic(type: BluetoothUUID("2A00")!, properties: [.read],
///                                  value: Data("Sensor".utf8), permissions: [.readable])   // answered by the stack
/// let control = MutableCharacteristic(type: BluetoothUUID("2A39")!, properties: [.write],
///                                     value: nil, permissions: [.writeable])               // asked through requests
/// ```
///
/// With a `value`, the stack answers reads itself (and keeps what centrals write). With a nil
/// `value`, every read and write is asked through ``PeripheralManager/requests``. A Client
/// Characteristic Configuration descriptor is added for Notify and Indicate (3.3.3.3).
public final class MutableCharacteristic: Sendable, Hashable, CustomStringConvertible {
    /// The characteristic UUID.
    public let uuid: BluetoothUUID
    /// The properties its declaration announces (Part G, 3.3.1.1).
    public let properties: CharacteristicProperties
    /// The value the stack answers reads with (at most 512 octets): the one given, or what a
    /// central wrote since, which a database change (``PeripheralManager/add(_:)``,
    /// ``PeripheralManager/remove(_:)``) keeps; nil when the application answers each request.
    public var value: Data? { current.withLock { $0 } }
    /// Who may read and write it.
    public let permissions: AttributePermissions
    private let current: Mutex<Data?>
    private let subscribers = Mutex<[Central]>([])
    private let handle = Mutex<UInt16?>(nil)

    /// A characteristic of type `type`.
    public init(type: BluetoothUUID, properties: CharacteristicProperties, value: Data?, permissions: AttributePermissions) {
        uuid = type
        self.properties = properties
        current = Mutex(value)
        self.permissions = permissions
    }

    /// A central wrote `written` to the value the stack keeps (nothing for a characteristic
    /// whose requests the application answers).
    func keep(_ written: Data) {
        current.withLock { value in if value != nil { value = written } }
    }

    /// The centrals subscribed to its notifications or indications now.
    public var subscribedCentrals: [Central] { subscribers.withLock { $0 } }

    /// The handle of its value attribute in the database a ``PeripheralManager`` serves (Core
    /// v5.4, Vol 3, Part G, 3.3.2), as the manager's handle-carrying events name it; nil while it
    /// is not served. Core Bluetooth hides handles; tools that log what centrals do need them.
    public var valueHandle: UInt16? { handle.withLock { $0 } }

    func setValueHandle(_ value: UInt16?) { handle.withLock { $0 = value } }

    func subscribed(_ central: Central) {
        subscribers.withLock { list in if !list.contains(where: { $0 === central }) { list.append(central) } }
    }

    func unsubscribed(_ central: Central) {
        subscribers.withLock { $0.removeAll { $0 === central } }
    }

    /// Identity: the same object.
    public static func == (lhs: MutableCharacteristic, rhs: MutableCharacteristic) -> Bool { lhs === rhs }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// "Characteristic 2A39 (Heart Rate Control Point) [write]".
    public var description: String { "Characteristic \(uuid.descriptionWithName) \(properties)" }
}
