import BLECore

/// What an advertiser (one ``AdvertiserKey``) has last sent, merged from its advertising reports:
/// the advertising data and the scan-response data side by side, never mixed
/// (Core v5.4, Vol 3, Part C, 11), plus the report fields that describe the advertising.
///
/// Made and updated by ``AdvertisementAccumulator``.
public struct Advertisement: Hashable, Sendable, CustomStringConvertible {
    /// The advertiser's address, address type and Advertising_SID.
    public let key: AdvertiserKey
    /// The advertiser's address.
    public var address: BluetoothAddress { key.address }
    /// The Address_Type of the reports.
    public var addressType: LEAddressType { key.addressType }
    /// The Advertising_SID of extended advertising; nil for legacy advertising.
    public var advertisingSID: UInt8? { key.advertisingSID }

    /// The last advertising data (not scan response) received; nil until one arrives.
    public internal(set) var advertisingData: AdvertisingData?
    /// The last scan-response data received; nil until one arrives.
    public internal(set) var scanResponseData: AdvertisingData?
    /// Whether ``advertisingData`` is incomplete: the controller reported it truncated, its fragment
    /// chain was cut short by a report of the other kind, or it reached the accumulator's maximum
    /// length.
    public internal(set) var isAdvertisingDataTruncated: Bool = false
    /// Whether ``scanResponseData`` is incomplete, for the same reasons.
    public internal(set) var isScanResponseDataTruncated: Bool = false

    /// Whether the advertising is connectable (Event_Type bit 0, or ADV_IND / ADV_DIRECT_IND).
    public internal(set) var isConnectable: Bool = false
    /// Whether the advertising is scannable (Event_Type bit 1, or ADV_IND / ADV_SCAN_IND).
    public internal(set) var isScannable: Bool = false
    /// Whether the advertising is directed (Event_Type bit 2, or ADV_DIRECT_IND).
    public internal(set) var isDirected: Bool = false
    /// Whether the last report came from a legacy advertising PDU.
    public internal(set) var isLegacy: Bool = true
    /// The RSSI of the last report in dBm; nil when the controller reported 127 (not available).
    public internal(set) var rssi: Int8?
    /// The TX_Power of the last extended report in dBm; nil for legacy reports and when the
    /// controller reported 127 (not available). The Tx Power Level AD structure is separate:
    /// see ``txPowerLevel``.
    public internal(set) var txPower: Int8?
    /// Primary_PHY of the last extended report (0x01 LE 1M, 0x03 LE Coded); 0x01 for legacy reports.
    public internal(set) var primaryPHY: UInt8 = 0x01
    /// Secondary_PHY of the last extended report (0x00 none, 0x01 LE 1M, 0x02 LE 2M, 0x03 LE Coded).
    public internal(set) var secondaryPHY: UInt8 = 0x00
    /// Periodic_Advertising_Interval of the last extended report, in units of 1.25 ms; 0 for none.
    public internal(set) var periodicAdvertisingInterval: UInt16 = 0
    /// How many payloads (advertising or scan response, each after reassembly) have been merged.
    public internal(set) var payloadCount: Int = 0

    init(key: AdvertiserKey) { self.key = key }

    /// The payloads present, advertising data first.
    var payloads: [AdvertisingData] {
        [advertisingData, scanResponseData].compactMap { $0 }
    }

    /// The Complete Local Name from either payload, else a Shortened Local Name.
    public var localName: ADLocalName? {
        let names = payloads.compactMap(\.localName)
        return names.first { $0.isComplete } ?? names.first
    }

    /// The service UUIDs of both payloads, advertising data first.
    public var serviceUUIDs: [BluetoothUUID] { payloads.flatMap(\.serviceUUIDs) }

    /// The Manufacturer Specific Data of both payloads, advertising data first.
    public var manufacturerSpecificData: [ADManufacturerSpecificData] { payloads.flatMap(\.manufacturerSpecificData) }

    /// The Service Data of both payloads, advertising data first.
    public var serviceData: [ADServiceData] { payloads.flatMap(\.serviceData) }

    /// The Flags, which only advertising data may carry (CSS Part A, 1, Table 1.1).
    public var flags: ADFlags? { advertisingData?.flags }

    /// The Tx Power Level AD structure (dBm) from either payload, advertising data first.
    public var txPowerLevel: Int8? { payloads.lazy.compactMap(\.txPowerLevel).first }

    /// The Appearance from either payload, advertising data first.
    public var appearance: ADAppearance? { payloads.lazy.compactMap(\.appearance).first }

    /// "AA:BB:CC:DD:EE:FF (random) connectable, RSSI -60 dBm; AD: ...; SR: ...".
    public var description: String {
        var s = key.description
        var props: [String] = []
        if isLegacy { props.append("legacy") }
        if isConnectable { props.append("connectable") }
        if isScannable { props.append("scannable") }
        if isDirected { props.append("directed") }
        if !props.isEmpty { s += " " + props.joined(separator: " ") }
        if let rssi { s += ", RSSI \(rssi) dBm" }
        if let txPower { s += ", TX power \(txPower) dBm" }
        if let advertisingData {
            s += "; AD\(isAdvertisingDataTruncated ? " (truncated)" : ""): \(advertisingData)"
        }
        if let scanResponseData {
            s += "; SR\(isScanResponseDataTruncated ? " (truncated)" : ""): \(scanResponseData)"
        }
        return s
    }
}
