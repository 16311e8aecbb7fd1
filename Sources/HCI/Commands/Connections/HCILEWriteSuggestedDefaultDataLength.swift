/// HCI_LE_Write_Suggested_Default_Data_Length, opcode 0x2024 (Core v5.4, Vol 4, Part E,
/// 7.8.35): the TX octets and time new connections should start with.
///
/// Layout: Suggested_Max_TX_Octets (2), Suggested_Max_TX_Time (2, µs). Command Complete returns
/// Status alone.
public struct HCILEWriteSuggestedDefaultDataLength: HCICommand {
    /// Status alone.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2024.
    public static var opcode: HCIOpcode { .leWriteSuggestedDefaultDataLength }

    /// Suggested_Max_TX_Octets: 0x001B...0x00FB.
    public var suggestedMaxTXOctets: UInt16
    /// Suggested_Max_TX_Time: 0x0148...0x4290 µs.
    public var suggestedMaxTXTime: HCIDuration<HCITimeUnit1us>

    /// The command with these values.
    public init(suggestedMaxTXOctets: UInt16, suggestedMaxTXTime: HCIDuration<HCITimeUnit1us>) {
        self.suggestedMaxTXOctets = suggestedMaxTXOctets
        self.suggestedMaxTXTime = suggestedMaxTXTime
    }

    /// Every field zero: the value decoding starts from.
    public init() { self.init(suggestedMaxTXOctets: 0, suggestedMaxTXTime: .init(rawValue: 0)) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&suggestedMaxTXOctets, "Suggested_Max_TX_Octets")
        try coder.code(&suggestedMaxTXTime, "Suggested_Max_TX_Time")
    }
}
