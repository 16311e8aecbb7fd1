/// HCI_LE_Set_Scan_Enable, opcode 0x200C (Core v5.4, Vol 4, Part E, 7.8.11): starts or stops
/// legacy scanning. Returns Status.
///
/// Parameters: LE_Scan_Enable (1), Filter_Duplicates (1).
public struct HCILESetScanEnable: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x200C.
    public static var opcode: HCIOpcode { .leSetScanEnable }

    /// LE_Scan_Enable: 0x00 stops scanning, 0x01 starts it; other values are reserved and kept.
    public var leScanEnable: UInt8
    /// Filter_Duplicates: 0x01 asks the controller to drop duplicate reports, 0x00 does not.
    public var filterDuplicates: UInt8

    /// The command with these parameters.
    public init(leScanEnable: UInt8, filterDuplicates: UInt8) {
        self.leScanEnable = leScanEnable
        self.filterDuplicates = filterDuplicates
    }

    /// Starts (`true`) or stops scanning, optionally filtering duplicates.
    public init(enable: Bool, filterDuplicates: Bool = false) {
        self.init(leScanEnable: enable ? 1 : 0, filterDuplicates: filterDuplicates ? 1 : 0)
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(leScanEnable: 0, filterDuplicates: 0) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&leScanEnable, "LE_Scan_Enable")
        try coder.code(&filterDuplicates, "Filter_Duplicates")
    }
}
