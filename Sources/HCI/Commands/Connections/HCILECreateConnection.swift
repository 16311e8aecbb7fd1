import BLECore

/// HCI_LE_Create_Connection, opcode 0x200D (Core v5.4, Vol 4, Part E, 7.8.12): connects to an
/// advertiser as central, with legacy initiating. Answered by Command Status; the outcome is an
/// HCI_LE_Connection_Complete or HCI_LE_Enhanced_Connection_Complete event.
///
/// Parameters: LE_Scan_Interval (2, 0.625 ms units), LE_Scan_Window (2, 0.625 ms units),
/// Initiator_Filter_Policy (1), Peer_Address_Type (1), Peer_Address (6), Own_Address_Type (1),
/// then ``LEConnectionParameters`` (12). 25 octets.
public struct HCILECreateConnection: HCICommand {
    /// Only Status, in Command Status; the outcome comes in a later event.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x200D.
    public static var opcode: HCIOpcode { .leCreateConnection }
    /// Command Status answers the command; the outcome comes in a later event.
    public static var completion: HCICommandCompletion { .commandStatus }

    /// LE_Scan_Interval: how often to listen for the advertiser.
    public var leScanInterval: LESlotDuration
    /// LE_Scan_Window: how long each listen lasts.
    public var leScanWindow: LESlotDuration
    /// Initiator_Filter_Policy.
    public var initiatorFilterPolicy: LEInitiatorFilterPolicy
    /// Peer_Address_Type: public or random (or their identities, 0x02/0x03).
    public var peerAddressType: LEAddressType
    /// Peer_Address.
    public var peerAddress: BluetoothAddress
    /// Own_Address_Type.
    public var ownAddressType: LEOwnAddressType
    /// The connection parameters wanted.
    public var connectionParameters: LEConnectionParameters

    /// The command with these parameters.
    public init(leScanInterval: LESlotDuration, leScanWindow: LESlotDuration,
                initiatorFilterPolicy: LEInitiatorFilterPolicy = .peerAddress,
                peerAddressType: LEAddressType, peerAddress: BluetoothAddress,
                ownAddressType: LEOwnAddressType = .public, connectionParameters: LEConnectionParameters) {
        self.leScanInterval = leScanInterval
        self.leScanWindow = leScanWindow
        self.initiatorFilterPolicy = initiatorFilterPolicy
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.ownAddressType = ownAddressType
        self.connectionParameters = connectionParameters
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() {
        self.init(leScanInterval: .init(rawValue: 0), leScanWindow: .init(rawValue: 0), peerAddressType: .public,
                  peerAddress: .zero, connectionParameters: LEConnectionParameters())
    }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&leScanInterval, "LE_Scan_Interval")
        try coder.code(&leScanWindow, "LE_Scan_Window")
        try coder.code(&initiatorFilterPolicy, "Initiator_Filter_Policy")
        try coder.code(&peerAddressType, "Peer_Address_Type")
        try coder.code(&peerAddress, "Peer_Address")
        try coder.code(&ownAddressType, "Own_Address_Type")
        try connectionParameters.layout(&coder)
    }
}
