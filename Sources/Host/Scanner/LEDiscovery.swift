import BLECore
import HCI

/// One advertiser heard by an ``LEScanner``: its address, signal, and its advertising data
/// merged with its scan response (``AdvertisementAccumulator``). A scanner yields one each time
/// a report completes a payload (advertising data or scan response) of an advertiser that passes
/// the filter (with ``LEScanParameters/filterDuplicates``, only when that changed what was last
/// yielded for the advertiser); later discoveries of the same advertiser carry everything
/// merged so far.
public struct LEDiscovery: Hashable, Sendable, CustomStringConvertible {
    /// Everything heard from this advertiser so far: advertising data and scan response kept
    /// apart, RSSI and properties from the last report.
    public var advertisement: Advertisement

    /// A discovery of `advertisement`.
    public init(advertisement: Advertisement) { self.advertisement = advertisement }

    /// The advertiser's address.
    public var address: BluetoothAddress { advertisement.address }
    /// The advertiser's address type (public, random, or a resolved identity).
    public var addressType: LEAddressType { advertisement.addressType }
    /// The RSSI of the last report, in dBm; nil when the controller could not measure it (127).
    public var rssi: Int8? { advertisement.rssi }
    /// The transmit power, in dBm: the Tx Power Level AD structure when the advertiser sends
    /// one, else the TX_Power of the last extended report; nil when neither is known.
    public var txPower: Int8? { advertisement.txPowerLevel ?? advertisement.txPower }
    /// Whether the advertising accepts connections (ADV_IND, ADV_DIRECT_IND, or an extended
    /// report with the Connectable bit).
    public var isConnectable: Bool { advertisement.isConnectable }
    /// The local name (complete, else shortened), as text.
    public var localName: String? { advertisement.localName?.string }
    /// The advertised service UUIDs of both payloads.
    public var serviceUUIDs: [BluetoothUUID] { advertisement.serviceUUIDs }
    /// The Service Solicitation UUIDs of both payloads.
    public var solicitedServiceUUIDs: [BluetoothUUID] {
        [advertisement.advertisingData, advertisement.scanResponseData].compactMap { $0 }.flatMap(\.solicitedServiceUUIDs)
    }

    /// The Manufacturer Specific Data structures of both payloads.
    public var manufacturerSpecificData: [ADManufacturerSpecificData] { advertisement.manufacturerSpecificData }
    /// The Service Data structures (16-, 32- and 128-bit) of both payloads.
    public var serviceData: [ADServiceData] { advertisement.serviceData }

    /// The advertisement on one line.
    public var description: String { advertisement.description }
}
