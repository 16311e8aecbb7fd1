import HCI

/// Whether a scan asks advertisers for their scan response (Core v5.4, Vol 6, Part B, 4.4.3;
/// the LE_Scan_Type of HCI_LE_Set_Scan_Parameters, Vol 4, Part E, 7.8.10, or of
/// HCI_LE_Set_Extended_Scan_Parameters, 7.8.64).
public enum ScanType: Sendable, Hashable, CustomStringConvertible {
    /// Active scanning (the default, and Core Bluetooth's only kind): the controller sends a
    /// SCAN_REQ to each scannable advertiser, so scan responses are heard and merged into
    /// ``AdvertisementData``.
    case active
    /// Passive scanning: the controller only listens, sends nothing, and no scan response is
    /// heard; the advertisers cannot tell that anyone scans.
    case passive

    /// "active" or "passive".
    public var description: String { self == .active ? "active" : "passive" }

    /// The HCI LE_Scan_Type of this kind.
    var leScanType: LEScanType { self == .active ? .active : .passive }
}
