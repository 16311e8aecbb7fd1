import BLECore

/// HCI_LE_Set_Extended_Advertising_Parameters [v1], opcode 0x2036 (Core v5.4, Vol 4, Part E,
/// 7.8.53): the parameters of one advertising set.
///
/// Parameters: Advertising_Handle (1), Advertising_Event_Properties (2),
/// Primary_Advertising_Interval_Min (3, 0.625 ms units), Primary_Advertising_Interval_Max (3,
/// 0.625 ms units), Primary_Advertising_Channel_Map (1), Own_Address_Type (1),
/// Peer_Address_Type (1), Peer_Address (6), Advertising_Filter_Policy (1), Advertising_TX_Power
/// (1, signed dBm; 0x7F = no preference), Primary_Advertising_PHY (1),
/// Secondary_Advertising_Max_Skip (1), Secondary_Advertising_PHY (1), Advertising_SID (1),
/// Scan_Request_Notification_Enable (1). 25 octets.
public struct HCILESetExtendedAdvertisingParameters: HCICommand {
    /// Opcode 0x2036.
    public static var opcode: HCIOpcode { .leSetExtendedAdvertisingParameters }

    /// Advertising_Handle: the advertising set, 0x00...0xEF.
    public var advertisingHandle: UInt8
    /// Advertising_Event_Properties.
    public var advertisingEventProperties: LEAdvertisingEventProperties
    /// Primary_Advertising_Interval_Min.
    public var primaryAdvertisingIntervalMin: LEExtendedAdvertisingInterval
    /// Primary_Advertising_Interval_Max.
    public var primaryAdvertisingIntervalMax: LEExtendedAdvertisingInterval
    /// Primary_Advertising_Channel_Map.
    public var primaryAdvertisingChannelMap: LEAdvertisingChannelMap
    /// Own_Address_Type.
    public var ownAddressType: LEOwnAddressType
    /// Peer_Address_Type: for directed advertising.
    public var peerAddressType: LEAddressType
    /// Peer_Address: for directed advertising.
    public var peerAddress: BluetoothAddress
    /// Advertising_Filter_Policy.
    public var advertisingFilterPolicy: LEAdvertisingFilterPolicy
    /// Advertising_TX_Power: the most power the host wants, -127...+20 dBm; 127 = no preference.
    public var advertisingTXPower: Int8
    /// Primary_Advertising_PHY: LE 1M or LE Coded.
    public var primaryAdvertisingPHY: LEPHY
    /// Secondary_Advertising_Max_Skip: advertising events the secondary channel PDUs may skip.
    public var secondaryAdvertisingMaxSkip: UInt8
    /// Secondary_Advertising_PHY: LE 1M, LE 2M or LE Coded.
    public var secondaryAdvertisingPHY: LEPHY
    /// Advertising_SID: the set's identifier in the ADI field, 0x00...0x0F.
    public var advertisingSID: UInt8
    /// Scan_Request_Notification_Enable: 0x01 reports scan requests in an LE Scan Request
    /// Received event.
    public var scanRequestNotificationEnable: UInt8

    /// The command with these parameters.
    public init(advertisingHandle: UInt8, advertisingEventProperties: LEAdvertisingEventProperties,
                primaryAdvertisingIntervalMin: LEExtendedAdvertisingInterval,
                primaryAdvertisingIntervalMax: LEExtendedAdvertisingInterval,
                primaryAdvertisingChannelMap: LEAdvertisingChannelMap = .all,
                ownAddressType: LEOwnAddressType = .public, peerAddressType: LEAddressType = .public,
                peerAddress: BluetoothAddress = .zero, advertisingFilterPolicy: LEAdvertisingFilterPolicy = .acceptAll,
                advertisingTXPower: Int8 = 127, primaryAdvertisingPHY: LEPHY = .le1M,
                secondaryAdvertisingMaxSkip: UInt8 = 0, secondaryAdvertisingPHY: LEPHY = .le1M,
                advertisingSID: UInt8 = 0, scanRequestNotificationEnable: UInt8 = 0) {
        self.advertisingHandle = advertisingHandle
        self.advertisingEventProperties = advertisingEventProperties
        self.primaryAdvertisingIntervalMin = primaryAdvertisingIntervalMin
        self.primaryAdvertisingIntervalMax = primaryAdvertisingIntervalMax
        self.primaryAdvertisingChannelMap = primaryAdvertisingChannelMap
        self.ownAddressType = ownAddressType
        self.peerAddressType = peerAddressType
        self.peerAddress = peerAddress
        self.advertisingFilterPolicy = advertisingFilterPolicy
        self.advertisingTXPower = advertisingTXPower
        self.primaryAdvertisingPHY = primaryAdvertisingPHY
        self.secondaryAdvertisingMaxSkip = secondaryAdvertisingMaxSkip
        self.secondaryAdvertisingPHY = secondaryAdvertisingPHY
        self.advertisingSID = advertisingSID
        self.scanRequestNotificationEnable = scanRequestNotificationEnable
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() {
        self.init(advertisingHandle: 0, advertisingEventProperties: [],
                  primaryAdvertisingIntervalMin: .init(rawValue: 0), primaryAdvertisingIntervalMax: .init(rawValue: 0),
                  primaryAdvertisingChannelMap: [], advertisingTXPower: 0, primaryAdvertisingPHY: .init(rawValue: 0),
                  secondaryAdvertisingPHY: .init(rawValue: 0))
    }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&advertisingHandle, "Advertising_Handle", format: .hex)
        try coder.code(&advertisingEventProperties, "Advertising_Event_Properties")
        try coder.code(&primaryAdvertisingIntervalMin, "Primary_Advertising_Interval_Min")
        try coder.code(&primaryAdvertisingIntervalMax, "Primary_Advertising_Interval_Max")
        try coder.code(&primaryAdvertisingChannelMap, "Primary_Advertising_Channel_Map")
        try coder.code(&ownAddressType, "Own_Address_Type")
        try coder.code(&peerAddressType, "Peer_Address_Type")
        try coder.code(&peerAddress, "Peer_Address")
        try coder.code(&advertisingFilterPolicy, "Advertising_Filter_Policy")
        try coder.code(dBm: &advertisingTXPower, "Advertising_TX_Power")
        try coder.code(&primaryAdvertisingPHY, "Primary_Advertising_PHY")
        try coder.code(&secondaryAdvertisingMaxSkip, "Secondary_Advertising_Max_Skip")
        try coder.code(&secondaryAdvertisingPHY, "Secondary_Advertising_PHY")
        try coder.code(&advertisingSID, "Advertising_SID", format: .hex)
        try coder.code(&scanRequestNotificationEnable, "Scan_Request_Notification_Enable")
    }

    /// Status (1), Selected_TX_Power (1, signed dBm).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// Selected_TX_Power: the power the controller chose, -127...+20 dBm.
        public var selectedTXPower: Int8

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, selectedTXPower: Int8) {
            self.status = status
            self.selectedTXPower = selectedTXPower
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(selectedTXPower: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(dBm: &selectedTXPower, "Selected_TX_Power")
        }
    }
}
