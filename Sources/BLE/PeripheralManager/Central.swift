import BLECore
import Foundation
import Synchronization

/// A central connected to a ``PeripheralManager``, as Core Bluetooth's `CBCentral`: one per link.
public final class Central: Sendable, Hashable, CustomStringConvertible {
    /// Derived from the central's address and its type as ``Peripheral/identifier(for:type:)``
    /// derives a peripheral's.
    public let identifier: UUID
    /// The central's address on this link.
    public let address: BluetoothAddress
    /// Whether ``address`` is a public or a random device address (Core v5.4, Vol 6, Part B, 1.3).
    public let addressType: Peripheral.AddressType
    private let mtu = Mutex(23)

    init(address: BluetoothAddress, type: Peripheral.AddressType) {
        self.address = address
        addressType = type
        identifier = Peripheral.identifier(for: address, type: type)
    }

    /// The longest value one notification or indication carries to it, in octets: its ATT_MTU
    /// - 3 (Core v5.4, Vol 3, Part F, 3.4.7.1); 20 until the central exchanges the MTU.
    public var maximumUpdateValueLength: Int { mtu.withLock { $0 - 3 } }

    func setMTU(_ value: Int) { mtu.withLock { $0 = value } }

    /// Identity: the same object.
    public static func == (lhs: Central, rhs: Central) -> Bool { lhs === rhs }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// "Central C0:00:00:00:00:01".
    public var description: String { "Central \(address)" }
}
