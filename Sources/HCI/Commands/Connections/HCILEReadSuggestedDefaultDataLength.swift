/// HCI_LE_Read_Suggested_Default_Data_Length, opcode 0x2023 (Core v5.4, Vol 4, Part E, 7.8.34):
/// the TX octets and time new connections start with. No parameters.
public struct HCILEReadSuggestedDefaultDataLength: HCICommand {
    /// Opcode 0x2023.
    public static var opcode: HCIOpcode { .leReadSuggestedDefaultDataLength }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` (there are none; see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), Suggested_Max_TX_Octets (2), Suggested_Max_TX_Time (2, µs).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// Suggested_Max_TX_Octets: 0x001B...0x00FB.
        public var suggestedMaxTXOctets: UInt16
        /// Suggested_Max_TX_Time: 0x0148...0x4290 µs.
        public var suggestedMaxTXTime: HCIDuration<HCITimeUnit1us>

        /// Return parameters with these values.
        public init(status: HCIStatus = .success, suggestedMaxTXOctets: UInt16, suggestedMaxTXTime: HCIDuration<HCITimeUnit1us>) {
            self.status = status
            self.suggestedMaxTXOctets = suggestedMaxTXOctets
            self.suggestedMaxTXTime = suggestedMaxTXTime
        }

        /// Every field zero: the value decoding starts from.
        public init() { self.init(suggestedMaxTXOctets: 0, suggestedMaxTXTime: .init(rawValue: 0)) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&suggestedMaxTXOctets, "Suggested_Max_TX_Octets")
            try coder.code(&suggestedMaxTXTime, "Suggested_Max_TX_Time")
        }
    }
}
