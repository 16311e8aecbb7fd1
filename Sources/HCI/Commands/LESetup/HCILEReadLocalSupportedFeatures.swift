/// HCI_LE_Read_Local_Supported_Features, opcode 0x2003 (Core v5.4, Vol 4, Part E, 7.8.3): the
/// controller's LE features, page 0. No parameters.
///
/// A host picks the legacy or the extended advertising and scanning commands from
/// ``LEFeatures/leExtendedAdvertising``.
public struct HCILEReadLocalSupportedFeatures: HCICommand {
    /// Opcode 0x2003.
    public static var opcode: HCIOpcode { .leReadLocalSupportedFeatures }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), LE_Features (8).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// LE_Features: the supported features.
        public var leFeatures: LEFeatures

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, leFeatures: LEFeatures) {
            self.status = status
            self.leFeatures = leFeatures
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(leFeatures: []) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&leFeatures, "LE_Features")
        }
    }
}
