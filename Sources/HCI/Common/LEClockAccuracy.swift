import BLECore

/// The Central_Clock_Accuracy parameter of the LE connection events: the central's sleep clock
/// accuracy (Core v5.4, Vol 4, Part E, 7.7.65.1). Unknown values are kept raw.
public struct LEClockAccuracy: HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The accuracy in parts per million for the defined values 0x00...0x07 (500, 250, 150, 100,
    /// 75, 50, 30, 20 ppm); nil otherwise.
    public var partsPerMillion: Int? {
        switch rawValue {
        case 0x00: return 500
        case 0x01: return 250
        case 0x02: return 150
        case 0x03: return 100
        case 0x04: return 75
        case 0x05: return 50
        case 0x06: return 30
        case 0x07: return 20
        default: return nil
        }
    }

    /// "500 ppm", or the raw value when it is reserved.
    public var description: String {
        if let ppm = partsPerMillion { return "\(ppm) ppm" }
        return "clock accuracy 0x\(Hex.encode([rawValue]))"
    }
}
