@testable import BLE
import BLECore
import Foundation
import Testing

/// Reads and writes through a Peripheral: long values whole, descriptors, writes with and
/// without response, and the errors a server gives.
@Suite("Reads and writes", .timeLimit(.minutes(1)))
struct ReadWriteTests {
    @Test("at ATT_MTU 23 a 300-octet value is read whole, in parts, and kept as the characteristic's value")
    func longRead() async throws {
        let testbed = try await BLETestbed.make(seed: 61, options: .init(attMTU: 23))
        let (peripheral, _) = try await testbed.connectAndDiscover()
        #expect(peripheral.mtu == 23)
        let long = try peripheral.characteristic(TestDatabase.longValue)
        #expect(long.value == nil)
        let value = try await peripheral.readValue(for: long)
        #expect(value == Data(TestDatabase.long))
        #expect(long.value == value)
        let description = try #require(long.descriptors?.first)
        #expect(try await peripheral.readValue(for: description) == Data("long value".utf8))
        #expect(description.value == Data("long value".utf8))
        #expect(try await peripheral.readValue(for: try peripheral.characteristic(TestDatabase.bodySensorLocation)) == Data([0x01]))
        await testbed.shutDown()
    }

    @Test("a write with response returns once answered; a value longer than ATT_MTU - 3 is written long, whole")
    func writesWithResponse() async throws {
        let testbed = try await BLETestbed.make(seed: 62, options: .init(attMTU: 23))
        let (peripheral, _) = try await testbed.connectAndDiscover()
        try await peripheral.writeValue(Data([0x01]), for: try peripheral.characteristic(TestDatabase.controlPoint), type: .withResponse)
        #expect(testbed.gatt.controlLog.values == [[0x01]])
        let long = Data((0..<200).map { UInt8($0) })
        try await peripheral.writeValue(long, for: try peripheral.characteristic(TestDatabase.dataIn), type: .withResponse)
        let parts = testbed.gatt.dataLog.writes
        #expect(parts.count == 12, "200 octets in Prepare Write Requests of ATT_MTU - 5 = 18 octets: 11 full, then 2")
        #expect(parts.map(\.offset) == Array(stride(from: 0, to: 200, by: 18)))
        #expect(Data(parts.flatMap(\.value)) == long)
        await testbed.shutDown()
    }

    @Test("the server's refusals arrive as att errors with the handle; bad writes are refused before anything is sent")
    func refusals() async throws {
        let testbed = try await BLETestbed.make(seed: 63)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let location = try peripheral.characteristic(TestDatabase.bodySensorLocation)
        let handle = testbed.gatt.valueHandle(TestDatabase.bodySensorLocation)
        await #expect(throws: BLEError.att(.writeNotPermitted, handle: handle)) {
            try await peripheral.writeValue(Data([0x02]), for: location, type: .withResponse)
        }
        let control = try peripheral.characteristic(TestDatabase.controlPoint)
        await #expect(throws: BLEError.att(.readNotPermitted, handle: testbed.gatt.valueHandle(TestDatabase.controlPoint))) {
            _ = try await peripheral.readValue(for: control)
        }
        let noCommand = await #expect(throws: BLEError.self) {
            try await peripheral.writeValue(Data([0x01]), for: control, type: .withoutResponse)
        }
        #expect(noCommand?.description.contains("Write Without Response") == true)
        let tooLong = await #expect(throws: BLEError.self) {
            try await peripheral.writeValue(Data(count: 515), for: try peripheral.characteristic(TestDatabase.dataIn), type: .withoutResponse)
        }
        #expect(tooLong?.description.contains("at most 514") == true)
        await #expect(throws: BLEError.self) {
            try await peripheral.writeValue(Data(count: 513), for: try peripheral.characteristic(TestDatabase.dataIn), type: .withResponse)
        }
        let configuration = try #require(try peripheral.characteristic(TestDatabase.alerts).descriptors?.first)
        await #expect(throws: BLEError.self) { try await peripheral.writeValue(Data([0x02, 0x00]), for: configuration) }
        #expect(testbed.gatt.controlLog.values.isEmpty)
        #expect(testbed.gatt.dataLog.values.isEmpty)
        await testbed.shutDown()
    }
}
