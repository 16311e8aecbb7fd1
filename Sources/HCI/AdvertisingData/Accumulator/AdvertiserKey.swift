import BLECore

/// What the ``AdvertisementAccumulator`` merges reports by: the advertiser's address, its
/// address type, and the Advertising_SID of extended advertising (Core v5.4, Vol 4, Part E,
/// 7.7.65.13). One device running two advertising sets is two keys.
public struct AdvertiserKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The advertiser's address (Address).
    public let address: BluetoothAddress
    /// Its Address_Type. Anonymous reports (0xFF) carry no address, so every anonymous advertiser
    /// with the same SID shares one key.
    public let addressType: LEAddressType
    /// The Advertising_SID (0x00...0x0F) of extended advertising; nil for legacy reports and for
    /// extended reports without an ADI field (SID 0xFF).
    public let advertisingSID: UInt8?

    /// A key; an `advertisingSID` of 0xFF (no ADI field) is stored as nil, like a legacy report's.
    public init(address: BluetoothAddress, addressType: LEAddressType, advertisingSID: UInt8? = nil) {
        self.address = address
        self.addressType = addressType
        self.advertisingSID = advertisingSID == 0xFF ? nil : advertisingSID
    }

    /// "AA:BB:CC:DD:EE:FF (random)", with " SID 3" for extended advertising sets.
    public var description: String {
        var s = "\(address) (\(addressType))"
        if let advertisingSID { s += " SID \(advertisingSID)" }
        return s
    }

    /// Orders keys by address, then address type, then SID (none last).
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.address, lhs.addressType.rawValue, Int(lhs.advertisingSID ?? 0xFF))
            < (rhs.address, rhs.addressType.rawValue, Int(rhs.advertisingSID ?? 0xFF))
    }
}
