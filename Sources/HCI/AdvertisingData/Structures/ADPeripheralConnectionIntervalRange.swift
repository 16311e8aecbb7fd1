import BLECore

/// The Peripheral Connection Interval Range AD data (AD type 0x12, 4 octets, CSS Part A, 1.9):
/// the connection interval the peripheral prefers, as a minimum then a maximum, each 2 octets
/// in units of 1.25 ms. 0xFFFF in either means "no specific value"; values outside
/// 0x0006...0x0C80 (7.5 ms...4 s) are kept raw.
public struct ADPeripheralConnectionIntervalRange: Hashable, Sendable, CustomStringConvertible {
    /// The raw value that means "no specific minimum or maximum".
    public static let noSpecificValue: UInt16 = 0xFFFF

    /// Conn_Interval_Min in units of 1.25 ms, or 0xFFFF for no specific minimum.
    public let minimum: UInt16
    /// Conn_Interval_Max in units of 1.25 ms, or 0xFFFF for no specific maximum.
    public let maximum: UInt16

    /// A range from raw values in units of 1.25 ms (0xFFFF for no specific value).
    public init(minimum: UInt16, maximum: UInt16) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Reads exactly 4 octets; nil for any other count.
    init?(decoding octets: ArraySlice<UInt8>) {
        guard octets.count == 4 else { return nil }
        let i = octets.startIndex
        minimum = UInt16(octets[i]) | UInt16(octets[i + 1]) << 8
        maximum = UInt16(octets[i + 2]) | UInt16(octets[i + 3]) << 8
    }

    /// The minimum in microseconds (× 1250), nil when it is 0xFFFF (no specific value).
    public var minimumMicroseconds: UInt64? { minimum == Self.noSpecificValue ? nil : UInt64(minimum) * 1250 }
    /// The maximum in microseconds (× 1250), nil when it is 0xFFFF (no specific value).
    public var maximumMicroseconds: UInt64? { maximum == Self.noSpecificValue ? nil : UInt64(maximum) * 1250 }

    func write(to w: inout ByteWriter) {
        w.writeUInt16(minimum)
        w.writeUInt16(maximum)
    }

    /// "7.5 ms...30 ms"; "no specific minimum...30 ms".
    public var description: String {
        let lo = minimumMicroseconds.map { ADText.milliseconds(microseconds: $0) } ?? "no specific minimum"
        let hi = maximumMicroseconds.map { ADText.milliseconds(microseconds: $0) } ?? "no specific maximum"
        return "\(lo)...\(hi)"
    }
}
