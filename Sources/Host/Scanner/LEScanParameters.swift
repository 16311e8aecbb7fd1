import BLECore
import HCI

/// How an ``LEScanner`` scans: active or passive, interval and window, the controller's
/// duplicate filter, and a filter on service UUIDs (Core v5.4, Vol 4, Part E, 7.8.10, 7.8.11,
/// 7.8.64 and 7.8.65; Vol 6, Part B, 4.4.3).
///
/// ```swift
/// var parameters = LEScanParameters(scanType: .active)
/// parameters.serviceUUIDs = [BluetoothUUID(0x180D)]   // heart rate monitors only
/// ```
public struct LEScanParameters: Hashable, Sendable {
    /// Passive (listen only) or active (send scan requests, so scan responses are reported).
    public var scanType: LEScanType
    /// How often a scan window starts, in 0.625 ms units: 0x0004 (2.5 ms)...0x4000 (10.24 s)
    /// with the legacy commands, 0x0004...0xFFFF (40.96 s) with the extended ones. Default
    /// 0x0060 (60 ms).
    public var interval: LESlotDuration
    /// How long each scan lasts, in 0.625 ms units: 0x0004 (2.5 ms) up to ``interval``.
    /// Default 0x0030 (30 ms).
    public var window: LESlotDuration
    /// Whether duplicate advertising reports are dropped: the controller is asked to
    /// (Filter_Duplicates 0x01), and the scanner then also reports an advertiser again only when
    /// its data or its advertising type changed, not for a new RSSI alone (see the scanner's
    /// LEDuplicateFilter: controllers filter with a small table and forget it on every enable).
    public var filterDuplicates: Bool
    /// Only advertisers that list one of these service UUIDs, in their advertised service UUIDs
    /// (AD types 0x02...0x07) or their Service Solicitation UUIDs (0x14, 0x1F, 0x15), in the
    /// advertising data or the scan response, are reported. 16-, 32- and 128-bit forms of one
    /// UUID match each other. Empty: every advertiser is reported.
    public var serviceUUIDs: Set<BluetoothUUID>
    /// Own_Address_Type, the address put in scan requests. Default public.
    public var ownAddressType: LEOwnAddressType

    /// Parameters from their values; the defaults scan passively at 30 ms every 60 ms with no filter.
    public init(scanType: LEScanType = .passive,
                interval: LESlotDuration = LESlotDuration(rawValue: 0x0060),
                window: LESlotDuration = LESlotDuration(rawValue: 0x0030),
                filterDuplicates: Bool = false, serviceUUIDs: Set<BluetoothUUID> = [],
                ownAddressType: LEOwnAddressType = .public) {
        self.scanType = scanType
        self.interval = interval
        self.window = window
        self.filterDuplicates = filterDuplicates
        self.serviceUUIDs = serviceUUIDs
        self.ownAddressType = ownAddressType
    }

    /// The interval and window values each family allows, in 0.625 ms units (Vol 4, Part E,
    /// 7.8.10 for legacy, 7.8.64 for extended).
    public static func allowedRange(for family: LECommandFamily) -> ClosedRange<UInt16> {
        switch family {
        case .legacy: return 0x0004...0x4000
        case .extended: return 0x0004...0xFFFF
        }
    }

    /// Checks the parameters against `family`'s ranges.
    ///
    /// - Throws: ``LEScannerError/invalidScanType(_:)`` for a reserved scan type;
    ///   ``LEScannerError/intervalOutOfRange(_:allowed:)``,
    ///   ``LEScannerError/windowOutOfRange(_:allowed:)``,
    ///   ``LEScannerError/windowLongerThanInterval(window:interval:)``.
    public func validate(for family: LECommandFamily) throws(LEScannerError) {
        guard scanType == .passive || scanType == .active else { throw .invalidScanType(scanType) }
        let allowed = Self.allowedRange(for: family)
        guard allowed.contains(interval.rawValue) else { throw .intervalOutOfRange(interval, allowed: allowed) }
        guard allowed.contains(window.rawValue) else { throw .windowOutOfRange(window, allowed: allowed) }
        guard window <= interval else { throw .windowLongerThanInterval(window: window, interval: interval) }
    }

    /// Whether `advertisement` passes the service UUID filter.
    public func matches(_ advertisement: Advertisement) -> Bool {
        guard !serviceUUIDs.isEmpty else { return true }
        for uuid in advertisement.serviceUUIDs where serviceUUIDs.contains(uuid) { return true }
        for payload in [advertisement.advertisingData, advertisement.scanResponseData] {
            guard let payload else { continue }
            for uuid in payload.solicitedServiceUUIDs where serviceUUIDs.contains(uuid) { return true }
        }
        return false
    }
}
