import BLECore

/// The Advertising Interval (AD type 0x1A, 2 octets) or Advertising Interval - long (AD type
/// 0x2F, 3 or 4 octets) AD data (CSS Part A, 1.15): the advertiser's interval in units of
/// 0.625 ms (the advInterval of Core v5.4, Vol 6, Part B, 4.4.2.2).
///
/// The number of octets is kept so a value decodes and encodes back to the same octets.
public struct ADAdvertisingInterval: Hashable, Sendable, CustomStringConvertible {
    /// The interval in units of 0.625 ms.
    public let units: UInt32
    /// The octets it is sent in: 2 (AD type 0x1A), or 3 or 4 (AD type 0x2F).
    public let octetCount: Int

    /// An Advertising Interval (0x1A) of `units` × 0.625 ms.
    public init(units: UInt16) {
        self.units = UInt32(units)
        self.octetCount = 2
    }

    /// An Advertising Interval - long (0x2F) of `longUnits` × 0.625 ms, in 3 octets when the value
    /// fits 24 bits, else in 4.
    public init(longUnits: UInt32) {
        self.units = longUnits
        self.octetCount = longUnits <= 0xFF_FFFF ? 3 : 4
    }

    /// An interval in exactly `octetCount` octets (2, 3 or 4).
    ///
    /// - Returns: nil for another octet count, or when `units` does not fit it.
    public init?(units: UInt32, octetCount: Int) {
        switch octetCount {
        case 2: guard units <= 0xFFFF else { return nil }
        case 3: guard units <= 0xFF_FFFF else { return nil }
        case 4: break
        default: return nil
        }
        self.units = units
        self.octetCount = octetCount
    }

    /// Reads 2, 3 or 4 octets; nil for any other count.
    init?(decoding octets: ArraySlice<UInt8>) {
        var v: UInt32 = 0
        for (k, b) in octets.enumerated() where k < 4 { v |= UInt32(b) << UInt32(8 * k) }
        self.init(units: v, octetCount: octets.count)
    }

    /// The AD type: 0x1A for 2 octets, 0x2F (long) for 3 or 4.
    public var type: ADType { octetCount == 2 ? .advertisingInterval : .advertisingIntervalLong }

    /// The interval in microseconds (`units` × 625).
    public var microseconds: UInt64 { UInt64(units) * 625 }

    func write(to w: inout ByteWriter) {
        for k in 0..<octetCount { w.writeUInt8(UInt8(truncatingIfNeeded: units >> UInt32(8 * k))) }
    }

    /// "160 × 0.625 ms = 100 ms".
    public var description: String {
        "\(units) × 0.625 ms = \(ADText.milliseconds(microseconds: microseconds))"
    }
}
