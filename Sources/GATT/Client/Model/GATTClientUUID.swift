import BLECore

/// The attribute types the client's procedures ask for (Core v5.4, Vol 3, Part G, 3 and 7;
/// Assigned Numbers, 3.5, 3.7 and 3.8). Internal: the database's public names are the API.
enum GATTClientUUID {
    /// 0x2800 «Primary Service».
    static let primaryService = BluetoothUUID(0x2800)
    /// 0x2801 «Secondary Service».
    static let secondaryService = BluetoothUUID(0x2801)
    /// 0x2802 «Include».
    static let include = BluetoothUUID(0x2802)
    /// 0x2803 «Characteristic».
    static let characteristic = BluetoothUUID(0x2803)
    /// 0x2902 Client Characteristic Configuration.
    static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
    /// 0x1801 Generic Attribute service.
    static let genericAttribute = BluetoothUUID(0x1801)
    /// 0x2A05 Service Changed.
    static let serviceChanged = BluetoothUUID(0x2A05)
    /// 0x2B29 Client Supported Features.
    static let clientSupportedFeatures = BluetoothUUID(0x2B29)
    /// 0x2B2A Database Hash.
    static let databaseHash = BluetoothUUID(0x2B2A)
}
