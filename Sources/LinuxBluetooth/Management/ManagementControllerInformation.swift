import BLECore

/// The reply to Read Controller Information (Linux, BlueZ doc/mgmt-api.txt): Address (6),
/// Bluetooth Version (1), Manufacturer (2), Supported Settings (4), Current Settings (4), Class Of
/// Device (3), Name (249, NUL-padded), Short Name (11, NUL-padded).
public struct ManagementControllerInformation: Hashable, Sendable {
    /// The controller's public address.
    public var address: BluetoothAddress
    /// The Core Specification version the controller reports (HCI version numbers: 0x0d is 5.4).
    public var bluetoothVersion: UInt8
    /// The company identifier of the manufacturer.
    public var manufacturer: UInt16
    /// What the controller can do.
    public var supportedSettings: ManagementSettings
    /// What is on now.
    public var currentSettings: ManagementSettings
    /// The local name, up to the first NUL.
    public var name: String

    /// Decodes the return parameters.
    ///
    /// - Throws: ``BLEDecodingError`` when they are shorter than 280 octets.
    public init(decoding parameters: [UInt8]) throws(BLEDecodingError) {
        var r = ByteReader(parameters[...])
        address = try BluetoothAddress(from: &r, field: "Address")
        bluetoothVersion = try r.readUInt8("Bluetooth Version")
        manufacturer = try r.readUInt16("Manufacturer")
        supportedSettings = ManagementSettings(rawValue: try r.readUInt32("Supported Settings"))
        currentSettings = ManagementSettings(rawValue: try r.readUInt32("Current Settings"))
        _ = try r.readBytes(3, "Class Of Device")
        let name = try r.readBytes(249, "Name")
        _ = try r.readBytes(11, "Short Name")
        self.name = String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
    }
}
