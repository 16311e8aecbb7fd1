extension HCIEvent {
    /// HCI_Command_Status, event 0x0F (Core v5.4, Vol 4, Part E, 7.7.15): a command was
    /// accepted (Status 0x00, its outcome follows in another event) or refused.
    ///
    /// Parameters: Status (1), Num_HCI_Command_Packets (1), Command_Opcode (2).
    public struct CommandStatus: HCIEventParameters {
        /// The event code this type decodes.
        public static var eventCode: HCIEventCode { .commandStatus }

        /// Status: 0x00 when the command is pending, an error code when it was refused.
        public var status: HCIStatus
        /// Num_HCI_Command_Packets: how many commands the host may send now.
        public var numHCICommandPackets: UInt8
        /// Command_Opcode: the command this status is for.
        public var commandOpcode: HCIOpcode

        /// A value from its fields.
        public init(status: HCIStatus, numHCICommandPackets: UInt8, commandOpcode: HCIOpcode) {
            self.status = status
            self.numHCICommandPackets = numHCICommandPackets
            self.commandOpcode = commandOpcode
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(status: .success, numHCICommandPackets: 0, commandOpcode: .noOperation) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&numHCICommandPackets, "Num_HCI_Command_Packets")
            try coder.code(&commandOpcode, "Command_Opcode")
        }
    }
}
