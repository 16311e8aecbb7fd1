/// HCI_LE_Set_Extended_Scan_Parameters, opcode 0x2041 (Core v5.4, Vol 4, Part E, 7.8.64):
/// extended scanning parameters, one set per primary PHY scanned. Returns Status.
///
/// Parameters: Own_Address_Type (1), Scanning_Filter_Policy (1), Scanning_PHYs (1), then for
/// each bit set in Scanning_PHYs (LE 1M first, then LE Coded): Scan_Type[i] (1),
/// Scan_Interval[i] (2, 0.625 ms units), Scan_Window[i] (2, 0.625 ms units).
public struct HCILESetExtendedScanParameters: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2041.
    public static var opcode: HCIOpcode { .leSetExtendedScanParameters }

    /// The scanning parameters for one PHY.
    public struct PHYParameters: HCIParameterLayout {
        /// Scan_Type[i]: passive or active.
        public var scanType: LEScanType
        /// Scan_Interval[i]: how often a scan starts on this PHY.
        public var scanInterval: LESlotDuration
        /// Scan_Window[i]: how long each scan lasts on this PHY.
        public var scanWindow: LESlotDuration

        /// A value from its fields.
        public init(scanType: LEScanType, scanInterval: LESlotDuration, scanWindow: LESlotDuration) {
            self.scanType = scanType
            self.scanInterval = scanInterval
            self.scanWindow = scanWindow
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(scanType: .passive, scanInterval: .init(rawValue: 0), scanWindow: .init(rawValue: 0)) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&scanType, "Scan_Type")
            try coder.code(&scanInterval, "Scan_Interval")
            try coder.code(&scanWindow, "Scan_Window")
        }
    }

    /// Own_Address_Type: the address used in scan requests.
    public var ownAddressType: LEOwnAddressType
    /// Scanning_Filter_Policy.
    public var scanningFilterPolicy: LEScanningFilterPolicy
    /// Scanning_PHYs: LE 1M and/or LE Coded.
    public var scanningPHYs: LEPHYs
    /// One set per bit of ``scanningPHYs``, in bit order. Encoding writes the sets given; keep
    /// their number equal to the bits set.
    public var phyParameters: [PHYParameters]

    /// Parameters with explicit PHY bits and sets.
    public init(ownAddressType: LEOwnAddressType, scanningFilterPolicy: LEScanningFilterPolicy = .basicUnfiltered,
                scanningPHYs: LEPHYs, phyParameters: [PHYParameters]) {
        self.ownAddressType = ownAddressType
        self.scanningFilterPolicy = scanningFilterPolicy
        self.scanningPHYs = scanningPHYs
        self.phyParameters = phyParameters
    }

    /// Parameters for the PHYs given; Scanning_PHYs follows from which are non-nil.
    public init(ownAddressType: LEOwnAddressType, scanningFilterPolicy: LEScanningFilterPolicy = .basicUnfiltered,
                le1M: PHYParameters?, leCoded: PHYParameters? = nil) {
        var phys: LEPHYs = []
        var sets: [PHYParameters] = []
        if let le1M { phys.insert(.le1M); sets.append(le1M) }
        if let leCoded { phys.insert(.leCoded); sets.append(leCoded) }
        self.init(ownAddressType: ownAddressType, scanningFilterPolicy: scanningFilterPolicy,
                  scanningPHYs: phys, phyParameters: sets)
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(ownAddressType: .public, scanningPHYs: [], phyParameters: []) }

    /// The set for `phy` (a single bit), when ``scanningPHYs`` has it.
    public func parameters(for phy: LEPHYs) -> PHYParameters? {
        guard phy.count == 1, scanningPHYs.contains(phy) else { return nil }
        let index = (scanningPHYs.rawValue & (phy.rawValue &- 1)).nonzeroBitCount
        return phyParameters.indices.contains(index) ? phyParameters[index] : nil
    }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&ownAddressType, "Own_Address_Type")
        try coder.code(&scanningFilterPolicy, "Scanning_Filter_Policy")
        try coder.code(&scanningPHYs, "Scanning_PHYs")
        try coder.code(&phyParameters, count: scanningPHYs.count, "PHYs")
    }
}
