import BLECore

/// A characteristic descriptor found with Discover All Characteristic Descriptors (Core v5.4,
/// Vol 3, Part G, 3.3.3 and 4.7.1): a handle and its attribute type.
public struct RemoteDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The descriptor's handle.
    public var handle: UInt16
    /// The descriptor's type, such as 0x2902 (Client Characteristic Configuration).
    public var uuid: BluetoothUUID

    /// The descriptor at `handle` of type `uuid`.
    public init(handle: UInt16, uuid: BluetoothUUID) {
        self.handle = handle
        self.uuid = uuid
    }

    /// "Descriptor 0x000d 2902 (Client Characteristic Configuration)".
    public var description: String { "Descriptor \(Hex.hex16(handle)) \(uuid.descriptionWithName)" }
}
