/// HCI_LE_Read_Maximum_Data_Length, opcode 0x202F (Core v5.4, Vol 4, Part E, 7.8.46): the
/// largest link-layer data PDU payloads and times the controller supports. No parameters.
public struct HCILEReadMaximumDataLength: HCICommand {
    /// Opcode 0x202F.
    public static var opcode: HCIOpcode { .leReadMaximumDataLength }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` (there are none; see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), Supported_Max_TX_Octets (2), Supported_Max_TX_Time (2, µs),
    /// Supported_Max_RX_Octets (2), Supported_Max_RX_Time (2, µs).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// Supported_Max_TX_Octets: 0x001B...0x00FB.
        public var supportedMaxTXOctets: UInt16
        /// Supported_Max_TX_Time: 0x0148...0x4290 µs.
        public var supportedMaxTXTime: HCIDuration<HCITimeUnit1us>
        /// Supported_Max_RX_Octets: 0x001B...0x00FB.
        public var supportedMaxRXOctets: UInt16
        /// Supported_Max_RX_Time: 0x0148...0x4290 µs.
        public var supportedMaxRXTime: HCIDuration<HCITimeUnit1us>

        /// Return parameters with these values.
        public init(status: HCIStatus = .success, supportedMaxTXOctets: UInt16, supportedMaxTXTime: HCIDuration<HCITimeUnit1us>,
                    supportedMaxRXOctets: UInt16, supportedMaxRXTime: HCIDuration<HCITimeUnit1us>) {
            self.status = status
            self.supportedMaxTXOctets = supportedMaxTXOctets
            self.supportedMaxTXTime = supportedMaxTXTime
            self.supportedMaxRXOctets = supportedMaxRXOctets
            self.supportedMaxRXTime = supportedMaxRXTime
        }

        /// Every field zero: the value decoding starts from.
        public init() {
            self.init(supportedMaxTXOctets: 0, supportedMaxTXTime: .init(rawValue: 0),
                      supportedMaxRXOctets: 0, supportedMaxRXTime: .init(rawValue: 0))
        }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&supportedMaxTXOctets, "Supported_Max_TX_Octets")
            try coder.code(&supportedMaxTXTime, "Supported_Max_TX_Time")
            try coder.code(&supportedMaxRXOctets, "Supported_Max_RX_Octets")
            try coder.code(&supportedMaxRXTime, "Supported_Max_RX_Time")
        }
    }
}
