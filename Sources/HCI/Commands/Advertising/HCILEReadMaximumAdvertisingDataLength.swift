/// HCI_LE_Read_Maximum_Advertising_Data_Length, opcode 0x203A (Core v5.4, Vol 4, Part E,
/// 7.8.57): the largest advertising or scan response data an extended advertising set can
/// carry. No parameters.
public struct HCILEReadMaximumAdvertisingDataLength: HCICommand {
    /// Opcode 0x203A.
    public static var opcode: HCIOpcode { .leReadMaximumAdvertisingDataLength }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), Max_Advertising_Data_Length (2, 31...1650 octets).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// Max_Advertising_Data_Length, in octets.
        public var maxAdvertisingDataLength: UInt16

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, maxAdvertisingDataLength: UInt16) {
            self.status = status
            self.maxAdvertisingDataLength = maxAdvertisingDataLength
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(maxAdvertisingDataLength: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&maxAdvertisingDataLength, "Max_Advertising_Data_Length")
        }
    }
}
