/// The Event_Mask of HCI_Set_Event_Mask (Core v5.4, Vol 4, Part E, 7.3.1): which events the
/// controller may send. Bit n enables the event whose Event_Code is n + 1; bits 13, 14 and 18
/// (Command Complete, Command Status, Number Of Completed Packets) are reserved, as those events
/// cannot be masked.
public struct HCIEventMask: OptionSet, HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt64
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The mask that enables the event with `code` (codes 0x01...0x40), the empty mask otherwise.
    public init(enabling code: HCIEventCode) {
        let bit = Int(code.rawValue) - 1
        self.init(rawValue: (0...63).contains(bit) ? 1 << UInt64(bit) : 0)
    }

    /// Bit 4: HCI_Disconnection_Complete.
    public static let disconnectionComplete = HCIEventMask(enabling: .disconnectionComplete)
    /// Bit 7: HCI_Encryption_Change [v1].
    public static let encryptionChange = HCIEventMask(enabling: .encryptionChange)
    /// Bit 11: HCI_Read_Remote_Version_Information_Complete.
    public static let readRemoteVersionInformationComplete = HCIEventMask(enabling: .readRemoteVersionInformationComplete)
    /// Bit 15: HCI_Hardware_Error.
    public static let hardwareError = HCIEventMask(enabling: .hardwareError)
    /// Bit 25: HCI_Data_Buffer_Overflow.
    public static let dataBufferOverflow = HCIEventMask(enabling: .dataBufferOverflow)
    /// Bit 47: HCI_Encryption_Key_Refresh_Complete.
    public static let encryptionKeyRefreshComplete = HCIEventMask(enabling: .encryptionKeyRefreshComplete)
    /// Bit 61: HCI_LE_Meta (its subevents are masked by ``LEEventMask``).
    public static let leMeta = HCIEventMask(enabling: .leMeta)

    /// The controller's mask after HCI_Reset: 0x00001FFFFFFFFFFF.
    public static let resetDefault = HCIEventMask(rawValue: 0x0000_1FFF_FFFF_FFFF)

    /// The enabled events by name ("bit N" for reserved bits and unnamed events).
    public var description: String {
        HCIBitNames.describe(rawValue) { bit in
            [13, 14, 18].contains(bit) ? nil : HCIEventCode(rawValue: UInt8(bit + 1)).name
        }
    }
}
