@testable import BLE
import BLECore
import BLETestSupport
import Foundation
import Synchronization
import Testing
import VirtualRadio

/// Writes without response wait for ACL credits and are never dropped.
@Suite("Writes without response", .timeLimit(.minutes(1)))
struct WriteWithoutResponseTests {
    @Test("under load (4 ACL buffers of 27 octets, reads and writes meanwhile) every write without response arrives, in order")
    func nothingLost() async throws {
        let testbed = try await BLETestbed.make(seed: 81)
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let data = try peripheral.characteristic(TestDatabase.dataIn)
        let long = try peripheral.characteristic(TestDatabase.longValue)
        let values = (0..<300).map { index in Data((0..<100).map { UInt8(truncatingIfNeeded: index &+ $0) }) }
        async let reads: Int = {
            var count = 0
            for _ in 0..<20 {
                if try await peripheral.readValue(for: long) == Data(TestDatabase.long) { count += 1 }
            }
            return count
        }()
        for value in values {
            try await peripheral.writeValue(value, for: data, type: .withoutResponse)
        }
        #expect(try await reads == 20)
        // A write request after them: the server has handled every command before it answers.
        try await peripheral.writeValue(Data([0xEE]), for: data, type: .withResponse)
        #expect(testbed.gatt.dataLog.values == values.map { [UInt8]($0) } + [[0xEE]])
        await testbed.shutDown()
    }

    @Test("with every place taken canSendWriteWithoutResponse is false; readyToSend says when there is room again")
    func readiness() async throws {
        let testbed = try await BLETestbed.make(seed: 82, speed: 10)   // the 4 s supervision timeout is 0.4 s of real time
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let data = try peripheral.characteristic(TestDatabase.dataIn)
        let link = try peripheral.connectedLink()
        var ready = peripheral.readyToSendWriteWithoutResponse.makeAsyncIterator()
        testbed.sensor.controller.setInRange(false)   // no ACL credits come back meanwhile
        let writes = (0..<12).map { index in
            Task { try await peripheral.writeValue(Data([UInt8(index)]), for: data, type: .withoutResponse) }
        }
        await link.window.untilFull()
        #expect(!peripheral.canSendWriteWithoutResponse)
        testbed.sensor.controller.setInRange(true)
        #expect(await ready.next() != nil)
        for write in writes { try await write.value }
        #expect(peripheral.canSendWriteWithoutResponse)
        try await peripheral.writeValue(Data([0xEE]), for: data, type: .withResponse)
        #expect(Set(testbed.gatt.dataLog.values) == Set((0..<12).map { [UInt8($0)] } + [[0xEE]]))
        #expect(testbed.gatt.dataLog.values.count == 13)
        await testbed.shutDown()
    }

    @Test("writes waiting for a place whose tasks are cancelled throw cancelled and are never sent; the writes that had places arrive")
    func cancelledWhileWaiting() async throws {
        let testbed = try await BLETestbed.make(seed: 83, speed: 1)   // out of range for well under the 4 s supervision timeout
        let (peripheral, _) = try await testbed.connectAndDiscover()
        let data = try peripheral.characteristic(TestDatabase.dataIn)
        let link = try peripheral.connectedLink()
        testbed.sensor.controller.setInRange(false)   // no ACL credits come back meanwhile
        final class Counter: Sendable { let value = Mutex(0) }
        let returned = Counter()
        let writes = (0..<20).map { index in
            Task { () throws -> UInt8 in
                try await peripheral.writeValue(Data([UInt8(index)]), for: data, type: .withoutResponse)
                returned.value.withLock { $0 += 1 }
                return UInt8(index)
            }
        }
        // Settled: the controller's buffers took as many writes as it has ACL buffers, eight
        // hold places, the rest wait; with no credit coming back, nothing moves from here.
        let buffers = Int(VirtualControllerConfiguration().totalNumACLDataPackets)     // the central's controller: the default
        #expect(await eventually {
            !link.window.hasRoom && returned.value.withLock { $0 } == buffers
                && buffers + WriteWithoutResponseWindow.places + link.window.waitingCount == writes.count
        })
        let waiting = link.window.waitingCount
        #expect(waiting > 0)
        for write in writes { write.cancel() }
        var sent: [UInt8] = [], cancelled = 0
        testbed.sensor.controller.setInRange(true)
        for write in writes {
            do {
                sent.append(try await write.value)
            } catch let error as BLEError where error == .cancelled {
                cancelled += 1
            } catch {
                Issue.record("a write failed with \(error)")
            }
        }
        #expect(cancelled == waiting)
        #expect(cancelled + sent.count == writes.count)
        try await peripheral.writeValue(Data([0xEE]), for: data, type: .withResponse)
        #expect(Set(testbed.gatt.dataLog.values) == Set(sent.map { [$0] } + [[0xEE]]))
        #expect(testbed.gatt.dataLog.values.count == sent.count + 1)
        #expect(link.window.waitingCount == 0)
        #expect(link.window.abandonedCount == 0)
        await testbed.shutDown()
    }
}
