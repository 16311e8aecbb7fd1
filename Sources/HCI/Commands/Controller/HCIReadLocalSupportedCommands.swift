/// HCI_Read_Local_Supported_Commands, opcode 0x1002 (Core v5.4, Vol 4, Part E, 7.4.2): which
/// HCI commands the controller supports. No parameters.
public struct HCIReadLocalSupportedCommands: HCICommand {
    public static var opcode: HCIOpcode { .readLocalSupportedCommands }

    public init() {}

    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), Supported_Commands (64).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// Supported_Commands: one bit per command (Vol 4, Part E, 6.27).
        public var supportedCommands: HCISupportedCommands

        public init(status: HCIStatus = .success, supportedCommands: HCISupportedCommands) {
            self.status = status
            self.supportedCommands = supportedCommands
        }

        public init() { self.init(supportedCommands: HCISupportedCommands()) }

        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try supportedCommands.layout(&coder)
        }

        /// Status, then the number of supported commands and the mask.
        public var fieldsDescription: String { "status=\(status) \(supportedCommands.fieldsDescription)" }
    }
}
