import HCI

/// Something a host did that a real controller would not accept, recorded by the
/// ``VirtualController`` instead of being obeyed; the offending packet is dropped (Core v5.4,
/// Vol 4, Part E, 4.1 and 5.4.2). Tests read them from ``VirtualController/violations``.
public struct VirtualControllerViolation: Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Kind: Hashable, Sendable {
        /// An ACL packet longer than LE_ACL_Data_Packet_Length: `length` octets of data, at most `maximum`.
        case aclPacketTooLong(handle: UInt16, length: Int, maximum: Int)
        /// An ACL packet sent while all `total` buffers were in use (no credit left; Vol 4, Part E, 4.1.1).
        case aclBufferOverflow(handle: UInt16, total: Int)
        /// An ACL packet for a handle with no connection on this controller.
        case aclUnknownHandle(UInt16)
        /// A Packet_Boundary_Flag a host may not send on LE (0b10 or 0b11; Vol 4, Part E, 5.4.2).
        case aclInvalidPacketBoundary(handle: UInt16, flag: UInt8)
        /// A Broadcast_Flag other than 0b00 (point-to-point), which LE does not have.
        case aclInvalidBroadcastFlag(handle: UInt16, flag: UInt8)
        /// A packet type a host does not send to an LE controller (SCO, ISO, or an event).
        case unsupportedPacketType(HCIPacketType)
        /// HCI_Host_Number_Of_Completed_Packets returned `returned` buffers of a handle that
        /// held only `held` (Vol 4, Part E, 7.3.40); the count is set to zero.
        case hostReturnedTooMany(handle: UInt16, returned: Int, held: Int)
    }

    /// What was wrong.
    public var kind: Kind
    /// When, in virtual time since the radio started.
    public var time: Duration

    /// A violation of `kind` at `time`.
    public init(kind: Kind, time: Duration) {
        self.kind = kind
        self.time = time
    }

    /// The violation on one line.
    public var description: String {
        let text: String
        switch kind {
        case .aclPacketTooLong(let handle, let length, let maximum):
            text = "ACL packet on handle \(hex(handle)) of \(length) octets exceeds LE_ACL_Data_Packet_Length \(maximum)"
        case .aclBufferOverflow(let handle, let total):
            text = "ACL packet on handle \(hex(handle)) sent with all \(total) controller buffers in use"
        case .aclUnknownHandle(let handle):
            text = "ACL packet for unknown connection handle \(hex(handle))"
        case .aclInvalidPacketBoundary(let handle, let flag):
            text = "ACL packet on handle \(hex(handle)) with Packet_Boundary_Flag 0b\(String(flag, radix: 2)) (host to controller on LE allows 0b00 and 0b01)"
        case .aclInvalidBroadcastFlag(let handle, let flag):
            text = "ACL packet on handle \(hex(handle)) with Broadcast_Flag 0b\(String(flag, radix: 2)) (LE is point-to-point)"
        case .unsupportedPacketType(let type):
            text = "packet of type \(type) sent to an LE controller"
        case .hostReturnedTooMany(let handle, let returned, let held):
            text = "Host Number Of Completed Packets returned \(returned) buffers of handle \(hex(handle)), which held \(held)"
        }
        return "\(time): \(text)"
    }

    private func hex(_ handle: UInt16) -> String { "0x" + String(handle, radix: 16, uppercase: false) }
}
