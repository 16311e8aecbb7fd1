/// HCI_LE_Set_Extended_Scan_Enable, opcode 0x2042 (Core v5.4, Vol 4, Part E, 7.8.65): starts
/// or stops extended scanning. Returns Status.
///
/// Parameters: Enable (1), Filter_Duplicates (1), Duration (2, 10 ms units), Period (2, 1.28 s
/// units).
public struct HCILESetExtendedScanEnable: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2042.
    public static var opcode: HCIOpcode { .leSetExtendedScanEnable }

    /// Enable: 0x00 stops scanning, 0x01 starts it.
    public var enable: UInt8
    /// Filter_Duplicates: 0x00 off, 0x01 on, 0x02 on and reset at each scan period.
    public var filterDuplicates: UInt8
    /// Duration: how long to scan; 0 scans until disabled.
    public var duration: HCIDuration<HCITimeUnit10ms>
    /// Period: how often to repeat the scan; 0 scans once.
    public var period: HCIDuration<HCITimeUnit1280ms>

    /// The command with these parameters.
    public init(enable: UInt8, filterDuplicates: UInt8, duration: HCIDuration<HCITimeUnit10ms> = .init(rawValue: 0),
                period: HCIDuration<HCITimeUnit1280ms> = .init(rawValue: 0)) {
        self.enable = enable
        self.filterDuplicates = filterDuplicates
        self.duration = duration
        self.period = period
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(enable: 0, filterDuplicates: 0) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&enable, "Enable")
        try coder.code(&filterDuplicates, "Filter_Duplicates")
        try coder.code(&duration, "Duration")
        try coder.code(&period, "Period")
    }
}
