import BLECore

/// HCI_LE_Set_Advertising_Parameters, opcode 0x2006 (Core v5.4, Vol 4, Part E, 7.8.5): legacy
/// advertising parameters. Returns Status.
///
/// Parameters: Advertising_Interval_Min (2, 0.625 ms units), Advertising_Interval_Max (2,
/// 0.625 ms units), Advertising_Type (1), Own_Address_Type (1), Peer_Address_Type (1),
/// Peer_Address (6), Advertising_Channel_Map (1), Advertising_Filter_Policy (1).
public struct HCILESetAdvertisingParameters: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2006.
    public static var opcode: HCIOpcode { .leSetAdvertisingParameters }

    /// Advertising_Interval_Min, 20 ms...10.24 s (default 1.28 s).
    public var advertisingIntervalMin: LESlotDuration
    /// Advertising_Interval_Max, 20 ms...10.24 s (default 1.28 s).
    public var advertisingIntervalMax: LESlotDuration
    /// Advertising_Type: the PDU to send.
    public var advertisingType: LEAdvertisingType
    /// Own_Address_Type: the address to advertise with.
    public var ownAddressType: LEOwnAddressType
    /// Peer_Address_Type: for directed advertising, public or random.
    public var peerAddressType: LEAddressType
    /// Peer_Address: for directed advertising.
    public var peerAddress: BluetoothAddress
    /// Advertising_Channel_Map.
    public var advertisingChannelMap: LEAdvertisingChannelMap
    /// Advertising_Filter_Policy.
    public var advertisingFilterPolicy: LEAdvertisingFilterPolicy

    /// The command with these parameters.
    public init(advertisingIntervalMin: LESlotDuration, advertisingIntervalMax: LESlotDuration,
                advertisingType: LEAdvertisingType = .advInd, ownAddressType: LEOwnAddressType = .public,
                peerAddressType: LEAddressType = .public, peerAddress: BluetoothAddress = .zero,
                advertisingChannelMap: LEAdvertisingChannelMap = .all,
                advertisingFilterPolicy: LEAdvertisingFilterPolicy = .acceptAll) {
        self.advertisingIntervalMin = advertisingIntervalMin
        self.advertisingIntervalMax = advertisingIntervalMax
        self.advertisingType = advertisingType
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.advertisingChannelMap = advertisingChannelMap
        self.advertisingFilterPolicy = advertisingFilterPolicy
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() {
        self.init(advertisingIntervalMin: .init(rawValue: 0), advertisingIntervalMax: .init(rawValue: 0),
                  advertisingChannelMap: [])
    }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&advertisingIntervalMin, "Advertising_Interval_Min")
        try coder.code(&advertisingIntervalMax, "Advertising_Interval_Max")
        try coder.code(&advertisingType, "Advertising_Type")
        try coder.code(&ownAddressType, "Own_Address_Type")
        try coder.code(&peerAddressType, "Peer_Address_Type")
        try coder.code(&peerAddress, "Peer_Address")
        try coder.code(&advertisingChannelMap, "Advertising_Channel_Map")
        try coder.code(&advertisingFilterPolicy, "Advertising_Filter_Policy")
    }
}
