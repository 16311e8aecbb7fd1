/// HCI_Host_Number_Of_Completed_Packets, opcode 0x0C35 (Core v5.4, Vol 4, Part E, 7.3.40): the
/// host returns ACL data buffers to the controller, per connection handle, under flow control
/// from the controller to the host (4.2, ``HCISetControllerToHostFlowControl``).
///
/// It is outside command flow control: the host may send it whatever Num_HCI_Command_Packets
/// allows, and normally no event answers it (a Command Complete comes only with an error, such
/// as Invalid HCI Command Parameters). Send it with ``HCIPacket/command(_:)`` directly, not
/// through a command flow that waits for an answer.
///
/// Parameters: Num_Handles (1), then Connection_Handle[i] (2) and
/// Host_Num_Completed_Packets[i] (2) for each.
public struct HCIHostNumberOfCompletedPackets: HCICommand {
    /// The Command Complete of an error returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x0C35.
    public static var opcode: HCIOpcode { .hostNumberOfCompletedPackets }

    /// One connection's returned buffers.
    public struct Entry: HCIParameterLayout {
        /// Connection_Handle[i].
        public var connectionHandle: UInt16
        /// Host_Num_Completed_Packets[i]: ACL data packets the host has taken since it last
        /// returned buffers for this handle.
        public var hostNumCompletedPackets: UInt16

        /// A value from its fields.
        public init(connectionHandle: UInt16, hostNumCompletedPackets: UInt16) {
            self.connectionHandle = connectionHandle
            self.hostNumCompletedPackets = hostNumCompletedPackets
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(connectionHandle: 0, hostNumCompletedPackets: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
            try coder.code(&hostNumCompletedPackets, "Host_Num_Completed_Packets")
        }
    }

    /// The returned buffers, Num_Handles of them.
    public var entries: [Entry]

    /// The command with these entries.
    public init(entries: [Entry]) { self.entries = entries }
    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(entries: []) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(counted: &entries, countField: "Num_Handles", "Handles")
    }
}
