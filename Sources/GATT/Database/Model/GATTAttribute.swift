import BLECore

/// One attribute of the database (Core v5.4, Vol 3, Part F, 3.2): a handle, a type, permissions
/// and a value.
///
/// The builder makes every attribute, including the declarations (service, include,
/// characteristic) whose values it computes; ``GATTDatabase/attributes`` lists them in
/// ascending handle order.
public struct GATTAttribute: Sendable {
    /// The Attribute Handle, 0x0001...0xFFFF (0x0000 is reserved, 3.2.2).
    public var handle: UInt16
    /// The Attribute Type: a 16-bit or 128-bit UUID (a 32-bit UUID is stored in 128 bits, as ATT
    /// carries it, 3.2.1).
    public var type: BluetoothUUID
    /// Whether the attribute may be read and written, and what each requires.
    public var permissions: GATTPermissions
    /// The Attribute Value.
    public var value: GATTAttributeValue

    /// An attribute from its four parts.
    public init(handle: UInt16, type: BluetoothUUID, permissions: GATTPermissions, value: GATTAttributeValue) {
        self.handle = handle
        self.type = type
        self.permissions = permissions
        self.value = value
    }
}
