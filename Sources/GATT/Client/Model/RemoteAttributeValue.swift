import BLECore

/// One value read with Read Using Characteristic UUID (Core v5.4, Vol 3, Part G, 4.8.2): the
/// handle of a characteristic value of the requested type, and its value.
public struct RemoteAttributeValue: Sendable, Hashable, CustomStringConvertible {
    /// The Attribute Handle the value was read from.
    public var handle: UInt16
    /// The value as the server sent it. In an ATT_READ_BY_TYPE_RSP a value is cut to
    /// min(ATT_MTU - 4, 253) octets (Part F, 3.4.4.2): a value of exactly that length may be
    /// longer; ``GATTClient/readLong(_:)`` reads it whole.
    public var value: [UInt8]

    /// The value `value` of the attribute at `handle`.
    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }

    /// "0x0003: 4c696e7578".
    public var description: String { "\(Hex.hex16(handle)): \(value.isEmpty ? "(empty)" : Hex.encode(value))" }
}
