import BLECore

/// The LE Role AD data (AD type 0x1C, 1 octet, CSS Part A, 1.17): which link-layer roles the
/// device supports and which it prefers for connection establishment. Values 0x04...0xFF are
/// reserved for future use and kept raw.
public struct ADLERole: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The LE Role octet.
    public let rawValue: UInt8
    /// The role with this value, reserved or not.
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: Only Peripheral Role supported.
    public static let peripheralOnly = ADLERole(rawValue: 0x00)
    /// 0x01: Only Central Role supported.
    public static let centralOnly = ADLERole(rawValue: 0x01)
    /// 0x02: Peripheral and Central Role supported, Peripheral Role preferred.
    public static let peripheralPreferred = ADLERole(rawValue: 0x02)
    /// 0x03: Peripheral and Central Role supported, Central Role preferred.
    public static let centralPreferred = ADLERole(rawValue: 0x03)

    /// "0x02 (Peripheral and Central, Peripheral preferred)"; "0x07 (reserved)".
    public var description: String {
        let name: String
        switch self {
        case .peripheralOnly: name = "Only Peripheral"
        case .centralOnly: name = "Only Central"
        case .peripheralPreferred: name = "Peripheral and Central, Peripheral preferred"
        case .centralPreferred: name = "Peripheral and Central, Central preferred"
        default: name = "reserved"
        }
        return "0x\(ADText.hex(rawValue)) (\(name))"
    }
}
