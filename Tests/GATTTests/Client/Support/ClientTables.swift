import BLECore
@testable import GATT

/// Attribute tables the client tests share.
enum ClientTables {
    /// A fixed 16-octet Database Hash for tables that have one.
    static let hashA: [UInt8] = Array(0x10...0x1F)
    /// Another, for "the database changed".
    static let hashB: [UInt8] = Array(0xA0...0xAF)

    /// The 128-bit UUID used for a vendor service in these tables.
    static let vendorService = BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!
    /// A vendor characteristic.
    static let vendorCharacteristic = BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E")!

    /// The handles of ``standard(hash:)``.
    struct Handles {
        var gapService: UInt16 = 0
        var deviceName: UInt16 = 0
        var appearance: UInt16 = 0
        var gattService: UInt16 = 0
        var serviceChanged: UInt16 = 0
        var serviceChangedCCCD: UInt16 = 0
        var clientFeatures: UInt16 = 0
        var databaseHash: UInt16 = 0
        var heartRateService: UInt16 = 0
        var measurement: UInt16 = 0
        var measurementCCCD: UInt16 = 0
        var bodySensorLocation: UInt16 = 0
        var controlPoint: UInt16 = 0
        var batteryService: UInt16 = 0
        var batteryLevel: UInt16 = 0
        var batteryCCCD: UInt16 = 0
        var vendorService: UInt16 = 0
        var vendorValue: UInt16 = 0
        var vendorDescription: UInt16 = 0
    }

    /// GAP (0x1800), GATT (0x1801, with a Database Hash when `hash` is given), a secondary
    /// Battery service (0x180F), Heart Rate (0x180D, including Battery: a notifiable
    /// measurement, a readable location, a writable control point), then a vendor service
    /// with a 128-bit UUID. With a hash, the handles are:
    ///
    /// ```
    /// 0x0001 Primary Service 1800           0x0012 Primary Service 180d
    /// 0x0002   Characteristic 2a00 read     0x0013   Include 0x000e...0x0011 180f
    /// 0x0003   value "LinuxBLE"             0x0014   Characteristic 2a37 notify
    /// 0x0004   Characteristic 2a01 read     0x0015   value 0648
    /// 0x0005   value 4103                   0x0016   CCCD
    /// 0x0006 Primary Service 1801           0x0017   Characteristic 2a38 read
    /// 0x0007   Characteristic 2a05 indicate 0x0018   value 01
    /// 0x0008   value 00000000               0x0019   Characteristic 2a39 write
    /// 0x0009   CCCD                         0x001a   value 00
    /// 0x000a   Characteristic 2b29 rd/wr    0x001b Primary Service 6e400001-b5a3-...
    /// 0x000b   value 00                     0x001c   Characteristic 6e400002-... 0x1e
    /// 0x000c   Characteristic 2b2a read     0x001d   value 00 01 ... 27 (40 octets)
    /// 0x000d   value (the hash)             0x001e   CCCD
    /// 0x000e Secondary Service 180f         0x001f   User Description "Vendor"
    /// 0x000f   Characteristic 2a19 rd/ntf
    /// 0x0010   value 64
    /// 0x0011   CCCD
    /// ```
    ///
    /// `extraCharacteristic` adds a Heart Rate characteristic 0x2A3A (value 00) after the
    /// control point, moving the vendor service two handles on: a database change.
    static func standard(hash: [UInt8]? = hashA, deviceName: [UInt8] = Array("LinuxBLE".utf8),
                         extraCharacteristic: Bool = false) -> (FakeGATTTable, Handles) {
        var t = FakeGATTTable()
        var h = Handles()
        h.gapService = t.primaryService(BluetoothUUID(0x1800))
        h.deviceName = t.characteristic(BluetoothUUID(0x2A00), properties: 0x02, value: deviceName).value
        h.appearance = t.characteristic(BluetoothUUID(0x2A01), properties: 0x02, value: [0x41, 0x03]).value
        h.gattService = t.primaryService(BluetoothUUID(0x1801))
        h.serviceChanged = t.characteristic(BluetoothUUID(0x2A05), properties: 0x20, value: [0, 0, 0, 0]).value
        h.serviceChangedCCCD = t.cccd()
        h.clientFeatures = t.characteristic(BluetoothUUID(0x2B29), properties: 0x0A, value: [0x00]).value
        if let hash {
            h.databaseHash = t.characteristic(BluetoothUUID(0x2B2A), properties: 0x02, value: hash).value
        }
        let battery = t.secondaryService(BluetoothUUID(0x180F))
        h.batteryService = battery
        h.batteryLevel = t.characteristic(BluetoothUUID(0x2A19), properties: 0x12, value: [0x64]).value
        h.batteryCCCD = t.cccd()
        let batteryEnd = t.nextHandle - 1
        h.heartRateService = t.primaryService(BluetoothUUID(0x180D))
        t.include(serviceHandle: battery, endHandle: batteryEnd, uuid: BluetoothUUID(0x180F))
        h.measurement = t.characteristic(BluetoothUUID(0x2A37), properties: 0x10, value: [0x06, 0x48]).value
        h.measurementCCCD = t.cccd()
        h.bodySensorLocation = t.characteristic(BluetoothUUID(0x2A38), properties: 0x02, value: [0x01]).value
        h.controlPoint = t.characteristic(BluetoothUUID(0x2A39), properties: 0x08, value: [0x00]).value
        if extraCharacteristic { t.characteristic(BluetoothUUID(0x2A3A), properties: 0x02, value: [0x00]) }
        h.vendorService = t.primaryService(vendorService)
        h.vendorValue = t.characteristic(vendorCharacteristic, properties: 0x1E, value: Array(0..<40)).value
        t.cccd()
        h.vendorDescription = t.descriptor(BluetoothUUID(0x2901), Array("Vendor".utf8))
        return (t, h)
    }
}
