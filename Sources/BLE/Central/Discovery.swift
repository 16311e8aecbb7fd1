import HCI

/// One peripheral heard by ``CentralManager/scanForPeripherals(withServices:options:)``.
public struct Discovery: Sendable, CustomStringConvertible {
    /// The peripheral: the same object for the same device on every discovery.
    public let peripheral: Peripheral
    /// Everything it has advertised so far, advertising data and scan response merged (each
    /// payload also as heard: ``AdvertisementData/advertisingData``,
    /// ``AdvertisementData/scanResponseData``).
    public let advertisementData: AdvertisementData
    /// The RSSI of the last advertising report, in dBm (-127...20); nil when the controller
    /// could not measure it (RSSI 127, Core v5.4, Vol 4, Part E, 7.7.65.2).
    public let rssi: Int?
    /// The Address_Type of the last advertising report (Vol 4, Part E, 7.7.65.2, 7.7.65.13):
    /// public, random, or, for an address the controller resolved, public identity or random
    /// identity. ``Peripheral/addressType`` folds the identities into public and random.
    public let reportedAddressType: LEAddressType
    /// The TX_Power of the last extended advertising report, in dBm (-127...20; Vol 4, Part E,
    /// 7.7.65.13); nil for legacy reports and when the controller did not know it (127). The
    /// Tx Power Level AD structure is ``AdvertisementData/txPowerLevel``.
    public let txPower: Int?

    /// "EA:59:24:0E:82:34 (random) RSSI -60 dBm: \"LinuxBLE HR\", services 180D, connectable".
    public var description: String {
        "\(peripheral.address) (\(peripheral.addressType))\(rssi.map { " RSSI \($0) dBm" } ?? ""): \(advertisementData)"
    }
}
