@testable import BLE
import BLECore
import Foundation
import GATT
import Testing

/// ``Peripheral/discoverDatabase()``: the whole tree in one call, with the server's handles, and
/// what the client worked around (``Peripheral/diagnostics``).
@Suite("Whole-database discovery", .timeLimit(.minutes(1)))
struct WholeDatabaseDiscoveryTests {
    @Test("every service, include, characteristic and descriptor, at the server's handles; the primaries become services")
    func wholeTree() async throws {
        let testbed = try await BLETestbed.make(seed: 81)
        let (peripheral, _) = try await testbed.connect()
        let served = await testbed.sensor.server.database.services
        let all = try await peripheral.discoverDatabase()
        #expect(all.map(\.uuid) == served.map(\.uuid), "primary and secondary services in handle order")
        #expect(all.map(\.handleRange) == served.map(\.handleRange))
        #expect(all.map(\.isPrimary) == served.map(\.isPrimary))
        #expect(peripheral.services?.map(\.uuid) == served.filter(\.isPrimary).map(\.uuid))
        for (service, definition) in zip(all, served) {
            #expect(service.characteristics?.map(\.uuid) == definition.characteristics.map(\.uuid))
            #expect(service.characteristics?.map(\.valueHandle) == definition.characteristics.map(\.valueHandle))
            #expect(service.characteristics?.map(\.declarationHandle) == definition.characteristics.map(\.declarationHandle))
        }
        let custom = try peripheral.service(TestDatabase.custom)
        let secondary = try #require(all.first { $0.uuid == TestDatabase.secondary })
        #expect(custom.includedServices?.count == 1)
        #expect(custom.includedServices?.first === secondary, "the include is the discovered secondary service itself")
        #expect(!secondary.isPrimary)
        let long = try #require(custom.characteristics?.first { $0.uuid == TestDatabase.longValue })
        let descriptor = try #require(long.descriptors?.first)
        #expect(descriptor.uuid == TestDatabase.userDescription)
        #expect(descriptor.handle == long.valueHandle + 1)
        #expect(try await peripheral.readValue(for: descriptor) == Data("long value".utf8))
        #expect(await peripheral.diagnostics.isEmpty, "this server answers every optional step")
        await testbed.shutDown()
    }

    @Test("objects found by an earlier stepwise discovery are kept")
    func keepsObjects() async throws {
        let testbed = try await BLETestbed.make(seed: 82)
        let (peripheral, _) = try await testbed.connect()
        let battery = try #require(try await peripheral.discoverServices([TestDatabase.battery]).first)
        let level = try #require(try await peripheral.discoverCharacteristics(for: battery).first)
        let all = try await peripheral.discoverDatabase()
        #expect(all.contains { $0 === battery })
        #expect(battery.characteristics?.first === level)
        #expect(level.descriptors?.map(\.uuid) == [TestDatabase.clientConfiguration], "descriptors filled in on the kept object")
        await testbed.shutDown()
    }

    @Test("without a link: notConnected, and no diagnostics")
    func notConnected() async throws {
        let testbed = try await BLETestbed.make(seed: 83)
        let peripheral = testbed.peripheral
        await #expect(throws: BLEError.notConnected) { _ = try await peripheral.discoverDatabase() }
        #expect(await peripheral.diagnostics.isEmpty)
        await testbed.shutDown()
    }

    @Test("a diagnostic reads as the GATT client's: step, problem, consequence")
    func diagnosticText() {
        let diagnostic = PeripheralDiagnostic(GATTClientDiagnostic(
            step: .clientSupportedFeaturesWrite,
            problem: .failed(.errorResponse(request: .writeRequest, handle: 0x000B, code: .writeNotPermitted)),
            consequence: .clientSupportedFeaturesNotWritten))
        #expect(diagnostic.step == "Client Supported Features write (Core v5.4, Vol 3, Part G, 7.2)")
        #expect(diagnostic.description == "Client Supported Features write (Core v5.4, Vol 3, Part G, 7.2): Write Request handle 0x000b: "
                + "Write Not Permitted (0x03); Client Supported Features is not written on this connection")
    }
}
