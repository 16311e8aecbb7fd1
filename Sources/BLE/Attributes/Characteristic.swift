import BLECore
import Foundation
import GATT
import Synchronization

/// A characteristic of a connected peripheral's service (Core v5.4, Vol 3, Part G, 3.3), found
/// by ``Peripheral/discoverCharacteristics(_:for:)``.
///
/// ```swift
/// let rate = service.characteristics!.first { $0.uuid == BluetoothUUID("2A37")! }!
/// if rate.properties.contains(.notify) { try await peripheral.setNotifyValue(true, for: rate) }
/// rate.isNotifying                          // true
/// ```
///
/// A reference, for the connection's life (see ``Service``): its ``value`` is the last value
/// read or notified, its ``descriptors`` fill in when discovered, and ``isNotifying`` follows
/// ``Peripheral/setNotifyValue(_:for:)`` and the link.
public final class Characteristic: Sendable, Hashable, CustomStringConvertible {
    /// The characteristic UUID: the type of its value attribute.
    public let uuid: BluetoothUUID
    /// How the value may be used (Part G, 3.3.1.1).
    public let properties: CharacteristicProperties

    private struct State {
        var remote: RemoteCharacteristic
        var value: Data?
        var descriptors: [Descriptor]?
        var isNotifying = false
        var isInvalidated = false
    }

    /// The connection it was discovered on.
    let generation: UInt64
    private let state: Mutex<State>

    init(remote: RemoteCharacteristic, generation: UInt64) {
        uuid = remote.uuid
        properties = CharacteristicProperties(rawValue: remote.properties.rawValue)
        self.generation = generation
        state = Mutex(State(remote: remote))
    }

    /// The handle of its characteristic declaration (Core v5.4, Vol 3, Part G, 3.3.1). Core
    /// Bluetooth hides handles; see ``Service/handleRange``. Valid for this connection only.
    public var declarationHandle: UInt16 { remote.declarationHandle }
    /// The Characteristic Value Handle: the attribute its reads, writes, notifications and
    /// indications carry (Part G, 3.3.1.2; Part F, 3.4.7). Valid for this connection only.
    public var valueHandle: UInt16 { remote.valueHandle }

    /// The last value read (``Peripheral/readValue(for:)-characteristic``) or notified; nil
    /// before either.
    public var value: Data? { state.withLock { $0.value } }
    /// The descriptors found by ``Peripheral/discoverDescriptors(for:)``; nil until then.
    public var descriptors: [Descriptor]? { state.withLock { $0.descriptors } }
    /// Whether notifications or indications are enabled by ``Peripheral/setNotifyValue(_:for:)``
    /// on the current link (false again once the link drops).
    public var isNotifying: Bool { state.withLock { $0.isNotifying } }

    /// The declaration's handles, with the descriptors discovered so far.
    var remote: RemoteCharacteristic { state.withLock { $0.remote } }

    /// Whether a Service Changed took its service out of the tree (Core v5.4, Vol 3, Part G,
    /// 7.1): its handles may name other attributes now, so nothing is sent to them.
    var isInvalidated: Bool { state.withLock { $0.isInvalidated } }

    /// Marks it, and its descriptors, invalidated (``isInvalidated``). Called under the
    /// peripheral's record lock, as descriptor discovery merges under it: a descriptor merged
    /// later is refused there.
    func invalidate() {
        let descriptors = state.withLock { state -> [Descriptor] in
            state.isInvalidated = true
            return state.descriptors ?? []
        }
        for descriptor in descriptors { descriptor.invalidate() }
    }

    func setValue(_ value: Data) { state.withLock { $0.value = value } }
    func setNotifying(_ notifying: Bool) { state.withLock { $0.isNotifying = notifying } }

    /// Merges `found` into the descriptors, keeping the objects already there; the declaration
    /// learns them too (the Client Characteristic Configuration descriptor's handle).
    func merge(descriptors found: [Descriptor]) -> [Descriptor] {
        state.withLock { state in
            let current = state.descriptors ?? []
            let merged = found.map { new in current.first { $0.handle == new.handle } ?? new }
            state.descriptors = merged
            state.remote.descriptors = merged.map { RemoteDescriptor(handle: $0.handle, uuid: $0.uuid) }
            return merged
        }
    }

    /// Identity: the same object.
    public static func == (lhs: Characteristic, rhs: Characteristic) -> Bool { lhs === rhs }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// "Characteristic 2A37 (Heart Rate Measurement) [notify]".
    public var description: String { "Characteristic \(uuid.descriptionWithName) \(properties)" }
}
