import BLECore

/// HCI_LE_Set_PHY, opcode 0x2032 (Core v5.4, Vol 4, Part E, 7.8.49): asks for other PHYs on a
/// connection. Answered by Command Status; the outcome is an HCI_LE_PHY_Update_Complete event.
///
/// Parameters: Connection_Handle (2), All_PHYs (1), TX_PHYs (1), RX_PHYs (1), PHY_Options (2).
public struct HCILESetPHY: HCICommand {
    /// Only Status, in Command Status; the outcome comes in a later event.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2032.
    public static var opcode: HCIOpcode { .leSetPHY }
    /// Command Status answers the command; the outcome comes in a later event.
    public static var completion: HCICommandCompletion { .commandStatus }

    /// The All_PHYs parameter: which directions the host has no preference for. Reserved bits are kept.
    public struct AllPHYs: OptionSet, HCIFieldValue {
        /// The value as carried on the wire.
        public let rawValue: UInt8
        /// The value whose raw value is `rawValue`; every raw value is accepted.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: no preference among transmitter PHYs (TX_PHYs is ignored).
        public static let noTXPreference = AllPHYs(rawValue: 1 << 0)
        /// Bit 1: no preference among receiver PHYs (RX_PHYs is ignored).
        public static let noRXPreference = AllPHYs(rawValue: 1 << 1)

        /// The value on one line, for logs and capture decoders.
        public var description: String {
            HCIBitNames.describe(UInt64(rawValue)) { bit in
                bit == 0 ? "no TX preference" : bit == 1 ? "no RX preference" : nil
            }
        }
    }

    /// The PHY_Options parameter: the coding preferred on LE Coded. Unknown values are kept raw.
    public struct PHYOptions: HCIFieldValue {
        /// The value as carried on the wire.
        public let rawValue: UInt16
        /// The value whose raw value is `rawValue`; every raw value is accepted.
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// 0: no preferred coding.
        public static let noPreference = PHYOptions(rawValue: 0)
        /// 1: S=2 coding preferred.
        public static let s2 = PHYOptions(rawValue: 1)
        /// 2: S=8 coding preferred.
        public static let s8 = PHYOptions(rawValue: 2)

        /// The value on one line, for logs and capture decoders.
        public var description: String {
            switch rawValue {
            case 0: return "no preferred coding"
            case 1: return "S=2"
            case 2: return "S=8"
            default: return "PHY options 0x\(Hex.encode([UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)]))"
            }
        }
    }

    /// Connection_Handle.
    public var connectionHandle: UInt16
    /// All_PHYs.
    public var allPHYs: AllPHYs
    /// TX_PHYs: the transmitter PHYs the host prefers.
    public var txPHYs: LEPHYs
    /// RX_PHYs: the receiver PHYs the host prefers.
    public var rxPHYs: LEPHYs
    /// PHY_Options.
    public var phyOptions: PHYOptions

    /// The command with these parameters.
    public init(connectionHandle: UInt16, allPHYs: AllPHYs = [], txPHYs: LEPHYs, rxPHYs: LEPHYs,
                phyOptions: PHYOptions = .noPreference) {
        self.connectionHandle = connectionHandle
        self.allPHYs = allPHYs
        self.txPHYs = txPHYs
        self.rxPHYs = rxPHYs
        self.phyOptions = phyOptions
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(connectionHandle: 0, txPHYs: [], rxPHYs: []) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
        try coder.code(&allPHYs, "All_PHYs")
        try coder.code(&txPHYs, "TX_PHYs")
        try coder.code(&rxPHYs, "RX_PHYs")
        try coder.code(&phyOptions, "PHY_Options")
    }
}
