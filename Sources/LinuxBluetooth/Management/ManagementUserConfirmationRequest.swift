import BLECore

/// User Confirmation Request (event 0x000F; Linux, BlueZ doc/mgmt-api.txt): the kernel's SMP
/// (or BR/EDR Secure Simple Pairing) asks whether to go on pairing with ``peer``. With
/// ``confirmHint`` set the pairing method is Just Works (Core v5.4, Vol 3, Part H, 2.3.5.1):
/// there is no value to compare, only a yes or no; otherwise ``value`` is the six-digit numeric
/// comparison value both sides show (Part H, 2.3.5.6.2), for a user to check.
public struct ManagementUserConfirmationRequest: Hashable, Sendable {
    /// The peer being paired.
    public var peer: ManagementAddress
    /// Confirm_Hint: true when only a yes or no is asked (Just Works).
    public var confirmHint: Bool
    /// Value: the numeric comparison value, 0...999999 (meaningless with ``confirmHint``).
    public var value: UInt32

    /// The request from its fields.
    public init(peer: ManagementAddress, confirmHint: Bool, value: UInt32) {
        self.peer = peer
        self.confirmHint = confirmHint
        self.value = value
    }

    /// Reads Address (6), Address_Type (1), Confirm_Hint (1), Value (4).
    ///
    /// - Throws: ``BLEDecodingError`` when the parameters are short.
    public init(decoding reader: inout ByteReader) throws(BLEDecodingError) {
        peer = try ManagementAddress(decoding: &reader)
        confirmHint = try reader.readUInt8("Confirm_Hint") != 0
        value = try reader.readUInt32("Value")
    }

    /// The event's parameters, as the kernel sends them.
    public var encoded: [UInt8] {
        peer.encoded + [confirmHint ? 0x01 : 0x00] + withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
