import BLECore

/// HCI_LE_Extended_Create_Connection [v1], opcode 0x2043 (Core v5.4, Vol 4, Part E, 7.8.66):
/// connects as central with extended initiating, with parameters per PHY. Answered by Command
/// Status; the outcome is an HCI_LE_Enhanced_Connection_Complete event.
///
/// Parameters: Initiator_Filter_Policy (1), Own_Address_Type (1), Peer_Address_Type (1),
/// Peer_Address (6), Initiating_PHYs (1), then for each bit set in Initiating_PHYs (LE 1M, LE
/// 2M, LE Coded, in that order): Scan_Interval[i] (2, 0.625 ms units), Scan_Window[i] (2,
/// 0.625 ms units), then ``LEConnectionParameters`` (12).
public struct HCILEExtendedCreateConnection: HCICommand {
    /// Only Status, in Command Status; the outcome comes in a later event.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2043.
    public static var opcode: HCIOpcode { .leExtendedCreateConnection }
    /// Command Status answers the command; the outcome comes in a later event.
    public static var completion: HCICommandCompletion { .commandStatus }

    /// The initiating parameters for one PHY.
    public struct PHYParameters: HCIParameterLayout {
        /// Scan_Interval[i] (ignored for LE 2M, on which no advertising is received).
        public var scanInterval: LESlotDuration
        /// Scan_Window[i].
        public var scanWindow: LESlotDuration
        /// The connection parameters wanted on this PHY.
        public var connectionParameters: LEConnectionParameters

        /// A value from its fields.
        public init(scanInterval: LESlotDuration, scanWindow: LESlotDuration, connectionParameters: LEConnectionParameters) {
            self.scanInterval = scanInterval
            self.scanWindow = scanWindow
            self.connectionParameters = connectionParameters
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() {
            self.init(scanInterval: .init(rawValue: 0), scanWindow: .init(rawValue: 0),
                      connectionParameters: LEConnectionParameters())
        }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&scanInterval, "Scan_Interval")
            try coder.code(&scanWindow, "Scan_Window")
            try connectionParameters.layout(&coder)
        }
    }

    /// Initiator_Filter_Policy.
    public var initiatorFilterPolicy: LEInitiatorFilterPolicy
    /// Own_Address_Type.
    public var ownAddressType: LEOwnAddressType
    /// Peer_Address_Type.
    public var peerAddressType: LEAddressType
    /// Peer_Address.
    public var peerAddress: BluetoothAddress
    /// Initiating_PHYs: LE 1M, LE 2M and/or LE Coded.
    public var initiatingPHYs: LEPHYs
    /// One set per bit of ``initiatingPHYs``, in bit order. Encoding writes the sets given; keep
    /// their number equal to the bits set.
    public var phyParameters: [PHYParameters]

    /// The command with these parameters.
    public init(initiatorFilterPolicy: LEInitiatorFilterPolicy = .peerAddress, ownAddressType: LEOwnAddressType = .public,
                peerAddressType: LEAddressType, peerAddress: BluetoothAddress,
                initiatingPHYs: LEPHYs, phyParameters: [PHYParameters]) {
        self.initiatorFilterPolicy = initiatorFilterPolicy
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.initiatingPHYs = initiatingPHYs
        self.phyParameters = phyParameters
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(peerAddressType: .public, peerAddress: .zero, initiatingPHYs: [], phyParameters: []) }

    /// The set for `phy` (a single bit), when ``initiatingPHYs`` has it.
    public func parameters(for phy: LEPHYs) -> PHYParameters? {
        guard phy.count == 1, initiatingPHYs.contains(phy) else { return nil }
        let index = (initiatingPHYs.rawValue & (phy.rawValue &- 1)).nonzeroBitCount
        return phyParameters.indices.contains(index) ? phyParameters[index] : nil
    }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&initiatorFilterPolicy, "Initiator_Filter_Policy")
        try coder.code(&ownAddressType, "Own_Address_Type")
        try coder.code(&peerAddressType, "Peer_Address_Type")
        try coder.code(&peerAddress, "Peer_Address")
        try coder.code(&initiatingPHYs, "Initiating_PHYs")
        try coder.code(&phyParameters, count: initiatingPHYs.count, "PHYs")
    }
}
