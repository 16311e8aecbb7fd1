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
    public var description: String { "\(RemoteText.hex16(handle)): \(value.isEmpty ? "(empty)" : Hex.encode(value))" }
}

/// A notification or indication of a characteristic value (Core v5.4, Vol 3, Part G, 4.10,
/// 4.11), as a ``GATTClientSubscription`` delivers it.
public struct RemoteNotification: Sendable, Hashable, CustomStringConvertible {
    /// The Characteristic Value Handle the server named.
    public var handle: UInt16
    /// The value, as sent: at most ATT_MTU - 3 octets for a single notification or indication.
    public var value: [UInt8]
    /// Whether it came as ATT_HANDLE_VALUE_IND (confirmed by the ATT engine once delivered);
    /// false for ATT_HANDLE_VALUE_NTF and each value of ATT_MULTIPLE_HANDLE_VALUE_NTF.
    public var isIndication: Bool

    /// A value `value` of the characteristic at `handle`.
    public init(handle: UInt16, value: [UInt8], isIndication: Bool) {
        self.handle = handle
        self.value = value
        self.isIndication = isIndication
    }

    /// "notification 0x000c: 0648" or "indication 0x0003: 0100ffff".
    public var description: String {
        "\(isIndication ? "indication" : "notification") \(RemoteText.hex16(handle)): \(Hex.encode(value))"
    }
}

/// One write of a reliable write (Core v5.4, Vol 3, Part G, 4.9.5): a value for one
/// characteristic value (or descriptor), written from `offset`.
public struct GATTReliableWrite: Sendable, Hashable {
    /// The handle to write.
    public var handle: UInt16
    /// The octets to write; split into Prepare Write Requests of at most ATT_MTU - 5 octets.
    public var value: [UInt8]
    /// The offset of the first octet within the attribute value, in octets.
    public var offset: UInt16

    /// A write of `value` to `handle` from `offset`.
    public init(handle: UInt16, value: [UInt8], offset: UInt16 = 0) {
        self.handle = handle
        self.value = value
        self.offset = offset
    }
}
