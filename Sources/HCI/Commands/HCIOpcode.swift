import BLECore

/// An HCI command opcode: the Opcode Group Field (OGF, upper 6 bits) and the Opcode Command
/// Field (OCF, lower 10 bits) of a 16-bit value (Core v5.4, Vol 4, Part E, 5.4.1). OGF 0x3F is
/// reserved for vendor-specific commands. Unknown opcodes are kept raw.
///
/// ```swift
/// HCIOpcode(ogf: 0x08, ocf: 0x000C) == .leSetScanEnable   // 0x200C
/// HCIOpcode.leSetScanEnable.name                         // "LE Set Scan Enable"
/// ```
public struct HCIOpcode: HCIFieldValue, Comparable {
    /// The value as carried on the wire.
    public let rawValue: UInt16
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The opcode for group `ogf` (6 bits) and command `ocf` (10 bits); extra bits are discarded.
    public init(ogf: UInt8, ocf: UInt16) {
        rawValue = UInt16(ogf & 0x3F) << 10 | ocf & 0x03FF
    }

    /// The Opcode Group Field, 0x00...0x3F.
    public var ogf: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 10) }
    /// The Opcode Command Field, 0x0000...0x03FF.
    public var ocf: UInt16 { rawValue & 0x03FF }
    /// Whether the opcode is in the vendor-specific group, OGF 0x3F.
    public var isVendorSpecific: Bool { ogf == 0x3F }

    /// The command's name in the specification's words, without the "HCI_" prefix and with
    /// spaces for underscores (as in "LE Set Scan Enable"); nil when this package does not know it.
    public var name: String? { HCIOpcode.names(rawValue) }

    /// The command's name, or "Vendor Command 0xFC50" / "Opcode 0x0C84" when it has none here.
    public var description: String {
        if let name { return name }
        let hex = "0x" + Hex.encode([UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)]).uppercased()
        return isVendorSpecific ? "Vendor Command \(hex)" : "Opcode \(hex)"
    }

    /// Orders by raw value.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    // MARK: No operation

    /// 0x0000: no command; a Command Complete or Command Status with it only updates
    /// Num_HCI_Command_Packets (Vol 4, Part E, 7.7.14).
    public static let noOperation = HCIOpcode(rawValue: 0x0000)

    // MARK: Link Control (OGF 0x01)

    /// 0x0406: HCI_Disconnect (7.1.6).
    public static let disconnect = HCIOpcode(rawValue: 0x0406)
    /// 0x041D: HCI_Read_Remote_Version_Information (7.1.23).
    public static let readRemoteVersionInformation = HCIOpcode(rawValue: 0x041D)

    // MARK: Controller & Baseband (OGF 0x03)

    /// 0x0C01: HCI_Set_Event_Mask (7.3.1).
    public static let setEventMask = HCIOpcode(rawValue: 0x0C01)
    /// 0x0C03: HCI_Reset (7.3.2).
    public static let reset = HCIOpcode(rawValue: 0x0C03)
    /// 0x0C2D: HCI_Read_Transmit_Power_Level (7.3.35).
    public static let readTransmitPowerLevel = HCIOpcode(rawValue: 0x0C2D)
    /// 0x0C31: HCI_Set_Controller_To_Host_Flow_Control (7.3.38).
    public static let setControllerToHostFlowControl = HCIOpcode(rawValue: 0x0C31)
    /// 0x0C33: HCI_Host_Buffer_Size (7.3.39).
    public static let hostBufferSize = HCIOpcode(rawValue: 0x0C33)
    /// 0x0C35: HCI_Host_Number_Of_Completed_Packets (7.3.40).
    public static let hostNumberOfCompletedPackets = HCIOpcode(rawValue: 0x0C35)
    /// 0x0C63: HCI_Set_Event_Mask_Page_2 (7.3.69).
    public static let setEventMaskPage2 = HCIOpcode(rawValue: 0x0C63)
    /// 0x0C6C: HCI_Read_LE_Host_Support (7.3.78).
    public static let readLEHostSupport = HCIOpcode(rawValue: 0x0C6C)
    /// 0x0C6D: HCI_Write_LE_Host_Support (7.3.79).
    public static let writeLEHostSupport = HCIOpcode(rawValue: 0x0C6D)
    /// 0x0C7B: HCI_Read_Authenticated_Payload_Timeout (7.3.93).
    public static let readAuthenticatedPayloadTimeout = HCIOpcode(rawValue: 0x0C7B)
    /// 0x0C7C: HCI_Write_Authenticated_Payload_Timeout (7.3.94).
    public static let writeAuthenticatedPayloadTimeout = HCIOpcode(rawValue: 0x0C7C)

    // MARK: Informational parameters (OGF 0x04)

    /// 0x1001: HCI_Read_Local_Version_Information (7.4.1).
    public static let readLocalVersionInformation = HCIOpcode(rawValue: 0x1001)
    /// 0x1002: HCI_Read_Local_Supported_Commands (7.4.2).
    public static let readLocalSupportedCommands = HCIOpcode(rawValue: 0x1002)
    /// 0x1003: HCI_Read_Local_Supported_Features (7.4.3).
    public static let readLocalSupportedFeatures = HCIOpcode(rawValue: 0x1003)
    /// 0x1004: HCI_Read_Local_Extended_Features (7.4.4).
    public static let readLocalExtendedFeatures = HCIOpcode(rawValue: 0x1004)
    /// 0x1005: HCI_Read_Buffer_Size (7.4.5).
    public static let readBufferSize = HCIOpcode(rawValue: 0x1005)
    /// 0x1009: HCI_Read_BD_ADDR (7.4.6).
    public static let readBDADDR = HCIOpcode(rawValue: 0x1009)

    // MARK: Status parameters (OGF 0x05)

    /// 0x1405: HCI_Read_RSSI (7.5.4).
    public static let readRSSI = HCIOpcode(rawValue: 0x1405)

    // MARK: LE Controller (OGF 0x08)

    /// 0x2001: HCI_LE_Set_Event_Mask (7.8.1).
    public static let leSetEventMask = HCIOpcode(rawValue: 0x2001)
    /// 0x2002: HCI_LE_Read_Buffer_Size [v1] (7.8.2).
    public static let leReadBufferSize = HCIOpcode(rawValue: 0x2002)
    /// 0x2003: HCI_LE_Read_Local_Supported_Features (7.8.3).
    public static let leReadLocalSupportedFeatures = HCIOpcode(rawValue: 0x2003)
    /// 0x2005: HCI_LE_Set_Random_Address (7.8.4).
    public static let leSetRandomAddress = HCIOpcode(rawValue: 0x2005)
    /// 0x2006: HCI_LE_Set_Advertising_Parameters (7.8.5).
    public static let leSetAdvertisingParameters = HCIOpcode(rawValue: 0x2006)
    /// 0x2007: HCI_LE_Read_Advertising_Physical_Channel_Tx_Power (7.8.6).
    public static let leReadAdvertisingPhysicalChannelTxPower = HCIOpcode(rawValue: 0x2007)
    /// 0x2008: HCI_LE_Set_Advertising_Data (7.8.7).
    public static let leSetAdvertisingData = HCIOpcode(rawValue: 0x2008)
    /// 0x2009: HCI_LE_Set_Scan_Response_Data (7.8.8).
    public static let leSetScanResponseData = HCIOpcode(rawValue: 0x2009)
    /// 0x200A: HCI_LE_Set_Advertising_Enable (7.8.9).
    public static let leSetAdvertisingEnable = HCIOpcode(rawValue: 0x200A)
    /// 0x200B: HCI_LE_Set_Scan_Parameters (7.8.10).
    public static let leSetScanParameters = HCIOpcode(rawValue: 0x200B)
    /// 0x200C: HCI_LE_Set_Scan_Enable (7.8.11).
    public static let leSetScanEnable = HCIOpcode(rawValue: 0x200C)
    /// 0x200D: HCI_LE_Create_Connection (7.8.12).
    public static let leCreateConnection = HCIOpcode(rawValue: 0x200D)
    /// 0x200E: HCI_LE_Create_Connection_Cancel (7.8.13).
    public static let leCreateConnectionCancel = HCIOpcode(rawValue: 0x200E)
    /// 0x200F: HCI_LE_Read_Filter_Accept_List_Size (7.8.14).
    public static let leReadFilterAcceptListSize = HCIOpcode(rawValue: 0x200F)
    /// 0x2010: HCI_LE_Clear_Filter_Accept_List (7.8.15).
    public static let leClearFilterAcceptList = HCIOpcode(rawValue: 0x2010)
    /// 0x2011: HCI_LE_Add_Device_To_Filter_Accept_List (7.8.16).
    public static let leAddDeviceToFilterAcceptList = HCIOpcode(rawValue: 0x2011)
    /// 0x2012: HCI_LE_Remove_Device_From_Filter_Accept_List (7.8.17).
    public static let leRemoveDeviceFromFilterAcceptList = HCIOpcode(rawValue: 0x2012)
    /// 0x2013: HCI_LE_Connection_Update (7.8.18).
    public static let leConnectionUpdate = HCIOpcode(rawValue: 0x2013)
    /// 0x2014: HCI_LE_Set_Host_Channel_Classification (7.8.19).
    public static let leSetHostChannelClassification = HCIOpcode(rawValue: 0x2014)
    /// 0x2015: HCI_LE_Read_Channel_Map (7.8.20).
    public static let leReadChannelMap = HCIOpcode(rawValue: 0x2015)
    /// 0x2016: HCI_LE_Read_Remote_Features (7.8.21).
    public static let leReadRemoteFeatures = HCIOpcode(rawValue: 0x2016)
    /// 0x2017: HCI_LE_Encrypt (7.8.22).
    public static let leEncrypt = HCIOpcode(rawValue: 0x2017)
    /// 0x2018: HCI_LE_Rand (7.8.23).
    public static let leRand = HCIOpcode(rawValue: 0x2018)
    /// 0x2019: HCI_LE_Enable_Encryption (7.8.24).
    public static let leEnableEncryption = HCIOpcode(rawValue: 0x2019)
    /// 0x201A: HCI_LE_Long_Term_Key_Request_Reply (7.8.25).
    public static let leLongTermKeyRequestReply = HCIOpcode(rawValue: 0x201A)
    /// 0x201B: HCI_LE_Long_Term_Key_Request_Negative_Reply (7.8.26).
    public static let leLongTermKeyRequestNegativeReply = HCIOpcode(rawValue: 0x201B)
    /// 0x201C: HCI_LE_Read_Supported_States (7.8.27).
    public static let leReadSupportedStates = HCIOpcode(rawValue: 0x201C)
    /// 0x2020: HCI_LE_Remote_Connection_Parameter_Request_Reply (7.8.31).
    public static let leRemoteConnectionParameterRequestReply = HCIOpcode(rawValue: 0x2020)
    /// 0x2021: HCI_LE_Remote_Connection_Parameter_Request_Negative_Reply (7.8.32).
    public static let leRemoteConnectionParameterRequestNegativeReply = HCIOpcode(rawValue: 0x2021)
    /// 0x2022: HCI_LE_Set_Data_Length (7.8.33).
    public static let leSetDataLength = HCIOpcode(rawValue: 0x2022)
    /// 0x2023: HCI_LE_Read_Suggested_Default_Data_Length (7.8.34).
    public static let leReadSuggestedDefaultDataLength = HCIOpcode(rawValue: 0x2023)
    /// 0x2024: HCI_LE_Write_Suggested_Default_Data_Length (7.8.35).
    public static let leWriteSuggestedDefaultDataLength = HCIOpcode(rawValue: 0x2024)
    /// 0x2025: HCI_LE_Read_Local_P-256_Public_Key (7.8.36).
    public static let leReadLocalP256PublicKey = HCIOpcode(rawValue: 0x2025)
    /// 0x2026: HCI_LE_Generate_DHKey [v1] (7.8.37).
    public static let leGenerateDHKey = HCIOpcode(rawValue: 0x2026)
    /// 0x2027: HCI_LE_Add_Device_To_Resolving_List (7.8.38).
    public static let leAddDeviceToResolvingList = HCIOpcode(rawValue: 0x2027)
    /// 0x2028: HCI_LE_Remove_Device_From_Resolving_List (7.8.39).
    public static let leRemoveDeviceFromResolvingList = HCIOpcode(rawValue: 0x2028)
    /// 0x2029: HCI_LE_Clear_Resolving_List (7.8.40).
    public static let leClearResolvingList = HCIOpcode(rawValue: 0x2029)
    /// 0x202A: HCI_LE_Read_Resolving_List_Size (7.8.41).
    public static let leReadResolvingListSize = HCIOpcode(rawValue: 0x202A)
    /// 0x202B: HCI_LE_Read_Peer_Resolvable_Address (7.8.42).
    public static let leReadPeerResolvableAddress = HCIOpcode(rawValue: 0x202B)
    /// 0x202C: HCI_LE_Read_Local_Resolvable_Address (7.8.43).
    public static let leReadLocalResolvableAddress = HCIOpcode(rawValue: 0x202C)
    /// 0x202D: HCI_LE_Set_Address_Resolution_Enable (7.8.44).
    public static let leSetAddressResolutionEnable = HCIOpcode(rawValue: 0x202D)
    /// 0x202E: HCI_LE_Set_Resolvable_Private_Address_Timeout (7.8.45).
    public static let leSetResolvablePrivateAddressTimeout = HCIOpcode(rawValue: 0x202E)
    /// 0x202F: HCI_LE_Read_Maximum_Data_Length (7.8.46).
    public static let leReadMaximumDataLength = HCIOpcode(rawValue: 0x202F)
    /// 0x2030: HCI_LE_Read_PHY (7.8.47).
    public static let leReadPHY = HCIOpcode(rawValue: 0x2030)
    /// 0x2031: HCI_LE_Set_Default_PHY (7.8.48).
    public static let leSetDefaultPHY = HCIOpcode(rawValue: 0x2031)
    /// 0x2032: HCI_LE_Set_PHY (7.8.49).
    public static let leSetPHY = HCIOpcode(rawValue: 0x2032)
    /// 0x2035: HCI_LE_Set_Advertising_Set_Random_Address (7.8.52).
    public static let leSetAdvertisingSetRandomAddress = HCIOpcode(rawValue: 0x2035)
    /// 0x2036: HCI_LE_Set_Extended_Advertising_Parameters [v1] (7.8.53).
    public static let leSetExtendedAdvertisingParameters = HCIOpcode(rawValue: 0x2036)
    /// 0x2037: HCI_LE_Set_Extended_Advertising_Data (7.8.54).
    public static let leSetExtendedAdvertisingData = HCIOpcode(rawValue: 0x2037)
    /// 0x2038: HCI_LE_Set_Extended_Scan_Response_Data (7.8.55).
    public static let leSetExtendedScanResponseData = HCIOpcode(rawValue: 0x2038)
    /// 0x2039: HCI_LE_Set_Extended_Advertising_Enable (7.8.56).
    public static let leSetExtendedAdvertisingEnable = HCIOpcode(rawValue: 0x2039)
    /// 0x203A: HCI_LE_Read_Maximum_Advertising_Data_Length (7.8.57).
    public static let leReadMaximumAdvertisingDataLength = HCIOpcode(rawValue: 0x203A)
    /// 0x203B: HCI_LE_Read_Number_of_Supported_Advertising_Sets (7.8.58).
    public static let leReadNumberOfSupportedAdvertisingSets = HCIOpcode(rawValue: 0x203B)
    /// 0x203C: HCI_LE_Remove_Advertising_Set (7.8.59).
    public static let leRemoveAdvertisingSet = HCIOpcode(rawValue: 0x203C)
    /// 0x203D: HCI_LE_Clear_Advertising_Sets (7.8.60).
    public static let leClearAdvertisingSets = HCIOpcode(rawValue: 0x203D)
    /// 0x203E: HCI_LE_Set_Periodic_Advertising_Parameters [v1] (7.8.61).
    public static let leSetPeriodicAdvertisingParameters = HCIOpcode(rawValue: 0x203E)
    /// 0x203F: HCI_LE_Set_Periodic_Advertising_Data (7.8.62).
    public static let leSetPeriodicAdvertisingData = HCIOpcode(rawValue: 0x203F)
    /// 0x2040: HCI_LE_Set_Periodic_Advertising_Enable (7.8.63).
    public static let leSetPeriodicAdvertisingEnable = HCIOpcode(rawValue: 0x2040)
    /// 0x2041: HCI_LE_Set_Extended_Scan_Parameters (7.8.64).
    public static let leSetExtendedScanParameters = HCIOpcode(rawValue: 0x2041)
    /// 0x2042: HCI_LE_Set_Extended_Scan_Enable (7.8.65).
    public static let leSetExtendedScanEnable = HCIOpcode(rawValue: 0x2042)
    /// 0x2043: HCI_LE_Extended_Create_Connection [v1] (7.8.66).
    public static let leExtendedCreateConnection = HCIOpcode(rawValue: 0x2043)
    /// 0x204A: HCI_LE_Read_Periodic_Advertiser_List_Size (7.8.73).
    public static let leReadPeriodicAdvertiserListSize = HCIOpcode(rawValue: 0x204A)
    /// 0x204B: HCI_LE_Read_Transmit_Power (7.8.74).
    public static let leReadTransmitPower = HCIOpcode(rawValue: 0x204B)
    /// 0x204D: HCI_LE_Write_RF_Path_Compensation (7.8.76).
    public static let leWriteRFPathCompensation = HCIOpcode(rawValue: 0x204D)
    /// 0x204E: HCI_LE_Set_Privacy_Mode (7.8.77).
    public static let leSetPrivacyMode = HCIOpcode(rawValue: 0x204E)
    /// 0x2060: HCI_LE_Read_Buffer_Size [v2] (7.8.2).
    public static let leReadBufferSizeV2 = HCIOpcode(rawValue: 0x2060)
    /// 0x2074: HCI_LE_Set_Host_Feature (7.8.115).
    public static let leSetHostFeature = HCIOpcode(rawValue: 0x2074)
    /// 0x207F: HCI_LE_Set_Extended_Advertising_Parameters [v2] (7.8.53).
    public static let leSetExtendedAdvertisingParametersV2 = HCIOpcode(rawValue: 0x207F)
    /// 0x2085: HCI_LE_Extended_Create_Connection [v2] (7.8.66).
    public static let leExtendedCreateConnectionV2 = HCIOpcode(rawValue: 0x2085)

    /// The name table behind ``name``.
    static func names(_ raw: UInt16) -> String? {
        switch raw {
        case 0x0000: return "No Operation"
        case 0x0401: return "Inquiry"
        case 0x0402: return "Inquiry Cancel"
        case 0x0406: return "Disconnect"
        case 0x041D: return "Read Remote Version Information"
        case 0x080F: return "Write Default Link Policy Settings"
        case 0x0C01: return "Set Event Mask"
        case 0x0C03: return "Reset"
        case 0x0C05: return "Set Event Filter"
        case 0x0C12: return "Delete Stored Link Key"
        case 0x0C13: return "Write Local Name"
        case 0x0C14: return "Read Local Name"
        case 0x0C18: return "Write Page Timeout"
        case 0x0C1A: return "Write Scan Enable"
        case 0x0C1C: return "Write Page Scan Activity"
        case 0x0C1E: return "Write Inquiry Scan Activity"
        case 0x0C24: return "Write Class Of Device"
        case 0x0C26: return "Write Voice Setting"
        case 0x0C2D: return "Read Transmit Power Level"
        case 0x0C31: return "Set Controller To Host Flow Control"
        case 0x0C33: return "Host Buffer Size"
        case 0x0C35: return "Host Number Of Completed Packets"
        case 0x0C3A: return "Write Current IAC LAP"
        case 0x0C43: return "Write Inquiry Scan Type"
        case 0x0C45: return "Write Inquiry Mode"
        case 0x0C47: return "Write Page Scan Type"
        case 0x0C52: return "Write Extended Inquiry Response"
        case 0x0C56: return "Write Simple Pairing Mode"
        case 0x0C5A: return "Read Default Erroneous Data Reporting"
        case 0x0C5B: return "Write Default Erroneous Data Reporting"
        case 0x0C63: return "Set Event Mask Page 2"
        case 0x0C6C: return "Read LE Host Support"
        case 0x0C6D: return "Write LE Host Support"
        case 0x0C7A: return "Write Secure Connections Host Support"
        case 0x0C7B: return "Read Authenticated Payload Timeout"
        case 0x0C7C: return "Write Authenticated Payload Timeout"
        case 0x1001: return "Read Local Version Information"
        case 0x1002: return "Read Local Supported Commands"
        case 0x1003: return "Read Local Supported Features"
        case 0x1004: return "Read Local Extended Features"
        case 0x1005: return "Read Buffer Size"
        case 0x1009: return "Read BD_ADDR"
        case 0x100B: return "Read Local Supported Codecs [v1]"
        case 0x100C: return "Read Local Simple Pairing Options"
        case 0x1405: return "Read RSSI"
        case 0x2001: return "LE Set Event Mask"
        case 0x2002: return "LE Read Buffer Size [v1]"
        case 0x2003: return "LE Read Local Supported Features"
        case 0x2005: return "LE Set Random Address"
        case 0x2006: return "LE Set Advertising Parameters"
        case 0x2007: return "LE Read Advertising Physical Channel Tx Power"
        case 0x2008: return "LE Set Advertising Data"
        case 0x2009: return "LE Set Scan Response Data"
        case 0x200A: return "LE Set Advertising Enable"
        case 0x200B: return "LE Set Scan Parameters"
        case 0x200C: return "LE Set Scan Enable"
        case 0x200D: return "LE Create Connection"
        case 0x200E: return "LE Create Connection Cancel"
        case 0x200F: return "LE Read Filter Accept List Size"
        case 0x2010: return "LE Clear Filter Accept List"
        case 0x2011: return "LE Add Device To Filter Accept List"
        case 0x2012: return "LE Remove Device From Filter Accept List"
        case 0x2013: return "LE Connection Update"
        case 0x2014: return "LE Set Host Channel Classification"
        case 0x2015: return "LE Read Channel Map"
        case 0x2016: return "LE Read Remote Features"
        case 0x2017: return "LE Encrypt"
        case 0x2018: return "LE Rand"
        case 0x2019: return "LE Enable Encryption"
        case 0x201A: return "LE Long Term Key Request Reply"
        case 0x201B: return "LE Long Term Key Request Negative Reply"
        case 0x201C: return "LE Read Supported States"
        case 0x2020: return "LE Remote Connection Parameter Request Reply"
        case 0x2021: return "LE Remote Connection Parameter Request Negative Reply"
        case 0x2022: return "LE Set Data Length"
        case 0x2023: return "LE Read Suggested Default Data Length"
        case 0x2024: return "LE Write Suggested Default Data Length"
        case 0x2025: return "LE Read Local P-256 Public Key"
        case 0x2026: return "LE Generate DHKey [v1]"
        case 0x2027: return "LE Add Device To Resolving List"
        case 0x2028: return "LE Remove Device From Resolving List"
        case 0x2029: return "LE Clear Resolving List"
        case 0x202A: return "LE Read Resolving List Size"
        case 0x202B: return "LE Read Peer Resolvable Address"
        case 0x202C: return "LE Read Local Resolvable Address"
        case 0x202D: return "LE Set Address Resolution Enable"
        case 0x202E: return "LE Set Resolvable Private Address Timeout"
        case 0x202F: return "LE Read Maximum Data Length"
        case 0x2030: return "LE Read PHY"
        case 0x2031: return "LE Set Default PHY"
        case 0x2032: return "LE Set PHY"
        case 0x2035: return "LE Set Advertising Set Random Address"
        case 0x2036: return "LE Set Extended Advertising Parameters [v1]"
        case 0x2037: return "LE Set Extended Advertising Data"
        case 0x2038: return "LE Set Extended Scan Response Data"
        case 0x2039: return "LE Set Extended Advertising Enable"
        case 0x203A: return "LE Read Maximum Advertising Data Length"
        case 0x203B: return "LE Read Number of Supported Advertising Sets"
        case 0x203C: return "LE Remove Advertising Set"
        case 0x203D: return "LE Clear Advertising Sets"
        case 0x203E: return "LE Set Periodic Advertising Parameters [v1]"
        case 0x203F: return "LE Set Periodic Advertising Data"
        case 0x2040: return "LE Set Periodic Advertising Enable"
        case 0x2041: return "LE Set Extended Scan Parameters"
        case 0x2042: return "LE Set Extended Scan Enable"
        case 0x2043: return "LE Extended Create Connection [v1]"
        case 0x204A: return "LE Read Periodic Advertiser List Size"
        case 0x204B: return "LE Read Transmit Power"
        case 0x204D: return "LE Write RF Path Compensation"
        case 0x204E: return "LE Set Privacy Mode"
        case 0x2060: return "LE Read Buffer Size [v2]"
        case 0x2074: return "LE Set Host Feature"
        case 0x207F: return "LE Set Extended Advertising Parameters [v2]"
        case 0x2085: return "LE Extended Create Connection [v2]"
        default: return nil
        }
    }
}
