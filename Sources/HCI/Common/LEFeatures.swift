/// The LE features a Link Layer supports, as LE_Features carries them (page 0, eight octets):
/// HCI_LE_Read_Local_Supported_Features and HCI_LE_Read_Remote_Features_Complete
/// (Core v5.4, Vol 6, Part B, 4.6, "Feature support"). Bits without a name here are kept.
///
/// A host chooses between the legacy and the extended advertising and scanning commands from
/// ``leExtendedAdvertising`` (never mixing the two on one controller).
public struct LEFeatures: OptionSet, HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt64
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Bit 0: LE Encryption.
    public static let leEncryption = LEFeatures(rawValue: 1 << 0)
    /// Bit 1: Connection Parameters Request Procedure.
    public static let connectionParametersRequestProcedure = LEFeatures(rawValue: 1 << 1)
    /// Bit 2: Extended Reject Indication.
    public static let extendedRejectIndication = LEFeatures(rawValue: 1 << 2)
    /// Bit 3: Peripheral-initiated Features Exchange.
    public static let peripheralInitiatedFeaturesExchange = LEFeatures(rawValue: 1 << 3)
    /// Bit 4: LE Ping.
    public static let lePing = LEFeatures(rawValue: 1 << 4)
    /// Bit 5: LE Data Packet Length Extension (LE Set Data Length, up to 251-octet PDUs).
    public static let leDataPacketLengthExtension = LEFeatures(rawValue: 1 << 5)
    /// Bit 6: LL Privacy (address resolution in the controller).
    public static let llPrivacy = LEFeatures(rawValue: 1 << 6)
    /// Bit 7: Extended Scanner Filter Policies.
    public static let extendedScannerFilterPolicies = LEFeatures(rawValue: 1 << 7)
    /// Bit 8: LE 2M PHY.
    public static let le2MPHY = LEFeatures(rawValue: 1 << 8)
    /// Bit 9: Stable Modulation Index - Transmitter.
    public static let stableModulationIndexTransmitter = LEFeatures(rawValue: 1 << 9)
    /// Bit 10: Stable Modulation Index - Receiver.
    public static let stableModulationIndexReceiver = LEFeatures(rawValue: 1 << 10)
    /// Bit 11: LE Coded PHY.
    public static let leCodedPHY = LEFeatures(rawValue: 1 << 11)
    /// Bit 12: LE Extended Advertising (the extended advertising and scanning commands).
    public static let leExtendedAdvertising = LEFeatures(rawValue: 1 << 12)
    /// Bit 13: LE Periodic Advertising.
    public static let lePeriodicAdvertising = LEFeatures(rawValue: 1 << 13)
    /// Bit 14: Channel Selection Algorithm #2.
    public static let channelSelectionAlgorithm2 = LEFeatures(rawValue: 1 << 14)
    /// Bit 15: LE Power Class 1.
    public static let lePowerClass1 = LEFeatures(rawValue: 1 << 15)
    /// Bit 16: Minimum Number of Used Channels Procedure.
    public static let minimumNumberOfUsedChannelsProcedure = LEFeatures(rawValue: 1 << 16)
    /// Bit 26: Sleep Clock Accuracy Updates.
    public static let sleepClockAccuracyUpdates = LEFeatures(rawValue: 1 << 26)
    /// Bit 27: Remote Public Key Validation.
    public static let remotePublicKeyValidation = LEFeatures(rawValue: 1 << 27)
    /// Bit 28: Connected Isochronous Stream - Central.
    public static let connectedIsochronousStreamCentral = LEFeatures(rawValue: 1 << 28)
    /// Bit 29: Connected Isochronous Stream - Peripheral.
    public static let connectedIsochronousStreamPeripheral = LEFeatures(rawValue: 1 << 29)
    /// Bit 30: Isochronous Broadcaster.
    public static let isochronousBroadcaster = LEFeatures(rawValue: 1 << 30)
    /// Bit 31: Synchronized Receiver.
    public static let synchronizedReceiver = LEFeatures(rawValue: 1 << 31)
    /// Bit 32: Connected Isochronous Stream (Host Support).
    public static let connectedIsochronousStreamHostSupport = LEFeatures(rawValue: 1 << 32)
    /// Bit 33: LE Power Control Request.
    public static let lePowerControlRequest = LEFeatures(rawValue: 1 << 33)
    /// Bit 35: LE Path Loss Monitoring.
    public static let lePathLossMonitoring = LEFeatures(rawValue: 1 << 35)
    /// Bit 37: Connection Subrating.
    public static let connectionSubrating = LEFeatures(rawValue: 1 << 37)
    /// Bit 39: Channel Classification.
    public static let channelClassification = LEFeatures(rawValue: 1 << 39)

    /// The feature's name in Vol 6, Part B, 4.6 for bit `bit` (0...63); nil for bits this stack
    /// does not name (reserved, or newer than v5.4).
    public static func name(ofBit bit: Int) -> String? {
        switch bit {
        case 0: return "LE Encryption"
        case 1: return "Connection Parameters Request Procedure"
        case 2: return "Extended Reject Indication"
        case 3: return "Peripheral-initiated Features Exchange"
        case 4: return "LE Ping"
        case 5: return "LE Data Packet Length Extension"
        case 6: return "LL Privacy"
        case 7: return "Extended Scanner Filter Policies"
        case 8: return "LE 2M PHY"
        case 9: return "Stable Modulation Index - Transmitter"
        case 10: return "Stable Modulation Index - Receiver"
        case 11: return "LE Coded PHY"
        case 12: return "LE Extended Advertising"
        case 13: return "LE Periodic Advertising"
        case 14: return "Channel Selection Algorithm #2"
        case 15: return "LE Power Class 1"
        case 16: return "Minimum Number of Used Channels Procedure"
        case 17: return "Connection CTE Request"
        case 18: return "Connection CTE Response"
        case 19: return "Connectionless CTE Transmitter"
        case 20: return "Connectionless CTE Receiver"
        case 21: return "Antenna Switching During CTE Transmission (AoD)"
        case 22: return "Antenna Switching During CTE Reception (AoA)"
        case 23: return "Receiving Constant Tone Extensions"
        case 24: return "Periodic Advertising Sync Transfer - Sender"
        case 25: return "Periodic Advertising Sync Transfer - Recipient"
        case 26: return "Sleep Clock Accuracy Updates"
        case 27: return "Remote Public Key Validation"
        case 28: return "Connected Isochronous Stream - Central"
        case 29: return "Connected Isochronous Stream - Peripheral"
        case 30: return "Isochronous Broadcaster"
        case 31: return "Synchronized Receiver"
        case 32: return "Connected Isochronous Stream (Host Support)"
        case 33, 34: return "LE Power Control Request"
        case 35: return "LE Path Loss Monitoring"
        case 36: return "Periodic Advertising ADI support"
        case 37: return "Connection Subrating"
        case 38: return "Connection Subrating (Host Support)"
        case 39: return "Channel Classification"
        case 40: return "Advertising Coding Selection"
        case 41: return "Advertising Coding Selection (Host Support)"
        case 43: return "Periodic Advertising with Responses - Advertiser"
        case 44: return "Periodic Advertising with Responses - Scanner"
        default: return nil
        }
    }

    /// The names of the supported features, lowest bit first ("bit N" for unnamed bits).
    public var description: String { HCIBitNames.describe(rawValue, name: Self.name(ofBit:)) }
}
