import ATT
import BLECore
import GATT
import Synchronization

/// What clients wrote to a dynamic value, in arrival order: each write's offset and octets.
final class WriteLog: Sendable {
    private let entries = Mutex<[(offset: Int, value: [UInt8])]>([])

    /// Every write so far.
    var writes: [(offset: Int, value: [UInt8])] { entries.withLock { $0 } }
    /// The values written so far, offsets left out.
    var values: [[UInt8]] { writes.map(\.value) }

    /// Handlers that record each write.
    var handlers: GATTValueHandlers {
        GATTValueHandlers(name: "log", write: { value, offset, _ in self.entries.withLock { $0.append((offset, value)) } })
    }
}

/// The sensors' GATT database in the BLE tests, and the UUIDs that name its parts.
///
/// ```
/// 0x0001 Primary Service 180D (Heart Rate)
///          2A37 Heart Rate Measurement [notify]          + CCCD
///          2A38 Body Sensor Location [read] = 01
///          2A39 Heart Rate Control Point [write]          -> controlLog
/// 0x....   Primary Service 8D3C0001-...                   includes the secondary 8D3C0100-...
///          8D3C0002 long value [read] = 300 octets 00 01 02 ...   + User Description "long value"
///          8D3C0003 data in [write, writeWithoutResponse]  -> dataLog
///          8D3C0004 alerts [indicate]                      + CCCD
/// 0x....   Secondary Service 8D3C0100-...
///          8D3C0101 inside [read] = "inside"
/// 0x....   Primary Service 180F (Battery)
///          2A19 Battery Level [read, notify] = 64          + CCCD
/// ```
struct TestDatabase {
    static let heartRate = BluetoothUUID(0x180D)
    static let measurement = BluetoothUUID(0x2A37)
    static let bodySensorLocation = BluetoothUUID(0x2A38)
    static let controlPoint = BluetoothUUID(0x2A39)
    static let custom = BluetoothUUID("8D3C0001-5A1B-4C2D-9E3F-00A0C9B1E2F3")!
    static let longValue = BluetoothUUID("8D3C0002-5A1B-4C2D-9E3F-00A0C9B1E2F3")!
    static let dataIn = BluetoothUUID("8D3C0003-5A1B-4C2D-9E3F-00A0C9B1E2F3")!
    static let alerts = BluetoothUUID("8D3C0004-5A1B-4C2D-9E3F-00A0C9B1E2F3")!
    static let secondary = BluetoothUUID("8D3C0100-5A1B-4C2D-9E3F-00A0C9B1E2F3")!
    static let inside = BluetoothUUID("8D3C0101-5A1B-4C2D-9E3F-00A0C9B1E2F3")!
    static let battery = BluetoothUUID(0x180F)
    static let batteryLevel = BluetoothUUID(0x2A19)
    static let userDescription = BluetoothUUID(0x2901)
    static let clientConfiguration = BluetoothUUID(0x2902)

    /// The long value: 300 octets counting up from 0.
    static let long = (0..<300).map { UInt8(truncatingIfNeeded: $0) }

    let database: GATTDatabase
    let controlLog = WriteLog()
    let dataLog = WriteLog()

    init() throws {
        database = try GATTDatabase(services: [
            .primary(Self.heartRate, characteristics: [
                GATTCharacteristicDefinition(uuid: Self.measurement, properties: [.notify], value: .fixed([0x00, 60])),
                GATTCharacteristicDefinition(uuid: Self.bodySensorLocation, properties: [.read], value: .fixed([0x01])),
                GATTCharacteristicDefinition(uuid: Self.controlPoint, properties: [.write], value: .dynamic(controlLog.handlers)),
            ]),
            .primary(Self.custom, includes: [GATTIncludeDefinition("secondary")], characteristics: [
                GATTCharacteristicDefinition(uuid: Self.longValue, properties: [.read], value: .fixed(Self.long),
                                             descriptors: [.userDescription("long value")]),
                GATTCharacteristicDefinition(uuid: Self.dataIn, properties: [.write, .writeWithoutResponse],
                                             value: .dynamic(dataLog.handlers)),
                GATTCharacteristicDefinition(uuid: Self.alerts, properties: [.indicate], value: .fixed([0x00])),
            ]),
            .secondary(Self.secondary, id: "secondary", characteristics: [
                GATTCharacteristicDefinition(uuid: Self.inside, properties: [.read], value: .text("inside")),
            ]),
            .primary(Self.battery, characteristics: [
                GATTCharacteristicDefinition(uuid: Self.batteryLevel, properties: [.read, .notify], value: .fixed([0x64])),
            ]),
        ])
    }
}

extension TestDatabase {
    /// The value handle of the characteristic with `uuid` on the sensor's server.
    func valueHandle(_ uuid: BluetoothUUID) -> UInt16 {
        database.characteristics(uuid)[0].valueHandle
    }
}
