import BLECore

/// A service found on a peer's GATT server by a ``GATTClient`` (Core v5.4, Vol 3, Part G, 4.4):
/// its UUID and the handle range its declaration groups, and, once discovered, its included
/// services and characteristics.
///
/// ```swift
/// let services = try await client.discoverPrimaryServices()
/// services[0].uuid          // 1800 (Generic Access)
/// services[0].handleRange   // 0x0001...0x0007
/// ```
///
/// A plain value: it is a snapshot of what discovery returned, never updated behind the
/// caller's back. ``GATTClient/services`` holds the client's current tree, which Service
/// Changed indications and robust caching keep up to date.
public struct RemoteService: Sendable, Hashable, CustomStringConvertible {
    /// The service UUID: the value of its service declaration (Part G, 3.1), 16 or 128 bits.
    public var uuid: BluetoothUUID
    /// Whether the declaration is «Primary Service» (0x2800); false for «Secondary Service»
    /// (0x2801), which is found only through an include (Part G, 4.5.1).
    public var isPrimary: Bool
    /// The handle of the service declaration: the first handle of the service.
    public var handle: UInt16
    /// The End Group Handle: the last handle of the service (Part F, 3.4.4.10).
    public var endHandle: UInt16
    /// The included services, in handle order; empty until discovered (Part G, 4.5.1).
    public var includedServices: [RemoteIncludedService]
    /// The characteristics, in handle order; empty until discovered (Part G, 4.6.1).
    public var characteristics: [RemoteCharacteristic]

    /// A service declared at `handle`, grouping `handle...endHandle`.
    public init(uuid: BluetoothUUID, isPrimary: Bool = true, handle: UInt16, endHandle: UInt16,
                includedServices: [RemoteIncludedService] = [], characteristics: [RemoteCharacteristic] = []) {
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.handle = handle
        self.endHandle = endHandle
        self.includedServices = includedServices
        self.characteristics = characteristics
    }

    /// The handles the service groups, `handle...endHandle` (an empty-looking range when a
    /// peer reports an end below the start is clamped to the declaration alone).
    public var handleRange: ClosedRange<UInt16> { handle...max(handle, endHandle) }

    /// The first characteristic with `uuid`, if discovered.
    public func characteristic(_ uuid: BluetoothUUID) -> RemoteCharacteristic? {
        characteristics.first { $0.uuid == uuid }
    }

    /// "Primary Service 180D (Heart Rate) 0x000a...0x0010".
    public var description: String {
        "\(isPrimary ? "Primary" : "Secondary") Service \(uuid.descriptionWithName) "
            + "\(Hex.hex16(handle))...\(Hex.hex16(endHandle))"
    }
}
