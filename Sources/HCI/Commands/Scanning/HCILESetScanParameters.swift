/// HCI_LE_Set_Scan_Parameters, opcode 0x200B (Core v5.4, Vol 4, Part E, 7.8.10): legacy
/// scanning parameters. Returns Status.
///
/// Parameters: LE_Scan_Type (1), LE_Scan_Interval (2, 0.625 ms units), LE_Scan_Window (2,
/// 0.625 ms units), Own_Address_Type (1), Scanning_Filter_Policy (1).
public struct HCILESetScanParameters: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x200B.
    public static var opcode: HCIOpcode { .leSetScanParameters }

    /// LE_Scan_Type: passive or active.
    public var leScanType: LEScanType
    /// LE_Scan_Interval: how often a scan starts, 2.5 ms...10.24 s.
    public var leScanInterval: LESlotDuration
    /// LE_Scan_Window: how long each scan lasts, no longer than the interval.
    public var leScanWindow: LESlotDuration
    /// Own_Address_Type: the address used in scan requests.
    public var ownAddressType: LEOwnAddressType
    /// Scanning_Filter_Policy.
    public var scanningFilterPolicy: LEScanningFilterPolicy

    /// The command with these parameters.
    public init(leScanType: LEScanType, leScanInterval: LESlotDuration, leScanWindow: LESlotDuration,
                ownAddressType: LEOwnAddressType, scanningFilterPolicy: LEScanningFilterPolicy = .basicUnfiltered) {
        self.leScanType = leScanType
        self.leScanInterval = leScanInterval
        self.leScanWindow = leScanWindow
        self.ownAddressType = ownAddressType
        self.scanningFilterPolicy = scanningFilterPolicy
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() {
        self.init(leScanType: .passive, leScanInterval: .init(rawValue: 0), leScanWindow: .init(rawValue: 0),
                  ownAddressType: .public)
    }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&leScanType, "LE_Scan_Type")
        try coder.code(&leScanInterval, "LE_Scan_Interval")
        try coder.code(&leScanWindow, "LE_Scan_Window")
        try coder.code(&ownAddressType, "Own_Address_Type")
        try coder.code(&scanningFilterPolicy, "Scanning_Filter_Policy")
    }
}
