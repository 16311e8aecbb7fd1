/// The controller's LMP features, page 0 (eight octets), as HCI_Read_Local_Supported_Features
/// returns them (Core v5.4, Vol 2, Part C, 3.3, "Feature mask definition"). Only the bits an LE
/// host consults have names; every bit is kept.
public struct LMPFeatures: OptionSet, HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt64
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Bit 2: Encryption (BR/EDR).
    public static let encryption = LMPFeatures(rawValue: 1 << 2)
    /// Bit 37: BR/EDR Not Supported.
    public static let brEdrNotSupported = LMPFeatures(rawValue: 1 << 37)
    /// Bit 38: LE Supported (Controller).
    public static let leSupportedController = LMPFeatures(rawValue: 1 << 38)
    /// Bit 49: Simultaneous LE and BR/EDR to Same Device Capable (Controller).
    public static let simultaneousLEAndBREDRController = LMPFeatures(rawValue: 1 << 49)
    /// Bit 51: Secure Simple Pairing (Controller Support).
    public static let secureSimplePairingController = LMPFeatures(rawValue: 1 << 51)
    /// Bit 63: Extended features (more pages through HCI_Read_Local_Extended_Features).
    public static let extendedFeatures = LMPFeatures(rawValue: 1 << 63)

    /// The feature's name for the named bits; nil otherwise.
    public static func name(ofBit bit: Int) -> String? {
        switch bit {
        case 2: return "Encryption"
        case 37: return "BR/EDR Not Supported"
        case 38: return "LE Supported (Controller)"
        case 49: return "Simultaneous LE and BR/EDR (Controller)"
        case 51: return "Secure Simple Pairing (Controller Support)"
        case 63: return "Extended features"
        default: return nil
        }
    }

    /// The set bits, named where this type names them, otherwise "bit N".
    public var description: String { HCIBitNames.describe(rawValue, name: Self.name(ofBit:)) }
}
