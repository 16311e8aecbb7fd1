@testable import BLE
import BLECore
import Foundation
import GATT
import Testing

/// Choosing notifications or indications (``Peripheral/setNotifyValue(_:for:kind:)``), and
/// telling them apart (``Peripheral/valueUpdates(for:)``).
@Suite("Notification and indication kinds", .timeLimit(.minutes(1)))
struct ValueUpdateKindTests {
    @Test("each value says whether it came as a notification or an indication")
    func kinds() async throws {
        let testbed = try await BLETestbed.make(seed: 91)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)
        let alerts = try peripheral.characteristic(TestDatabase.alerts)
        let levels = peripheral.valueUpdates(for: level)
        let alerting = peripheral.valueUpdates(for: alerts)
        try await peripheral.setNotifyValue(true, for: level, kind: .notification)
        try await peripheral.setNotifyValue(true, for: alerts, kind: .indication)
        _ = try await testbed.sensor.server.notify([50], for: testbed.gatt.valueHandle(TestDatabase.batteryLevel))
        let report = try await testbed.sensor.server.indicate([0xAB], for: testbed.gatt.valueHandle(TestDatabase.alerts))
        #expect(report.delivered.count == 1, "confirmed")
        var first = levels.makeAsyncIterator(), second = alerting.makeAsyncIterator()
        #expect(try await first.next() == ValueUpdate(value: Data([50]), kind: .notification))
        #expect(try await second.next() == ValueUpdate(value: Data([0xAB]), kind: .indication))
        #expect(alerts.value == Data([0xAB]))
        await testbed.shutDown()
    }

    @Test("a kind the characteristic lacks is refused with nothing written; the kind already on is not written again")
    func refusals() async throws {
        let testbed = try await BLETestbed.make(seed: 92)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)       // read, notify
        let alerts = try peripheral.characteristic(TestDatabase.alerts)             // indicate
        let before = testbed.sensor.received(onLink: 0).count
        await #expect(throws: BLEError.self) { try await peripheral.setNotifyValue(true, for: level, kind: .indication) }
        await #expect(throws: BLEError.self) { try await peripheral.setNotifyValue(true, for: alerts, kind: .notification) }
        #expect(testbed.sensor.received(onLink: 0).count == before, "no CCCD write was sent")
        try await peripheral.setNotifyValue(true, for: level)
        let written = testbed.sensor.received(onLink: 0).count
        try await peripheral.setNotifyValue(true, for: level, kind: .notification)   // already so: nothing to do
        #expect(level.isNotifying)
        #expect(testbed.sensor.received(onLink: 0).count == written, "the CCCD is not written twice")
        await testbed.shutDown()
    }
}
