/// The LE_Event_Mask of HCI_LE_Set_Event_Mask (Core v5.4, Vol 4, Part E, 7.8.1): which LE Meta
/// subevents the controller may send. Bit n enables the subevent whose Subevent_Code is n + 1.
public struct LEEventMask: OptionSet, HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt64
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The mask that enables the subevent with `code` (codes 0x01...0x40), the empty mask otherwise.
    public init(enabling code: LEMetaSubeventCode) {
        let bit = Int(code.rawValue) - 1
        self.init(rawValue: (0...63).contains(bit) ? 1 << UInt64(bit) : 0)
    }

    /// Bit 0: HCI_LE_Connection_Complete.
    public static let connectionComplete = LEEventMask(enabling: .connectionComplete)
    /// Bit 1: HCI_LE_Advertising_Report.
    public static let advertisingReport = LEEventMask(enabling: .advertisingReport)
    /// Bit 2: HCI_LE_Connection_Update_Complete.
    public static let connectionUpdateComplete = LEEventMask(enabling: .connectionUpdateComplete)
    /// Bit 3: HCI_LE_Read_Remote_Features_Complete.
    public static let readRemoteFeaturesComplete = LEEventMask(enabling: .readRemoteFeaturesComplete)
    /// Bit 4: HCI_LE_Long_Term_Key_Request.
    public static let longTermKeyRequest = LEEventMask(enabling: .longTermKeyRequest)
    /// Bit 6: HCI_LE_Data_Length_Change.
    public static let dataLengthChange = LEEventMask(enabling: .dataLengthChange)
    /// Bit 9: HCI_LE_Enhanced_Connection_Complete [v1].
    public static let enhancedConnectionComplete = LEEventMask(enabling: .enhancedConnectionComplete)
    /// Bit 11: HCI_LE_PHY_Update_Complete.
    public static let phyUpdateComplete = LEEventMask(enabling: .phyUpdateComplete)
    /// Bit 12: HCI_LE_Extended_Advertising_Report.
    public static let extendedAdvertisingReport = LEEventMask(enabling: .extendedAdvertisingReport)
    /// Bit 19: HCI_LE_Channel_Selection_Algorithm.
    public static let channelSelectionAlgorithm = LEEventMask(enabling: .channelSelectionAlgorithm)
    /// Bit 40: HCI_LE_Enhanced_Connection_Complete [v2].
    public static let enhancedConnectionCompleteV2 = LEEventMask(enabling: .enhancedConnectionCompleteV2)

    /// The controller's mask after HCI_Reset: 0x000000000000001F (the first five subevents).
    public static let resetDefault = LEEventMask(rawValue: 0x1F)

    /// The enabled subevents by name ("bit N" for unnamed ones).
    public var description: String {
        HCIBitNames.describe(rawValue) { bit in LEMetaSubeventCode(rawValue: UInt8(bit + 1)).name }
    }
}
