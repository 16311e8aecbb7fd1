/// The Characteristic Properties bit field of a characteristic declaration (Core v5.4, Vol 3,
/// Part G, 3.3.1.1, Table 3.5): how the characteristic's value may be used.
///
/// ```swift
/// if characteristic.properties.contains(.notify) { try await peripheral.setNotifyValue(true, for: characteristic) }
/// ```
public struct CharacteristicProperties: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The octet as the declaration carries it.
    public let rawValue: UInt8

    /// The properties whose bits are `rawValue`; every bit is kept.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: the value may be broadcast in a Server Characteristic Configuration descriptor.
    public static let broadcast = CharacteristicProperties(rawValue: 0x01)
    /// 0x02: the value may be read.
    public static let read = CharacteristicProperties(rawValue: 0x02)
    /// 0x04: the value may be written without a response (ATT_WRITE_CMD).
    public static let writeWithoutResponse = CharacteristicProperties(rawValue: 0x04)
    /// 0x08: the value may be written with a response (ATT_WRITE_REQ).
    public static let write = CharacteristicProperties(rawValue: 0x08)
    /// 0x10: the value may be notified.
    public static let notify = CharacteristicProperties(rawValue: 0x10)
    /// 0x20: the value may be indicated (each indication confirmed).
    public static let indicate = CharacteristicProperties(rawValue: 0x20)
    /// 0x40: the value may be written with a signed write (ATT_SIGNED_WRITE_CMD).
    public static let authenticatedSignedWrites = CharacteristicProperties(rawValue: 0x40)
    /// 0x80: more properties are in the Characteristic Extended Properties descriptor.
    public static let extendedProperties = CharacteristicProperties(rawValue: 0x80)

    /// "[read, notify]".
    public var description: String {
        let names: [(CharacteristicProperties, String)] = [
            (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "writeWithoutResponse"), (.write, "write"),
            (.notify, "notify"), (.indicate, "indicate"), (.authenticatedSignedWrites, "authenticatedSignedWrites"),
            (.extendedProperties, "extendedProperties"),
        ]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
