import HCI

/// The commands a virtual controller implements, and the Supported_Commands bit mask that says
/// exactly that (Core v5.4, Vol 4, Part E, 6.27 and 7.4.2).
enum ImplementedCommands {
    /// Commands every virtual controller implements.
    static let base: [HCIOpcode] = [
        .disconnect, .setEventMask, .reset, .readLocalVersionInformation, .readLocalSupportedCommands,
        .readLocalSupportedFeatures, .readBufferSize, .readBDADDR, .readRSSI,
        .leSetEventMask, .leReadBufferSize, .leReadLocalSupportedFeatures, .leSetRandomAddress,
        .leSetAdvertisingParameters, .leSetAdvertisingData, .leSetScanResponseData, .leSetAdvertisingEnable,
        .leSetScanParameters, .leSetScanEnable, .leCreateConnection, .leCreateConnectionCancel,
        .leReadFilterAcceptListSize, .leClearFilterAcceptList, .leAddDeviceToFilterAcceptList,
        .leRemoveDeviceFromFilterAcceptList, .leConnectionUpdate, .leReadRemoteFeatures,
        .leSetDataLength, .leReadSuggestedDefaultDataLength, .leWriteSuggestedDefaultDataLength,
        .leReadMaximumDataLength, .leReadPHY, .leSetDefaultPHY, .leSetPHY,
    ]

    /// The extended advertising, scanning and initiating commands (Vol 4, Part E, 7.8.52-7.8.66).
    static let extended: [HCIOpcode] = [
        .leSetAdvertisingSetRandomAddress, .leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData,
        .leSetExtendedScanResponseData, .leSetExtendedAdvertisingEnable, .leReadMaximumAdvertisingDataLength,
        .leReadNumberOfSupportedAdvertisingSets, .leRemoveAdvertisingSet, .leClearAdvertisingSets,
        .leSetExtendedScanParameters, .leSetExtendedScanEnable, .leExtendedCreateConnection,
    ]

    /// Flow control from the controller to the host (Vol 4, Part E, 7.3.38-7.3.40).
    static let controllerToHostFlowControl: [HCIOpcode] = [
        .setControllerToHostFlowControl, .hostBufferSize, .hostNumberOfCompletedPackets,
    ]

    /// The opcodes `configuration` implements.
    static func opcodes(for configuration: VirtualControllerConfiguration) -> Set<HCIOpcode> {
        var set = Set(base)
        if configuration.supportsExtendedAdvertising { set.formUnion(extended) }
        if configuration.supportsReadBufferSizeV2 { set.insert(.leReadBufferSizeV2) }
        if configuration.supportsControllerToHostFlowControl { set.formUnion(controllerToHostFlowControl) }
        return set
    }

    /// The Supported_Commands octets for `opcodes`: one bit per implemented command, no other.
    static func supportedCommands(_ opcodes: Set<HCIOpcode>) -> HCISupportedCommands {
        var octets = [UInt8](repeating: 0, count: HCISupportedCommands.octetCount)
        for opcode in opcodes {
            if let (octet, bit) = HCISupportedCommands.position(of: opcode) { octets[octet] |= 1 << UInt8(bit) }
        }
        return HCISupportedCommands(octets: octets)
    }

    /// Commands that end with Command Status rather than Command Complete (Vol 4, Part E, 7),
    /// among those this controller knows and those it does not implement but whose answer a host
    /// may wait for as a Command Status: Inquiry, Create Connection, Disconnect, Read Remote
    /// Supported Features, Read Remote Extended Features, Read Remote Version Information, LE
    /// Create Connection, LE Connection Update, LE Read Remote Features, LE Enable Encryption,
    /// LE Read Local P-256 Public Key, LE Generate DHKey [v1] and [v2], LE Set PHY, LE Extended
    /// Create Connection [v1] and [v2], LE Periodic Advertising Create Sync, LE Request Peer SCA.
    static let commandStatusOpcodes: Set<UInt16> = [
        0x0401, 0x0405, 0x0406, 0x041B, 0x041C, 0x041D,
        0x200D, 0x2013, 0x2016, 0x2019, 0x2025, 0x2026, 0x2032, 0x2043, 0x2044, 0x205E, 0x206D, 0x2085,
    ]

    static func usesCommandStatus(_ opcode: HCIOpcode) -> Bool { commandStatusOpcodes.contains(opcode.rawValue) }

    /// The extended family's opcodes, and the legacy family's (Vol 4, Part E, 3.1.1).
    static let extendedFamily = Set(extended)
    static let legacyFamily: Set<HCIOpcode> = [
        .leSetAdvertisingParameters, .leSetAdvertisingData, .leSetScanResponseData, .leSetAdvertisingEnable,
        .leSetScanParameters, .leSetScanEnable, .leCreateConnection,
    ]
}
