/// HCI_Read_Local_Supported_Features, opcode 0x1003 (Core v5.4, Vol 4, Part E, 7.4.3): the
/// controller's LMP features, page 0 (whether it supports LE, and BR/EDR). No parameters.
public struct HCIReadLocalSupportedFeatures: HCICommand {
    /// Opcode 0x1003.
    public static var opcode: HCIOpcode { .readLocalSupportedFeatures }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), LMP_Features (8).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// LMP_Features: page 0 of the feature mask.
        public var lmpFeatures: LMPFeatures

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, lmpFeatures: LMPFeatures) {
            self.status = status
            self.lmpFeatures = lmpFeatures
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(lmpFeatures: []) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&lmpFeatures, "LMP_Features")
        }
    }
}
