import BLECore
import Foundation
import Synchronization

/// A descriptor of a connected peripheral's characteristic (Core v5.4, Vol 3, Part G, 3.3.3),
/// found by ``Peripheral/discoverDescriptors(for:)``: 0x2902 Client Characteristic
/// Configuration, 0x2901 Characteristic User Description, 0x2904 Presentation Format, ...
///
/// A reference, for the connection's life (see ``Service``); ``value`` is the last value read
/// with ``Peripheral/readValue(for:)-descriptor``.
public final class Descriptor: Sendable, Hashable, CustomStringConvertible {
    /// The descriptor's type.
    public let uuid: BluetoothUUID
    /// The descriptor's Attribute Handle (Core v5.4, Vol 3, Part G, 3.3.3; Part F, 3.2.2). Core
    /// Bluetooth hides handles; see ``Service/handleRange``. Valid for this connection only.
    public let handle: UInt16
    /// The connection it was discovered on.
    let generation: UInt64
    private let state = Mutex<(value: Data?, isInvalidated: Bool)>((nil, false))

    init(handle: UInt16, uuid: BluetoothUUID, generation: UInt64) {
        self.handle = handle
        self.uuid = uuid
        self.generation = generation
    }

    /// The last value read or written; nil before either.
    public var value: Data? { state.withLock { $0.value } }

    func setValue(_ value: Data) { state.withLock { $0.value = value } }

    /// Whether a Service Changed took its characteristic's service out of the tree (Core v5.4,
    /// Vol 3, Part G, 7.1; ``Characteristic/invalidate()``): nothing is sent to its handle.
    var isInvalidated: Bool { state.withLock { $0.isInvalidated } }

    func invalidate() { state.withLock { $0.isInvalidated = true } }

    /// Identity: the same object.
    public static func == (lhs: Descriptor, rhs: Descriptor) -> Bool { lhs === rhs }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// "Descriptor 2902 (Client Characteristic Configuration)".
    public var description: String { "Descriptor \(uuid.descriptionWithName)" }
}
