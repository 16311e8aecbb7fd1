@testable import BLE
import ATT
import BLECore
import Foundation
import HCI
import Testing
import VirtualRadio

/// What a connection tells beside Core Bluetooth (`blectl demo` prints it): its handle and
/// parameters, the ATT PDUs it sent, the database from the cache on a reconnection, and the
/// Reason it ended with.
@Suite("Peripheral: the connection's details", .timeLimit(.minutes(1)))
struct ConnectionDetailsTests {
    @Test("a connection tells its handle and parameters, counts the ATT PDUs it sent, and the Reason it ended with is kept")
    func detailsAndReason() async throws {
        let testbed = try await BLETestbed.make(seed: 81)
        let peripheral = testbed.peripheral
        #expect(peripheral.disconnectionReason == nil)
        #expect(peripheral.connectionHandle == nil)
        let (_, link) = try await testbed.connect()
        #expect(peripheral.connectionHandle != nil, "the central's own handle (each controller numbers its links)")
        #expect(peripheral.connectionParameters?.connectionInterval == link.state.connectionInterval, "both ends of a link share its timing")
        #expect(peripheral.connectionParameters?.supervisionTimeout == link.state.supervisionTimeout)
        #expect(peripheral.attPDUCounts.sent(.exchangeMTURequest) == 1, "connecting exchanged the MTU")
        #expect(peripheral.attPDUCounts.requests == 1)
        let services = try await peripheral.discoverServices()
        _ = try await peripheral.discoverCharacteristics(for: services[0])
        let counts = peripheral.attPDUCounts
        #expect(counts.sent(.readByGroupTypeRequest) >= 1)
        #expect(counts.sent(.readByTypeRequest) >= 1)
        #expect(counts.requests == counts.sent.values.reduce(0, +), "a client sends only requests here")
        await testbed.central.cancelPeripheralConnection(peripheral)
        #expect(peripheral.disconnectionReason == .connectionTerminatedByLocalHost)
        #expect(peripheral.connectionHandle == nil)
        #expect(peripheral.attPDUCounts == ATTPDUCounts())
        _ = try await testbed.connect()
        #expect(peripheral.disconnectionReason == nil, "connected again")
        await testbed.shutDown()
    }

    @Test("a reconnection takes the database from the manager's cache when its Database Hash is unchanged: one read")
    func cachedReconnection() async throws {
        let testbed = try await BLETestbed.make(seed: 82)
        let peripheral = testbed.peripheral
        _ = try await testbed.connect()
        let first = try await peripheral.discoverDatabase()
        #expect(await !peripheral.databaseFromCache)
        await testbed.central.cancelPeripheralConnection(peripheral)
        _ = try await testbed.connect()
        let before = peripheral.attPDUCounts
        let again = try await peripheral.discoverDatabase()
        #expect(await peripheral.databaseFromCache)
        let after = peripheral.attPDUCounts
        #expect(after.requests - before.requests - (after.sent(.writeRequest) - before.sent(.writeRequest)) == 1, "the Database Hash read")
        #expect(again.map(\.uuid) == first.map(\.uuid))
        let handlesAgain: [UInt16] = again.flatMap { $0.characteristics ?? [] }.map(\.valueHandle)
        let handlesFirst: [UInt16] = first.flatMap { $0.characteristics ?? [] }.map(\.valueHandle)
        #expect(handlesAgain == handlesFirst)
        await testbed.shutDown()
    }
}
