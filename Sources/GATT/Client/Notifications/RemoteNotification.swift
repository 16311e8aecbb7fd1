import BLECore

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
        "\(isIndication ? "indication" : "notification") \(Hex.hex16(handle)): \(Hex.encode(value))"
    }
}
