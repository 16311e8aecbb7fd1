/// The unit a duration parameter counts in (Core v5.4, Vol 4, Part E, 7: each parameter states
/// "Time = N × unit").
public protocol HCITimeUnit: Sendable {
    /// The unit's length in microseconds.
    static var microseconds: Int { get }
}

/// 1 µs: TX_Time, Max_TX_Time, Max_RX_Time.
public enum HCITimeUnit1us: HCITimeUnit { public static var microseconds: Int { 1 } }
/// 0.625 ms: scan interval and window, advertising interval, CE length.
public enum HCITimeUnit625us: HCITimeUnit { public static var microseconds: Int { 625 } }
/// 1.25 ms: connection interval, periodic advertising interval.
public enum HCITimeUnit1250us: HCITimeUnit { public static var microseconds: Int { 1250 } }
/// 10 ms: supervision timeout, extended scanning and advertising durations.
public enum HCITimeUnit10ms: HCITimeUnit { public static var microseconds: Int { 10_000 } }
/// 1.28 s: the extended scanning period.
public enum HCITimeUnit1280ms: HCITimeUnit { public static var microseconds: Int { 1_280_000 } }

/// A two-octet duration parameter counted in `Unit`, such as LE_Scan_Interval (0.625 ms units)
/// or Connection_Interval (1.25 ms units). The raw count is kept as received.
///
/// ```swift
/// let interval = LEConnectionInterval(rawValue: 24)
/// interval.microseconds   // 30_000
/// interval.description    // "30 ms"
/// ```
public struct HCIDuration<Unit: HCITimeUnit>: HCIFieldValue, Comparable {
    /// The count of units, as carried on the wire.
    public let rawValue: UInt16
    /// The value whose raw value is `rawValue`; every raw value is accepted.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The duration nearest to `milliseconds`; nil when it is negative or above what two octets hold.
    public init?(milliseconds: Double) {
        // Rounded by hand: `rounded()` would pull in libm, which not every product links.
        let units = milliseconds * 1000 / Double(Unit.microseconds) + 0.5
        guard units.isFinite, units >= 0, units < Double(UInt16.max) + 1 else { return nil }
        self.rawValue = UInt16(units)
    }

    /// The duration in microseconds.
    public var microseconds: Int { Int(rawValue) * Unit.microseconds }

    /// The duration as a Swift `Duration`.
    public var duration: Duration { .microseconds(microseconds) }

    /// The duration with its unit, as in "30 ms", "11.25 ms" or "328 µs".
    public var description: String { HCITimeFormat.text(microseconds: microseconds, unit: Unit.microseconds) }

    /// Orders by raw value.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A connection interval in 1.25 ms units: Connection_Interval, Connection_Interval_Min/_Max,
/// Periodic_Advertising_Interval (Core v5.4, Vol 4, Part E, 7.7.65.1 and 7.8.12).
public typealias LEConnectionInterval = HCIDuration<HCITimeUnit1250us>

/// A supervision timeout in 10 ms units: Supervision_Timeout (Core v5.4, Vol 4, Part E, 7.7.65.1).
public typealias LESupervisionTimeout = HCIDuration<HCITimeUnit10ms>

/// A scan interval, scan window, legacy advertising interval or connection event length in
/// 0.625 ms units (Core v5.4, Vol 4, Part E, 7.8.5, 7.8.10 and 7.8.12).
public typealias LESlotDuration = HCIDuration<HCITimeUnit625us>

/// A three-octet advertising interval in 0.625 ms units: Primary_Advertising_Interval_Min and
/// _Max of LE Set Extended Advertising Parameters (Core v5.4, Vol 4, Part E, 7.8.53), from
/// 0x000020 (20 ms) to 0xFFFFFF (about 10 485 s).
public struct LEExtendedAdvertisingInterval: HCIFieldValue, Comparable {
    /// The count of 0.625 ms units; only the low 24 bits travel.
    public let rawValue: UInt32
    /// An interval of `rawValue` units; bits above 23 are discarded.
    public init(rawValue: UInt32) { self.rawValue = rawValue & 0xFF_FFFF }

    /// Three octets on the wire.
    public static var octets: Int { 3 }

    /// The interval in microseconds.
    public var microseconds: Int { Int(rawValue) * 625 }

    /// The interval as a Swift `Duration`.
    public var duration: Duration { .microseconds(microseconds) }

    /// The interval in milliseconds, as in "100 ms".
    public var description: String { HCITimeFormat.text(microseconds: microseconds, unit: 625) }

    /// Orders by raw value.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Formats durations without Foundation.
enum HCITimeFormat {
    /// "N µs" for microsecond units, otherwise milliseconds with the fraction the unit needs
    /// and no trailing zeros ("30 ms", "11.25 ms", "0.625 ms").
    static func text(microseconds: Int, unit: Int) -> String {
        if unit == 1 { return "\(microseconds) µs" }
        let whole = microseconds / 1000
        var fraction = microseconds % 1000
        guard fraction != 0 else { return "\(whole) ms" }
        var digits = 3
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let text = String(fraction)
        return "\(whole).\(String(repeating: "0", count: digits - text.count))\(text) ms"
    }
}
