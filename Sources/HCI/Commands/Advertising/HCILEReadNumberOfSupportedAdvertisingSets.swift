/// HCI_LE_Read_Number_of_Supported_Advertising_Sets, opcode 0x203B (Core v5.4, Vol 4, Part E,
/// 7.8.58): how many advertising sets the controller can hold at once. No parameters.
public struct HCILEReadNumberOfSupportedAdvertisingSets: HCICommand {
    /// Opcode 0x203B.
    public static var opcode: HCIOpcode { .leReadNumberOfSupportedAdvertisingSets }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` (there are none; see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), Num_Supported_Advertising_Sets (1).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// Num_Supported_Advertising_Sets: 0x01...0xF0 (the number may shrink as memory is used).
        public var numSupportedAdvertisingSets: UInt8

        /// Return parameters with these values.
        public init(status: HCIStatus = .success, numSupportedAdvertisingSets: UInt8) {
            self.status = status
            self.numSupportedAdvertisingSets = numSupportedAdvertisingSets
        }

        /// Every field zero: the value decoding starts from.
        public init() { self.init(numSupportedAdvertisingSets: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&numSupportedAdvertisingSets, "Num_Supported_Advertising_Sets")
        }
    }
}
