/// The Advertising_Event_Properties parameter of HCI_LE_Set_Extended_Advertising_Parameters
/// (Core v5.4, Vol 4, Part E, 7.8.53). Reserved bits (7...15) are kept.
public struct LEAdvertisingEventProperties: OptionSet, HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt16
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Bit 0: connectable advertising.
    public static let connectable = LEAdvertisingEventProperties(rawValue: 1 << 0)
    /// Bit 1: scannable advertising.
    public static let scannable = LEAdvertisingEventProperties(rawValue: 1 << 1)
    /// Bit 2: directed advertising.
    public static let directed = LEAdvertisingEventProperties(rawValue: 1 << 2)
    /// Bit 3: high duty cycle directed connectable advertising (legacy only).
    public static let highDutyCycleDirected = LEAdvertisingEventProperties(rawValue: 1 << 3)
    /// Bit 4: use legacy advertising PDUs.
    public static let legacy = LEAdvertisingEventProperties(rawValue: 1 << 4)
    /// Bit 5: omit the advertiser's address from all PDUs (anonymous advertising).
    public static let anonymous = LEAdvertisingEventProperties(rawValue: 1 << 5)
    /// Bit 6: include TxPower in the extended header of at least one PDU.
    public static let includeTxPower = LEAdvertisingEventProperties(rawValue: 1 << 6)

    /// Legacy ADV_IND: connectable, scannable, legacy (0x0013).
    public static let legacyAdvInd: LEAdvertisingEventProperties = [.legacy, .connectable, .scannable]
    /// Legacy ADV_NONCONN_IND: legacy only (0x0010).
    public static let legacyAdvNonconnInd: LEAdvertisingEventProperties = [.legacy]

    /// The properties by name, lowest bit first ("bit N" for reserved bits).
    public var description: String {
        HCIBitNames.describe(UInt64(rawValue)) { bit in
            switch bit {
            case 0: return "connectable"
            case 1: return "scannable"
            case 2: return "directed"
            case 3: return "high duty cycle"
            case 4: return "legacy"
            case 5: return "anonymous"
            case 6: return "include TxPower"
            default: return nil
            }
        }
    }
}
