@testable import BLE
import BLECore
import Foundation
import BLETestSupport
import HCI
import Testing

/// Every pending call and every stream of a peripheral ends exactly once when its link drops,
/// with `.disconnected(reason)` (a second resumption of a call would trap).
@Suite("Disconnections", .timeLimit(.minutes(1)))
struct DisconnectionTests {
    /// A call that the sensor leaves pending by withholding its request from the GATT server.
    enum PendingCall: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case discoverAllServices, discoverServiceByUUID, discoverIncludedServices, discoverCharacteristics, discoverDescriptors
        case readLongValueBetweenParts, readDescriptor, writeWithResponse, writeLongBeforeExecute
        case enableNotifications, disableNotifications

        var testDescription: String { rawValue }

        /// The opcode of the request the sensor withholds.
        var opcode: UInt8 {
            switch self {
            case .discoverAllServices: return 0x10            // ATT_READ_BY_GROUP_TYPE_REQ
            case .discoverServiceByUUID: return 0x06          // ATT_FIND_BY_TYPE_VALUE_REQ
            case .discoverIncludedServices, .discoverCharacteristics: return 0x08   // ATT_READ_BY_TYPE_REQ
            case .discoverDescriptors: return 0x04            // ATT_FIND_INFORMATION_REQ
            case .readLongValueBetweenParts: return 0x0C      // ATT_READ_BLOB_REQ, after the first part
            case .readDescriptor: return 0x0A                 // ATT_READ_REQ
            case .writeWithResponse, .enableNotifications, .disableNotifications: return 0x12   // ATT_WRITE_REQ
            case .writeLongBeforeExecute: return 0x18         // ATT_EXECUTE_WRITE_REQ, after the prepares
            }
        }

        /// What must hold before the call (a subscription to end).
        func prepare(_ peripheral: Peripheral) async throws {
            if self == .disableNotifications { try await peripheral.setNotifyValue(true, for: try peripheral.characteristic(TestDatabase.batteryLevel)) }
        }

        /// The call, on the attributes of the current connection.
        func call(on peripheral: Peripheral) throws -> @Sendable () async throws -> Void {
            switch self {
            case .discoverAllServices:
                return { _ = try await peripheral.discoverServices() }
            case .discoverServiceByUUID:
                return { _ = try await peripheral.discoverServices([TestDatabase.battery]) }
            case .discoverIncludedServices:
                let custom = try peripheral.service(TestDatabase.custom)
                return { _ = try await peripheral.discoverIncludedServices(for: custom) }
            case .discoverCharacteristics:
                let heartRate = try peripheral.service(TestDatabase.heartRate)
                return { _ = try await peripheral.discoverCharacteristics(for: heartRate) }
            case .discoverDescriptors:
                let long = try peripheral.characteristic(TestDatabase.longValue)
                return { _ = try await peripheral.discoverDescriptors(for: long) }
            case .readLongValueBetweenParts:
                let long = try peripheral.characteristic(TestDatabase.longValue)
                return { _ = try await peripheral.readValue(for: long) }
            case .readDescriptor:
                let description = try #require(try peripheral.characteristic(TestDatabase.longValue).descriptors?.first)
                return { _ = try await peripheral.readValue(for: description) }
            case .writeWithResponse:
                let control = try peripheral.characteristic(TestDatabase.controlPoint)
                return { try await peripheral.writeValue(Data([0x01]), for: control, type: .withResponse) }
            case .writeLongBeforeExecute:
                let data = try peripheral.characteristic(TestDatabase.dataIn)
                return { try await peripheral.writeValue(Data(count: 100), for: data, type: .withResponse) }
            case .enableNotifications:
                let level = try peripheral.characteristic(TestDatabase.batteryLevel)
                return { try await peripheral.setNotifyValue(true, for: level) }
            case .disableNotifications:
                let level = try peripheral.characteristic(TestDatabase.batteryLevel)
                return { try await peripheral.setNotifyValue(false, for: level) }
            }
        }
    }

    @Test("a link dropped in the middle of a pending call ends it once, with disconnected and the peripheral's reason",
          arguments: PendingCall.allCases)
    func dropDuringCall(_ call: PendingCall) async throws {
        let testbed = try await BLETestbed.make(seed: 91, options: .init(attMTU: 23))
        var events = testbed.central.events.makeAsyncIterator()
        let (peripheral, link) = try await testbed.connectAndDiscover()
        try await call.prepare(peripheral)
        let run = try call.call(on: peripheral)
        let held = testbed.sensor.hold { $0.first == call.opcode }
        let pending = Task { try await run() }
        #expect(await held.reached()?.first == call.opcode)
        #expect(peripheral.pendingCallCount == 1)
        try await link.disconnect(reason: .remoteUserTerminatedConnection)
        await #expect(throws: BLEError.disconnected(.remoteUserTerminatedConnection)) { try await pending.value }
        guard case .connected = await events.next(), case .disconnected(let gone, let error) = await events.next() else {
            throw TestSensorError.stopped
        }
        #expect(gone === peripheral)
        #expect(error == .disconnected(.remoteUserTerminatedConnection))
        #expect(peripheral.state == .disconnected)
        await #expect(throws: BLEError.notConnected) { try await run() }
        await testbed.shutDown()
    }

    @Test("turning notifications off when the peripheral never answers the CCCD write: transaction timeout, and the link ends")
    func unsubscribeTimesOut() async throws {
        let testbed = try await BLETestbed.make(seed: 95)
        var events = testbed.central.events.makeAsyncIterator()
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)
        try await peripheral.setNotifyValue(true, for: level)
        _ = testbed.sensor.hold { $0.first == 0x12 }                  // ATT_WRITE_REQ: never answered
        await #expect(throws: BLEError.transactionTimeout) { try await peripheral.setNotifyValue(false, for: level) }
        guard case .connected = await events.next(), case .disconnected = await events.next() else {
            throw TestSensorError.stopped
        }
        #expect(peripheral.state == .disconnected)
        await testbed.shutDown()
    }

    @Test("notifications sent just before the peripheral ends the link all reach the stream, before it ends with disconnected")
    func notificationsBeforeTheEnd() async throws {
        let testbed = try await BLETestbed.make(seed: 94)
        let (peripheral, link) = try await testbed.connectAndDiscover()
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)
        var notified = peripheral.notifications(for: level).makeAsyncIterator()
        try await peripheral.setNotifyValue(true, for: level)
        let handle = testbed.gatt.valueHandle(TestDatabase.batteryLevel)
        for value in UInt8(0)..<20 { _ = try await testbed.sensor.server.notify([value], for: handle) }
        // Every notification on the air, none left in the sensor's controller (a controller
        // that ends a link may drop what it has not sent); the central's host may still be
        // taking them in when its Disconnection Complete comes.
        #expect(await eventually { testbed.sensor.controller.aclBuffersInUse == 0 })
        try await link.disconnect(reason: .remoteUserTerminatedConnection)
        var values: [UInt8] = []
        do {
            while let value = try await notified.next() { values.append(contentsOf: value) }
            Issue.record("the stream finished without an error")
        } catch let error as BLEError {
            #expect(error == .disconnected(.remoteUserTerminatedConnection))
        }
        #expect(values == Array(0..<20))
        await testbed.shutDown()
    }

    @Test("a connect made as soon as a pending call ends with the link's drop connects anew, after the disconnected event")
    func connectRightAfterDrop() async throws {
        let testbed = try await BLETestbed.make(seed: 93)
        var events = testbed.central.events.makeAsyncIterator()
        let (peripheral, link) = try await testbed.connectAndDiscover()
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)
        let held = testbed.sensor.hold { $0.first == 0x0A }           // ATT_READ_REQ
        let pending = Task { try await peripheral.readValue(for: level) }
        #expect(await held.reached()?.first == 0x0A)
        try await link.disconnect(reason: .remoteUserTerminatedConnection)
        await #expect(throws: BLEError.disconnected(.remoteUserTerminatedConnection)) { try await pending.value }
        testbed.sensor.release()
        // At once: the manager may not have taken the link's end in yet.
        _ = try await testbed.connect()
        #expect(peripheral.state == .connected)
        let fresh = try #require(try await peripheral.discoverServices([TestDatabase.battery]).first)
        let newLevel = try #require(try await peripheral.discoverCharacteristics(for: fresh).first)
        #expect(try await peripheral.readValue(for: newLevel) == Data([0x64]))
        guard case .connected = await events.next(), case .disconnected(_, let error) = await events.next(),
              case .connected = await events.next() else {
            throw TestSensorError.stopped
        }
        #expect(error == .disconnected(.remoteUserTerminatedConnection))
        await testbed.shutDown()
    }

    @Test("a link that times out ends writes waiting for ACL credits, the notification streams and readiness, each once")
    func supervisionTimeout() async throws {
        let testbed = try await BLETestbed.make(seed: 92)
        var events = testbed.central.events.makeAsyncIterator()
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let level = try peripheral.characteristic(TestDatabase.batteryLevel)
        var notified = peripheral.notifications(for: level).makeAsyncIterator()
        try await peripheral.setNotifyValue(true, for: level)
        _ = try await testbed.sensor.server.notify([50], for: testbed.gatt.valueHandle(TestDatabase.batteryLevel))
        #expect(try await notified.next() == Data([50]))
        var ready = peripheral.readyToSendWriteWithoutResponse.makeAsyncIterator()
        let data = try peripheral.characteristic(TestDatabase.dataIn)

        testbed.sensor.controller.setInRange(false)
        let writes = (0..<12).map { index in
            Task { () -> BLEError? in
                do throws(BLEError) {
                    try await peripheral.writeValue(Data([UInt8(index)]), for: data, type: .withoutResponse)
                    return nil
                } catch {
                    return error
                }
            }
        }
        await #expect(throws: BLEError.disconnected(.connectionTimeout)) { _ = try await notified.next() }
        var failures: [BLEError] = []
        for write in writes { if let error = await write.value { failures.append(error) } }
        #expect(failures.count >= 4, "the controller holds 4 packets; the rest wait for credits that never come")
        #expect(failures.allSatisfy { $0 == .disconnected(.connectionTimeout) })
        let readiness: Void? = await ready.next()
        #expect(readiness == nil, "readiness finishes with the link")
        #expect(!level.isNotifying)
        #expect(!peripheral.canSendWriteWithoutResponse)
        guard case .connected = await events.next(), case .disconnected(_, let error) = await events.next() else {
            throw TestSensorError.stopped
        }
        #expect(error == .disconnected(.connectionTimeout))
        await testbed.shutDown()
    }
}
