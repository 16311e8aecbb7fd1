import BLECore

extension HCIEvent {
    /// HCI_Command_Complete, event 0x0E (Core v5.4, Vol 4, Part E, 7.7.14): a command finished,
    /// with its return parameters.
    ///
    /// Parameters: Num_HCI_Command_Packets (1), Command_Opcode (2), Return_Parameters (the rest,
    /// whose layout depends on the command; see ``result(as:)``).
    public struct CommandComplete: HCIEventParameters {
        /// The event code this type decodes.
        public static var eventCode: HCIEventCode { .commandComplete }

        /// Num_HCI_Command_Packets: how many commands the host may send now.
        public var numHCICommandPackets: UInt8
        /// Command_Opcode: the command that completed; ``HCIOpcode/noOperation`` when the event
        /// only updates Num_HCI_Command_Packets.
        public var commandOpcode: HCIOpcode
        /// Return_Parameters, undecoded (empty for ``HCIOpcode/noOperation``).
        public var returnParameters: [UInt8]

        /// A value from its fields.
        public init(numHCICommandPackets: UInt8, commandOpcode: HCIOpcode, returnParameters: [UInt8]) {
            self.numHCICommandPackets = numHCICommandPackets
            self.commandOpcode = commandOpcode
            self.returnParameters = returnParameters
        }

        /// The Command Complete that answers a `C` command with `returnParameters`.
        public init<C: HCICommand>(numHCICommandPackets: UInt8 = 1, command: C.Type, returnParameters: C.ReturnParameters) {
            self.init(numHCICommandPackets: numHCICommandPackets, commandOpcode: C.opcode,
                      returnParameters: returnParameters.encoded)
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(numHCICommandPackets: 0, commandOpcode: .noOperation, returnParameters: []) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&numHCICommandPackets, "Num_HCI_Command_Packets")
            try coder.code(&commandOpcode, "Command_Opcode")
            try coder.codeRemaining(&returnParameters, "Return_Parameters")
        }

        /// Decodes the Return_Parameters as those of command `C`.
        ///
        /// - Throws: ``BLEDecodingError/invalidValue(field:offset:reason:)`` for "Command_Opcode"
        ///   at offset 1 when the event answers another command; otherwise the errors of
        ///   ``HCICommand/result(fromReturnParameters:)``, with offsets counted
        ///   from the first octet of this event's parameters (Return_Parameters start at 3).
        public func result<C: HCICommand>(as command: C.Type) throws(BLEDecodingError) -> HCICommandResult<C.ReturnParameters> {
            guard commandOpcode == C.opcode else {
                throw .invalidValue(field: "Command_Opcode", offset: 1, reason: "\(commandOpcode) is not \(C.opcode)")
            }
            do {
                return try C.result(fromReturnParameters: returnParameters[...])
            } catch {
                throw error.shifted(by: 3)
            }
        }

        /// "Command Complete", the command's name, Num_HCI_Command_Packets, then the return
        /// parameters decoded when the command is one this package implements (in hexadecimal
        /// otherwise, and marked when they are malformed).
        public var description: String {
            var text = "Command Complete \(commandOpcode) num_hci_command_packets=\(numHCICommandPackets)"
            if let type = HCICommandValue.commandType(for: commandOpcode) {
                text += " " + type.describeReturnParameters(returnParameters[...])
            } else if !returnParameters.isEmpty {
                text += " return_parameters=\(Hex.encode(returnParameters))"
            }
            return text
        }
    }
}
