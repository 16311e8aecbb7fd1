/// HCI_Read_Local_Supported_Commands, opcode 0x1002 (Core v5.4, Vol 4, Part E, 7.4.2): which
/// HCI commands the controller supports. No parameters.
public struct HCIReadLocalSupportedCommands: HCICommand {
    /// Opcode 0x1002.
    public static var opcode: HCIOpcode { .readLocalSupportedCommands }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), Supported_Commands (64).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// Supported_Commands: one bit per command (Vol 4, Part E, 6.27).
        public var supportedCommands: HCISupportedCommands

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, supportedCommands: HCISupportedCommands) {
            self.status = status
            self.supportedCommands = supportedCommands
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(supportedCommands: HCISupportedCommands()) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try supportedCommands.layout(&coder)
        }

        /// Status, then the number of supported commands and the mask.
        public var fieldsDescription: String { "status=\(status) \(supportedCommands.fieldsDescription)" }
    }
}
