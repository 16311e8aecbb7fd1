@testable import BLE
import BLECore
import Foundation
import GATT
import Testing

/// Notifications and indications through a Peripheral: the CCCD write, values in order and apart
/// from reads, turning them off, and confirmed indications.
@Suite("Notifications", .timeLimit(.minutes(1)))
struct NotificationTests {
    @Test("notified values arrive in order on every stream, apart from read results; turning off finishes the streams")
    func notifications() async throws {
        let testbed = try await BLETestbed.make(seed: 71)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)
        let first = peripheral.notifications(for: level)
        let second = peripheral.notifications(for: level)
        try await peripheral.setNotifyValue(true, for: level)
        #expect(level.isNotifying)
        let handle = testbed.gatt.valueHandle(TestDatabase.batteryLevel)
        #expect(try await peripheral.readValue(for: level) == Data([0x64]), "a read is answered, not notified")
        for percent: UInt8 in [90, 80, 70] {
            let report = try await testbed.sensor.server.notify([percent], for: handle)
            #expect(report.delivered.count == 1)
        }
        var values: [Data] = []
        for try await value in first {
            values.append(value)
            if values.count == 3 { break }
        }
        #expect(values == [Data([90]), Data([80]), Data([70])])
        #expect(level.value == Data([70]))
        try await peripheral.setNotifyValue(false, for: level)
        #expect(!level.isNotifying)
        var fromSecond: [Data] = []
        for try await value in second { fromSecond.append(value) }   // finishes: notifications are off
        #expect(fromSecond == values)
        let report = try await testbed.sensor.server.notify([60], for: handle)
        #expect(report.delivered.isEmpty, "the CCCD was written back to 0x0000")
        await testbed.shutDown()
    }

    @Test("turning notifications off that the server refuses throws its ATT error; the values stop all the same")
    func refusedOff() async throws {
        let testbed = try await BLETestbed.make(seed: 166)
        let (peripheral, link) = try await testbed.connectAndDiscover()
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)
        try await peripheral.setNotifyValue(true, for: level)
        let configuration = try #require(level.descriptors?.first { $0.uuid == TestDatabase.clientConfiguration }).handle
        let held = testbed.sensor.hold { $0.first == 0x12 }          // the server never sees the write;
        let off = Task { try await peripheral.setNotifyValue(false, for: level) }
        _ = await held.reached()
        // the sensor's side answers it: Error Response to the Write Request, Write Not Permitted
        try await link.att.send([0x01, 0x12, UInt8(configuration & 0xFF), UInt8(configuration >> 8), 0x03])
        await #expect(throws: BLEError.att(.writeNotPermitted, handle: configuration)) { try await off.value }
        #expect(!level.isNotifying)
        testbed.sensor.release()
        await testbed.shutDown()
    }

    @Test("turning notifications off while turning them on is under way waits for it, then turns them off: call order holds")
    func offWhileTurningOn() async throws {
        // At the radio's real pace: the held CCCD write waits through 1,000 yields, which a
        // loaded machine can stretch past the 30 s ATT timeout at the default 10 times real time.
        let testbed = try await BLETestbed.make(seed: 74, speed: 1)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)
        let held = testbed.sensor.hold { $0.first == 0x12 }          // ATT_WRITE_REQ: the CCCD write waits
        let on = Task { try await peripheral.setNotifyValue(true, for: level) }
        _ = await held.reached()
        let off = Task { try await peripheral.setNotifyValue(false, for: level) }
        for _ in 0..<1000 { await Task.yield() }                      // every chance for "off" to overtake
        testbed.sensor.release()
        held.passOn()
        try await on.value
        try await off.value
        #expect(!level.isNotifying)
        let report = try await testbed.sensor.server.notify([60], for: testbed.gatt.valueHandle(TestDatabase.batteryLevel))
        #expect(report.delivered.isEmpty, "the CCCD was written back to 0x0000 after the on")
        await testbed.shutDown()
    }

    @Test("an indication is confirmed before the server's call returns, and delivered")
    func indications() async throws {
        let testbed = try await BLETestbed.make(seed: 72)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let alerts = try peripheral.characteristic(TestDatabase.alerts)
        let stream = peripheral.notifications(for: alerts)
        try await peripheral.setNotifyValue(true, for: alerts)
        let report = try await testbed.sensor.server.indicate([0xCA, 0xFE], for: testbed.gatt.valueHandle(TestDatabase.alerts))
        #expect(report.delivered.count == 1, "confirmed: \(report)")
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next() == Data([0xCA, 0xFE]))
        await testbed.shutDown()
    }

    @Test("a characteristic without Notify or Indicate cannot be subscribed; a stream without a link throws notConnected")
    func refusals() async throws {
        let testbed = try await BLETestbed.make(seed: 73)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let location = try peripheral.characteristic(TestDatabase.bodySensorLocation)
        await #expect(throws: BLEError.self) { try await peripheral.setNotifyValue(true, for: location) }
        await testbed.central.cancelPeripheralConnection(peripheral)
        var iterator = peripheral.notifications(for: location).makeAsyncIterator()
        await #expect(throws: BLEError.notConnected) { _ = try await iterator.next() }
        await #expect(throws: BLEError.notConnected) { try await peripheral.setNotifyValue(true, for: location) }
        await testbed.shutDown()
    }
}
