import HCI

/// Why host mode could not bring its controller up (``ControllerBringUp``).
public enum ControllerBringUpError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A bring-up command failed: the controller answered it with an error Status, did not
    /// answer within the command timeout, or the transport closed. The ``HCICommandError``
    /// names the command.
    case command(HCICommandError)
    /// LMP_Features bit 38, LE Supported (Controller), is clear (Core v5.4, Vol 2, Part C,
    /// 3.3): a BR/EDR-only controller.
    case leNotSupported
    /// Neither HCI_LE_Read_Buffer_Size nor HCI_Read_Buffer_Size gave a usable ACL buffer (a
    /// length under 27 octets, the LE minimum, or no buffers), so no ACL data could be sent.
    case noACLBuffers(length: Int, count: Int)

    /// What failed, naming the command and the status or the timeout, as in
    /// "controller bring-up: LE Read Buffer Size failed: Unknown HCI Command (0x01)".
    public var description: String {
        switch self {
        case .command(let error): return "controller bring-up: \(error)"
        case .leNotSupported: return "controller bring-up: the controller does not support LE (LMP feature bit 38 is clear)"
        case let .noACLBuffers(length, count):
            return "controller bring-up: the controller gives no usable ACL buffers (\(count) × \(length) octets; LE needs at least 1 × 27)"
        }
    }
}
