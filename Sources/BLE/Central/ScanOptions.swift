import BLECore

/// How ``CentralManager/scanForPeripherals(withServices:options:)`` scans and reports what it hears.
public struct ScanOptions: Hashable, Sendable {
    /// Active (the default: scan requests, so scan responses are heard) or passive (listening
    /// only; Core v5.4, Vol 6, Part B, 4.4.3).
    public var scanType: ScanType
    /// Whether every advertising report is delivered. False (the default): a peripheral is
    /// delivered when first heard, then again only when its ``AdvertisementData`` changes (the
    /// controller's duplicate filter is on too, Core v5.4, Vol 4, Part E, 7.8.11). True: every
    /// report, each with its RSSI (a crowded room gives hundreds a second).
    public var allowDuplicates: Bool
    /// Also deliver peripherals that solicit one of these services (Service Solicitation,
    /// Core Specification Supplement, Part A, 1.10), whatever services they list.
    public var solicitedServiceUUIDs: [BluetoothUUID]

    /// Options; active, no duplicates and no solicitation filter by default.
    public init(allowDuplicates: Bool = false, solicitedServiceUUIDs: [BluetoothUUID] = [], scanType: ScanType = .active) {
        self.scanType = scanType
        self.allowDuplicates = allowDuplicates
        self.solicitedServiceUUIDs = solicitedServiceUUIDs
    }
}
