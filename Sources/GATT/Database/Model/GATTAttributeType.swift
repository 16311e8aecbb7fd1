import BLECore

/// The attribute types GATT defines for its own declarations and descriptors
/// (Core v5.4, Vol 3, Part G, 3.1-3.3; Assigned Numbers, 3.5 and 3.7).
public enum GATTAttributeType {
    /// 0x2800 «Primary Service» (Part G, 3.1).
    public static let primaryService = BluetoothUUID(0x2800)
    /// 0x2801 «Secondary Service» (Part G, 3.1).
    public static let secondaryService = BluetoothUUID(0x2801)
    /// 0x2802 «Include» (Part G, 3.2).
    public static let include = BluetoothUUID(0x2802)
    /// 0x2803 «Characteristic» (Part G, 3.3.1).
    public static let characteristic = BluetoothUUID(0x2803)

    /// 0x2900 «Characteristic Extended Properties» (Part G, 3.3.3.1).
    public static let characteristicExtendedProperties = BluetoothUUID(0x2900)
    /// 0x2901 «Characteristic User Description» (Part G, 3.3.3.2).
    public static let characteristicUserDescription = BluetoothUUID(0x2901)
    /// 0x2902 «Client Characteristic Configuration» (Part G, 3.3.3.3).
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
    /// 0x2903 «Server Characteristic Configuration» (Part G, 3.3.3.4).
    public static let serverCharacteristicConfiguration = BluetoothUUID(0x2903)
    /// 0x2904 «Characteristic Presentation Format» (Part G, 3.3.3.5).
    public static let characteristicPresentationFormat = BluetoothUUID(0x2904)
    /// 0x2905 «Characteristic Aggregate Format» (Part G, 3.3.3.6).
    public static let characteristicAggregateFormat = BluetoothUUID(0x2905)

    /// Whether `type` is one of the four declarations that structure the database (service,
    /// include, characteristic); such a type cannot be used for a descriptor.
    public static func isDeclaration(_ type: BluetoothUUID) -> Bool {
        type == primaryService || type == secondaryService || type == include || type == characteristic
    }
}

/// The UUIDs of the services and characteristics every GATT server exposes (Core v5.4, Vol 3,
/// Part C, 12 and Part G, 7; Assigned Numbers, 3.4 and 3.8).
public enum GATTProfileUUID {
    /// 0x1800 Generic Access service (Part C, 12).
    public static let genericAccess = BluetoothUUID(0x1800)
    /// 0x1801 Generic Attribute service (Part G, 7).
    public static let genericAttribute = BluetoothUUID(0x1801)
    /// 0x2A00 Device Name (Part C, 12.1).
    public static let deviceName = BluetoothUUID(0x2A00)
    /// 0x2A01 Appearance (Part C, 12.2).
    public static let appearance = BluetoothUUID(0x2A01)
    /// 0x2A05 Service Changed (Part G, 7.1).
    public static let serviceChanged = BluetoothUUID(0x2A05)
    /// 0x2B29 Client Supported Features (Part G, 7.2).
    public static let clientSupportedFeatures = BluetoothUUID(0x2B29)
    /// 0x2B2A Database Hash (Part G, 7.3).
    public static let databaseHash = BluetoothUUID(0x2B2A)
    /// 0x2B3A Server Supported Features (Part G, 7.4).
    public static let serverSupportedFeatures = BluetoothUUID(0x2B3A)
}
