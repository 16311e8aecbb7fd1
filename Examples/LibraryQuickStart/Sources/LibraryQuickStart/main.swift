import ATT
import BLECore
import GATT
import HCI

// 1. Decode an advertising payload: Flags, a 16-bit service UUID list, a Complete Local Name.
let payload: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0x0D, 0x18, 0x05, 0x09, 0x48, 0x52, 0x2D, 0x31]
let advertisement = AdvertisingData(decoding: payload)
print("name:", advertisement.localName?.string ?? "none")
print("services:", advertisement.serviceUUIDs.map(\.description).joined(separator: ", "))

// 2. A GATT server and a GATT client talking in memory: the client discovers the server's
//    Battery service and reads its level.
let database = try GATTDatabase(jsonText: """
    { "services": [ { "uuid": "180F", "characteristics": [
        { "uuid": "2A19", "properties": ["read"], "value": { "hex": "64" } } ] } ] }
    """)
let server = try GATTServer(database: database)
let (serverEnd, clientEnd) = InMemoryATTBearer.pair()
_ = await server.connect(serverEnd)
let client = GATTClient(engine: ATTEngine(bearer: clientEnd))
print("ATT_MTU:", try await client.exchangeMTU())
let level = try await client.read(characteristicUUID: BluetoothUUID("2A19")!)
print("Battery Level:", level.first.map { "\($0.value[0]) %" } ?? "none")
await client.close()
