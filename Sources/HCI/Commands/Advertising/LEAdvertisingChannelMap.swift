/// The Advertising_Channel_Map and Primary_Advertising_Channel_Map parameters: which primary
/// advertising channels to use (Core v5.4, Vol 4, Part E, 7.8.5 and 7.8.53). Reserved bits are kept.
public struct LEAdvertisingChannelMap: OptionSet, HCIFieldValue {
    /// The value as carried on the wire.
    public let rawValue: UInt8
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: channel 37.
    public static let channel37 = LEAdvertisingChannelMap(rawValue: 1 << 0)
    /// Bit 1: channel 38.
    public static let channel38 = LEAdvertisingChannelMap(rawValue: 1 << 1)
    /// Bit 2: channel 39.
    public static let channel39 = LEAdvertisingChannelMap(rawValue: 1 << 2)
    /// All three channels (0x07), the default.
    public static let all: LEAdvertisingChannelMap = [.channel37, .channel38, .channel39]

    /// The channels by number, as in "37, 38, 39".
    public var description: String {
        HCIBitNames.describe(UInt64(rawValue)) { bit in bit < 3 ? String(37 + bit) : nil }
    }
}
