import BLECore

/// An HCI command, decoded: one case per command this package implements, and
/// ``unknown(_:)`` for every other opcode (vendor commands included), kept whole.
///
/// ```swift
/// let command = try HCICommandValue(decoding: [0x0C, 0x20, 0x02, 0x01, 0x00])
/// command.description   // "LE Set Scan Enable le_scan_enable=1 filter_duplicates=0"
/// ```
public enum HCICommandValue: Hashable, Sendable, CustomStringConvertible {
    /// HCI_Reset, opcode 0x0C03.
    case reset(HCIReset)
    /// HCI_Set_Event_Mask, opcode 0x0C01.
    case setEventMask(HCISetEventMask)
    /// HCI_Read_Local_Version_Information, opcode 0x1001.
    case readLocalVersionInformation(HCIReadLocalVersionInformation)
    /// HCI_Read_Local_Supported_Commands, opcode 0x1002.
    case readLocalSupportedCommands(HCIReadLocalSupportedCommands)
    /// HCI_Read_Local_Supported_Features, opcode 0x1003.
    case readLocalSupportedFeatures(HCIReadLocalSupportedFeatures)
    /// HCI_Read_BD_ADDR, opcode 0x1009.
    case readBDADDR(HCIReadBDADDR)
    /// HCI_LE_Set_Event_Mask, opcode 0x2001.
    case leSetEventMask(HCILESetEventMask)
    /// HCI_LE_Read_Buffer_Size [v1], opcode 0x2002.
    case leReadBufferSize(HCILEReadBufferSize)
    /// HCI_LE_Read_Buffer_Size [v2], opcode 0x2060.
    case leReadBufferSizeV2(HCILEReadBufferSizeV2)
    /// HCI_LE_Read_Local_Supported_Features, opcode 0x2003.
    case leReadLocalSupportedFeatures(HCILEReadLocalSupportedFeatures)
    /// HCI_LE_Set_Random_Address, opcode 0x2005.
    case leSetRandomAddress(HCILESetRandomAddress)
    /// HCI_LE_Set_Scan_Parameters, opcode 0x200B.
    case leSetScanParameters(HCILESetScanParameters)
    /// HCI_LE_Set_Scan_Enable, opcode 0x200C.
    case leSetScanEnable(HCILESetScanEnable)
    /// HCI_LE_Set_Extended_Scan_Parameters, opcode 0x2041.
    case leSetExtendedScanParameters(HCILESetExtendedScanParameters)
    /// HCI_LE_Set_Extended_Scan_Enable, opcode 0x2042.
    case leSetExtendedScanEnable(HCILESetExtendedScanEnable)
    /// HCI_LE_Set_Advertising_Parameters, opcode 0x2006.
    case leSetAdvertisingParameters(HCILESetAdvertisingParameters)
    /// HCI_LE_Set_Advertising_Data, opcode 0x2008.
    case leSetAdvertisingData(HCILESetAdvertisingData)
    /// HCI_LE_Set_Scan_Response_Data, opcode 0x2009.
    case leSetScanResponseData(HCILESetScanResponseData)
    /// HCI_LE_Set_Advertising_Enable, opcode 0x200A.
    case leSetAdvertisingEnable(HCILESetAdvertisingEnable)
    /// HCI_LE_Set_Extended_Advertising_Parameters [v1], opcode 0x2036.
    case leSetExtendedAdvertisingParameters(HCILESetExtendedAdvertisingParameters)
    /// HCI_LE_Set_Extended_Advertising_Data, opcode 0x2037.
    case leSetExtendedAdvertisingData(HCILESetExtendedAdvertisingData)
    /// HCI_LE_Set_Extended_Scan_Response_Data, opcode 0x2038.
    case leSetExtendedScanResponseData(HCILESetExtendedScanResponseData)
    /// HCI_LE_Set_Extended_Advertising_Enable, opcode 0x2039.
    case leSetExtendedAdvertisingEnable(HCILESetExtendedAdvertisingEnable)
    /// HCI_LE_Read_Maximum_Advertising_Data_Length, opcode 0x203A.
    case leReadMaximumAdvertisingDataLength(HCILEReadMaximumAdvertisingDataLength)
    /// HCI_LE_Create_Connection, opcode 0x200D.
    case leCreateConnection(HCILECreateConnection)
    /// HCI_LE_Extended_Create_Connection [v1], opcode 0x2043.
    case leExtendedCreateConnection(HCILEExtendedCreateConnection)
    /// HCI_LE_Create_Connection_Cancel, opcode 0x200E.
    case leCreateConnectionCancel(HCILECreateConnectionCancel)
    /// HCI_Disconnect, opcode 0x0406.
    case disconnect(HCIDisconnect)
    /// HCI_LE_Connection_Update, opcode 0x2013.
    case leConnectionUpdate(HCILEConnectionUpdate)
    /// HCI_LE_Set_Data_Length, opcode 0x2022.
    case leSetDataLength(HCILESetDataLength)
    /// HCI_LE_Read_PHY, opcode 0x2030.
    case leReadPHY(HCILEReadPHY)
    /// HCI_LE_Set_PHY, opcode 0x2032.
    case leSetPHY(HCILESetPHY)
    /// HCI_LE_Long_Term_Key_Request_Reply, opcode 0x201A.
    case leLongTermKeyRequestReply(HCILELongTermKeyRequestReply)
    /// HCI_Set_Controller_To_Host_Flow_Control, opcode 0x0C31.
    case setControllerToHostFlowControl(HCISetControllerToHostFlowControl)
    /// HCI_Host_Buffer_Size, opcode 0x0C33.
    case hostBufferSize(HCIHostBufferSize)
    /// HCI_Host_Number_Of_Completed_Packets, opcode 0x0C35.
    case hostNumberOfCompletedPackets(HCIHostNumberOfCompletedPackets)
    /// HCI_Read_Buffer_Size, opcode 0x1005.
    case readBufferSize(HCIReadBufferSize)
    /// HCI_Read_RSSI, opcode 0x1405.
    case readRSSI(HCIReadRSSI)
    /// HCI_LE_Read_Filter_Accept_List_Size, opcode 0x200F.
    case leReadFilterAcceptListSize(HCILEReadFilterAcceptListSize)
    /// HCI_LE_Clear_Filter_Accept_List, opcode 0x2010.
    case leClearFilterAcceptList(HCILEClearFilterAcceptList)
    /// HCI_LE_Add_Device_To_Filter_Accept_List, opcode 0x2011.
    case leAddDeviceToFilterAcceptList(HCILEAddDeviceToFilterAcceptList)
    /// HCI_LE_Remove_Device_From_Filter_Accept_List, opcode 0x2012.
    case leRemoveDeviceFromFilterAcceptList(HCILERemoveDeviceFromFilterAcceptList)
    /// HCI_LE_Set_Advertising_Set_Random_Address, opcode 0x2035.
    case leSetAdvertisingSetRandomAddress(HCILESetAdvertisingSetRandomAddress)
    /// HCI_LE_Read_Remote_Features, opcode 0x2016.
    case leReadRemoteFeatures(HCILEReadRemoteFeatures)
    /// HCI_LE_Read_Number_of_Supported_Advertising_Sets, opcode 0x203B.
    case leReadNumberOfSupportedAdvertisingSets(HCILEReadNumberOfSupportedAdvertisingSets)
    /// HCI_LE_Remove_Advertising_Set, opcode 0x203C.
    case leRemoveAdvertisingSet(HCILERemoveAdvertisingSet)
    /// HCI_LE_Clear_Advertising_Sets, opcode 0x203D.
    case leClearAdvertisingSets(HCILEClearAdvertisingSets)
    /// HCI_LE_Read_Suggested_Default_Data_Length, opcode 0x2023.
    case leReadSuggestedDefaultDataLength(HCILEReadSuggestedDefaultDataLength)
    /// HCI_LE_Write_Suggested_Default_Data_Length, opcode 0x2024.
    case leWriteSuggestedDefaultDataLength(HCILEWriteSuggestedDefaultDataLength)
    /// HCI_LE_Read_Maximum_Data_Length, opcode 0x202F.
    case leReadMaximumDataLength(HCILEReadMaximumDataLength)
    /// HCI_LE_Set_Default_PHY, opcode 0x2031.
    case leSetDefaultPHY(HCILESetDefaultPHY)
    /// A command this package does not decode, as received.
    case unknown(HCICommandPacket)

    /// Decodes the parameters of `packet` when its opcode is one this package implements.
    ///
    /// - Throws: ``BLEDecodingError`` naming the field, with offsets counted from the first
    ///   octet of the command packet (Opcode at 0, the parameters from 3), when the parameters
    ///   of a known command are short, too long or invalid.
    public init(packet: HCICommandPacket) throws(BLEDecodingError) {
        let p = packet
        switch packet.opcode {
        case .reset: self = .reset(try .init(packet: p))
        case .setEventMask: self = .setEventMask(try .init(packet: p))
        case .readLocalVersionInformation: self = .readLocalVersionInformation(try .init(packet: p))
        case .readLocalSupportedCommands: self = .readLocalSupportedCommands(try .init(packet: p))
        case .readLocalSupportedFeatures: self = .readLocalSupportedFeatures(try .init(packet: p))
        case .readBDADDR: self = .readBDADDR(try .init(packet: p))
        case .leSetEventMask: self = .leSetEventMask(try .init(packet: p))
        case .leReadBufferSize: self = .leReadBufferSize(try .init(packet: p))
        case .leReadBufferSizeV2: self = .leReadBufferSizeV2(try .init(packet: p))
        case .leReadLocalSupportedFeatures: self = .leReadLocalSupportedFeatures(try .init(packet: p))
        case .leSetRandomAddress: self = .leSetRandomAddress(try .init(packet: p))
        case .leSetScanParameters: self = .leSetScanParameters(try .init(packet: p))
        case .leSetScanEnable: self = .leSetScanEnable(try .init(packet: p))
        case .leSetExtendedScanParameters: self = .leSetExtendedScanParameters(try .init(packet: p))
        case .leSetExtendedScanEnable: self = .leSetExtendedScanEnable(try .init(packet: p))
        case .leSetAdvertisingParameters: self = .leSetAdvertisingParameters(try .init(packet: p))
        case .leSetAdvertisingData: self = .leSetAdvertisingData(try .init(packet: p))
        case .leSetScanResponseData: self = .leSetScanResponseData(try .init(packet: p))
        case .leSetAdvertisingEnable: self = .leSetAdvertisingEnable(try .init(packet: p))
        case .leSetExtendedAdvertisingParameters: self = .leSetExtendedAdvertisingParameters(try .init(packet: p))
        case .leSetExtendedAdvertisingData: self = .leSetExtendedAdvertisingData(try .init(packet: p))
        case .leSetExtendedScanResponseData: self = .leSetExtendedScanResponseData(try .init(packet: p))
        case .leSetExtendedAdvertisingEnable: self = .leSetExtendedAdvertisingEnable(try .init(packet: p))
        case .leReadMaximumAdvertisingDataLength: self = .leReadMaximumAdvertisingDataLength(try .init(packet: p))
        case .leCreateConnection: self = .leCreateConnection(try .init(packet: p))
        case .leExtendedCreateConnection: self = .leExtendedCreateConnection(try .init(packet: p))
        case .leCreateConnectionCancel: self = .leCreateConnectionCancel(try .init(packet: p))
        case .disconnect: self = .disconnect(try .init(packet: p))
        case .leConnectionUpdate: self = .leConnectionUpdate(try .init(packet: p))
        case .leSetDataLength: self = .leSetDataLength(try .init(packet: p))
        case .leReadPHY: self = .leReadPHY(try .init(packet: p))
        case .leSetPHY: self = .leSetPHY(try .init(packet: p))
        case .leLongTermKeyRequestReply: self = .leLongTermKeyRequestReply(try .init(packet: p))
        case .setControllerToHostFlowControl: self = .setControllerToHostFlowControl(try .init(packet: p))
        case .hostBufferSize: self = .hostBufferSize(try .init(packet: p))
        case .hostNumberOfCompletedPackets: self = .hostNumberOfCompletedPackets(try .init(packet: p))
        case .readBufferSize: self = .readBufferSize(try .init(packet: p))
        case .readRSSI: self = .readRSSI(try .init(packet: p))
        case .leReadFilterAcceptListSize: self = .leReadFilterAcceptListSize(try .init(packet: p))
        case .leClearFilterAcceptList: self = .leClearFilterAcceptList(try .init(packet: p))
        case .leAddDeviceToFilterAcceptList: self = .leAddDeviceToFilterAcceptList(try .init(packet: p))
        case .leRemoveDeviceFromFilterAcceptList: self = .leRemoveDeviceFromFilterAcceptList(try .init(packet: p))
        case .leSetAdvertisingSetRandomAddress: self = .leSetAdvertisingSetRandomAddress(try .init(packet: p))
        case .leReadRemoteFeatures: self = .leReadRemoteFeatures(try .init(packet: p))
        case .leReadNumberOfSupportedAdvertisingSets: self = .leReadNumberOfSupportedAdvertisingSets(try .init(packet: p))
        case .leRemoveAdvertisingSet: self = .leRemoveAdvertisingSet(try .init(packet: p))
        case .leClearAdvertisingSets: self = .leClearAdvertisingSets(try .init(packet: p))
        case .leReadSuggestedDefaultDataLength: self = .leReadSuggestedDefaultDataLength(try .init(packet: p))
        case .leWriteSuggestedDefaultDataLength: self = .leWriteSuggestedDefaultDataLength(try .init(packet: p))
        case .leReadMaximumDataLength: self = .leReadMaximumDataLength(try .init(packet: p))
        case .leSetDefaultPHY: self = .leSetDefaultPHY(try .init(packet: p))
        default: self = .unknown(packet)
        }
    }

    /// Decodes a command packet (Opcode, Parameter_Total_Length, parameters; no H4 indicator)
    /// and its parameters.
    ///
    /// - Throws: ``BLEDecodingError`` from ``HCICommandPacket/init(decoding:)`` when
    ///   Parameter_Total_Length does not match the octets, or from ``init(packet:)``.
    public init(decoding bytes: ArraySlice<UInt8>) throws(BLEDecodingError) {
        try self.init(packet: try HCICommandPacket(decoding: bytes))
    }

    /// Decodes a command packet and its parameters.
    ///
    /// - Throws: as the slice overload does.
    public init(decoding bytes: [UInt8]) throws(BLEDecodingError) { try self.init(decoding: bytes[...]) }

    /// The decoded command; nil for ``unknown(_:)``.
    public var command: (any HCICommand)? {
        switch self {
        case .reset(let c): return c
        case .setEventMask(let c): return c
        case .readLocalVersionInformation(let c): return c
        case .readLocalSupportedCommands(let c): return c
        case .readLocalSupportedFeatures(let c): return c
        case .readBDADDR(let c): return c
        case .leSetEventMask(let c): return c
        case .leReadBufferSize(let c): return c
        case .leReadBufferSizeV2(let c): return c
        case .leReadLocalSupportedFeatures(let c): return c
        case .leSetRandomAddress(let c): return c
        case .leSetScanParameters(let c): return c
        case .leSetScanEnable(let c): return c
        case .leSetExtendedScanParameters(let c): return c
        case .leSetExtendedScanEnable(let c): return c
        case .leSetAdvertisingParameters(let c): return c
        case .leSetAdvertisingData(let c): return c
        case .leSetScanResponseData(let c): return c
        case .leSetAdvertisingEnable(let c): return c
        case .leSetExtendedAdvertisingParameters(let c): return c
        case .leSetExtendedAdvertisingData(let c): return c
        case .leSetExtendedScanResponseData(let c): return c
        case .leSetExtendedAdvertisingEnable(let c): return c
        case .leReadMaximumAdvertisingDataLength(let c): return c
        case .leCreateConnection(let c): return c
        case .leExtendedCreateConnection(let c): return c
        case .leCreateConnectionCancel(let c): return c
        case .disconnect(let c): return c
        case .leConnectionUpdate(let c): return c
        case .leSetDataLength(let c): return c
        case .leReadPHY(let c): return c
        case .leSetPHY(let c): return c
        case .leLongTermKeyRequestReply(let c): return c
        case .setControllerToHostFlowControl(let c): return c
        case .hostBufferSize(let c): return c
        case .hostNumberOfCompletedPackets(let c): return c
        case .readBufferSize(let c): return c
        case .readRSSI(let c): return c
        case .leReadFilterAcceptListSize(let c): return c
        case .leClearFilterAcceptList(let c): return c
        case .leAddDeviceToFilterAcceptList(let c): return c
        case .leRemoveDeviceFromFilterAcceptList(let c): return c
        case .leSetAdvertisingSetRandomAddress(let c): return c
        case .leReadRemoteFeatures(let c): return c
        case .leReadNumberOfSupportedAdvertisingSets(let c): return c
        case .leRemoveAdvertisingSet(let c): return c
        case .leClearAdvertisingSets(let c): return c
        case .leReadSuggestedDefaultDataLength(let c): return c
        case .leWriteSuggestedDefaultDataLength(let c): return c
        case .leReadMaximumDataLength(let c): return c
        case .leSetDefaultPHY(let c): return c
        case .unknown: return nil
        }
    }

    /// The command as an HCI Command packet.
    public var packet: HCICommandPacket {
        if case .unknown(let packet) = self { return packet }
        return command.map { $0.packet } ?? HCICommandPacket(opcode: .noOperation)
    }

    /// The command's opcode.
    public var opcode: HCIOpcode { packet.opcode }

    /// The command's name and parameters on one line.
    public var description: String {
        if case .unknown(let packet) = self { return packet.description }
        return command.map { $0.description } ?? ""
    }

    /// The command type this package implements for `opcode`; nil for the others. Command
    /// Complete uses it to decode return parameters.
    public static func commandType(for opcode: HCIOpcode) -> (any HCICommand.Type)? {
        switch opcode {
        case .reset: return HCIReset.self
        case .setEventMask: return HCISetEventMask.self
        case .readLocalVersionInformation: return HCIReadLocalVersionInformation.self
        case .readLocalSupportedCommands: return HCIReadLocalSupportedCommands.self
        case .readLocalSupportedFeatures: return HCIReadLocalSupportedFeatures.self
        case .readBDADDR: return HCIReadBDADDR.self
        case .leSetEventMask: return HCILESetEventMask.self
        case .leReadBufferSize: return HCILEReadBufferSize.self
        case .leReadBufferSizeV2: return HCILEReadBufferSizeV2.self
        case .leReadLocalSupportedFeatures: return HCILEReadLocalSupportedFeatures.self
        case .leSetRandomAddress: return HCILESetRandomAddress.self
        case .leSetScanParameters: return HCILESetScanParameters.self
        case .leSetScanEnable: return HCILESetScanEnable.self
        case .leSetExtendedScanParameters: return HCILESetExtendedScanParameters.self
        case .leSetExtendedScanEnable: return HCILESetExtendedScanEnable.self
        case .leSetAdvertisingParameters: return HCILESetAdvertisingParameters.self
        case .leSetAdvertisingData: return HCILESetAdvertisingData.self
        case .leSetScanResponseData: return HCILESetScanResponseData.self
        case .leSetAdvertisingEnable: return HCILESetAdvertisingEnable.self
        case .leSetExtendedAdvertisingParameters: return HCILESetExtendedAdvertisingParameters.self
        case .leSetExtendedAdvertisingData: return HCILESetExtendedAdvertisingData.self
        case .leSetExtendedScanResponseData: return HCILESetExtendedScanResponseData.self
        case .leSetExtendedAdvertisingEnable: return HCILESetExtendedAdvertisingEnable.self
        case .leReadMaximumAdvertisingDataLength: return HCILEReadMaximumAdvertisingDataLength.self
        case .leCreateConnection: return HCILECreateConnection.self
        case .leExtendedCreateConnection: return HCILEExtendedCreateConnection.self
        case .leCreateConnectionCancel: return HCILECreateConnectionCancel.self
        case .disconnect: return HCIDisconnect.self
        case .leConnectionUpdate: return HCILEConnectionUpdate.self
        case .leSetDataLength: return HCILESetDataLength.self
        case .leReadPHY: return HCILEReadPHY.self
        case .leSetPHY: return HCILESetPHY.self
        case .leLongTermKeyRequestReply: return HCILELongTermKeyRequestReply.self
        case .setControllerToHostFlowControl: return HCISetControllerToHostFlowControl.self
        case .hostBufferSize: return HCIHostBufferSize.self
        case .hostNumberOfCompletedPackets: return HCIHostNumberOfCompletedPackets.self
        case .readBufferSize: return HCIReadBufferSize.self
        case .readRSSI: return HCIReadRSSI.self
        case .leReadFilterAcceptListSize: return HCILEReadFilterAcceptListSize.self
        case .leClearFilterAcceptList: return HCILEClearFilterAcceptList.self
        case .leAddDeviceToFilterAcceptList: return HCILEAddDeviceToFilterAcceptList.self
        case .leRemoveDeviceFromFilterAcceptList: return HCILERemoveDeviceFromFilterAcceptList.self
        case .leSetAdvertisingSetRandomAddress: return HCILESetAdvertisingSetRandomAddress.self
        case .leReadRemoteFeatures: return HCILEReadRemoteFeatures.self
        case .leReadNumberOfSupportedAdvertisingSets: return HCILEReadNumberOfSupportedAdvertisingSets.self
        case .leRemoveAdvertisingSet: return HCILERemoveAdvertisingSet.self
        case .leClearAdvertisingSets: return HCILEClearAdvertisingSets.self
        case .leReadSuggestedDefaultDataLength: return HCILEReadSuggestedDefaultDataLength.self
        case .leWriteSuggestedDefaultDataLength: return HCILEWriteSuggestedDefaultDataLength.self
        case .leReadMaximumDataLength: return HCILEReadMaximumDataLength.self
        case .leSetDefaultPHY: return HCILESetDefaultPHY.self
        default: return nil
        }
    }
}

extension HCICommand {
    /// This command's Return_Parameters as "name=value" pairs: decoded when they are well formed
    /// (or when Status alone reports a failure), in hexadecimal and marked malformed otherwise.
    public static func describeReturnParameters(_ returnParameters: ArraySlice<UInt8>) -> String {
        do {
            switch try result(fromReturnParameters: returnParameters) {
            case .success(let parameters):
                return parameters.fieldsDescription
            case .failure(let status, let parameters):
                return parameters?.fieldsDescription ?? "status=\(status)"
            }
        } catch {
            return "return_parameters=\(Hex.encode(returnParameters)) (malformed: \(error))"
        }
    }
}
