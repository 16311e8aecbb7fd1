/// HCI_LE_Set_Default_PHY, opcode 0x2031 (Core v5.4, Vol 4, Part E, 7.8.48): the PHYs the host
/// prefers for every later connection.
///
/// Layout: All_PHYs (1), TX_PHYs (1), RX_PHYs (1). Command Complete returns Status alone.
public struct HCILESetDefaultPHY: HCICommand {
    /// Status alone.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2031.
    public static var opcode: HCIOpcode { .leSetDefaultPHY }

    /// All_PHYs: bit 0, no TX preference; bit 1, no RX preference.
    public var allPHYs: HCILESetPHY.AllPHYs
    /// TX_PHYs: the transmitter PHYs the host prefers.
    public var txPHYs: LEPHYs
    /// RX_PHYs: the receiver PHYs the host prefers.
    public var rxPHYs: LEPHYs

    /// The command with these preferences.
    public init(allPHYs: HCILESetPHY.AllPHYs = [], txPHYs: LEPHYs, rxPHYs: LEPHYs) {
        self.allPHYs = allPHYs
        self.txPHYs = txPHYs
        self.rxPHYs = rxPHYs
    }

    /// Every field zero: the value decoding starts from.
    public init() { self.init(txPHYs: [], rxPHYs: []) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&allPHYs, "All_PHYs")
        try coder.code(&txPHYs, "TX_PHYs")
        try coder.code(&rxPHYs, "RX_PHYs")
    }
}
