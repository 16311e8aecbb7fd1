import Testing
import BLECore
@testable import ATT
@testable import GATT

/// Whole-database discovery follows includes (Core v5.4, Vol 3, Part G, 4.5.1, 4.6.1, 4.7.1):
/// every service an include names, primary or secondary, has its characteristics and
/// descriptors discovered, once, with no loop on an include cycle.
@Suite("GATT client: whole-database discovery follows includes")
struct ClientIncludeDiscoveryTests {
    /// How many Read By Type «Characteristic» requests started at `handle`: how often the
    /// service there was walked.
    static func walks(of handle: UInt16, _ server: FakeGATTServer) -> Int {
        server.received.filter {
            if case .readByTypeRequest(let r) = $0 { return r.attributeType == GATTAttributeType.characteristic && r.startingHandle == handle }
            return false
        }.count
    }

    static let configuration = GATTClient.Configuration(enablesServiceChangedIndications: false, clientSupportedFeatures: [])

    @Test("a secondary service reached only through an include is discovered, and its characteristic can be subscribed to")
    func secondaryThroughInclude() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let services = try await rig.client.discoverDatabase()
        let battery = try #require(services.first { $0.handle == h.batteryService })
        #expect(!battery.isPrimary)
        let level = try #require(battery.characteristic(BluetoothUUID(0x2A19)))
        #expect(level.clientCharacteristicConfiguration?.handle == h.batteryCCCD)
        var updates = try await rig.client.notifications(for: level).makeAsyncIterator()
        #expect(rig.server.writes(to: h.batteryCCCD) == [[0x01, 0x00]])
        try await rig.serverEngine.send(.handleValueNotification(ATTHandleValueNotification(handle: h.batteryLevel, value: [0x63])))
        #expect(await updates.next()?.value == [0x63])
        await rig.close()
    }

    @Test("a service included by two services, nested includes and a cycle: each walked once")
    func sharedNestedAndCyclic() async throws {
        // 0x0001 Primary A includes S1; 0x0010 Primary B includes S1 and P; 0x0020 Secondary S1
        // includes S2; 0x0030 Secondary S2 includes S1 (a cycle); 0x0040 Primary P.
        var t = FakeGATTTable()
        t.primaryService(BluetoothUUID(0xAA01))
        t.include(serviceHandle: 0x0020, endHandle: 0x0023, uuid: BluetoothUUID(0xBB01))
        t.characteristic(BluetoothUUID(0x2A00), properties: 0x02, value: [1])
        t.skip(to: 0x0010)
        t.primaryService(BluetoothUUID(0xAA02))
        t.include(serviceHandle: 0x0020, endHandle: 0x0023, uuid: BluetoothUUID(0xBB01))
        t.include(serviceHandle: 0x0040, endHandle: 0x0042, uuid: BluetoothUUID(0xAA03))
        t.characteristic(BluetoothUUID(0x2A01), properties: 0x02, value: [2])
        t.skip(to: 0x0020)
        t.secondaryService(BluetoothUUID(0xBB01))
        t.include(serviceHandle: 0x0030, endHandle: 0x0034, uuid: BluetoothUUID(0xBB02))
        t.characteristic(BluetoothUUID(0x2A19), properties: 0x12, value: [3])
        t.skip(to: 0x0030)
        t.secondaryService(BluetoothUUID(0xBB02))
        t.include(serviceHandle: 0x0020, endHandle: 0x0023, uuid: BluetoothUUID(0xBB01))
        t.characteristic(BluetoothUUID(0x2A38), properties: 0x12, value: [4])
        let nestedCCCD = t.cccd()
        t.skip(to: 0x0040)
        t.primaryService(BluetoothUUID(0xAA03))
        t.characteristic(BluetoothUUID(0x2A39), properties: 0x02, value: [5])

        let rig = ClientRig(t, configuration: Self.configuration)
        let services = try await rig.client.discoverDatabase()
        #expect(services.map(\.handle) == [0x0001, 0x0010, 0x0020, 0x0030, 0x0040])
        #expect(services.map(\.isPrimary) == [true, true, false, false, true])
        #expect(services.map { $0.characteristics.map(\.uuid) } == [[BluetoothUUID(0x2A00)], [BluetoothUUID(0x2A01)],
                                                                      [BluetoothUUID(0x2A19)], [BluetoothUUID(0x2A38)],
                                                                      [BluetoothUUID(0x2A39)]])
        #expect(services[3].characteristics[0].clientCharacteristicConfiguration?.handle == nestedCCCD)
        for service in services {
            #expect(Self.walks(of: service.handle, rig.server) == 1, "service \(service.handle) walked once")
        }
        #expect(await rig.client.diagnostics.isEmpty)
        await rig.close()
    }

    @Test("an include naming a range that overlaps another service is not followed, with a diagnostic")
    func includeOverlappingAService() async throws {
        var t = FakeGATTTable()
        t.primaryService(BluetoothUUID(0xAA01))
        let include = t.include(serviceHandle: 0x0011, endHandle: 0x0013, uuid: BluetoothUUID(0xBB01))   // inside B
        t.characteristic(BluetoothUUID(0x2A00), properties: 0x02, value: [1])
        t.skip(to: 0x0010)
        t.primaryService(BluetoothUUID(0xAA02))
        t.characteristic(BluetoothUUID(0x2A01), properties: 0x02, value: [2])
        t.cccd()
        let rig = ClientRig(t, configuration: Self.configuration)
        let services = try await rig.client.discoverDatabase()
        #expect(services.map(\.handle) == [0x0001, 0x0010])
        #expect(services[0].includedServices.map(\.serviceHandle) == [0x0011])
        #expect(await rig.client.diagnostics == [GATTClientDiagnostic(step: .include(declarationHandle: include),
                                                                      problem: .includeOverlapsService(range: 0x0011...0x0013,
                                                                                                       conflicting: 0x0010...0x0013),
                                                                      consequence: .includeNotFollowed)])
        await rig.close()
    }

    @Test("a Service Changed that rewrites the includer drops a secondary service no include names any more")
    func orphanedSecondaryDropped() async throws {
        var t = FakeGATTTable()
        let gatt = t.genericAttributeService(hash: ClientTables.hashA)
        t.skip(to: 0x0010)
        t.secondaryService(BluetoothUUID(0xBB01))
        t.characteristic(BluetoothUUID(0x2A19), properties: 0x02, value: [3])
        t.skip(to: 0x0020)
        t.primaryService(BluetoothUUID(0xAA01))
        t.include(serviceHandle: 0x0010, endHandle: 0x0012, uuid: BluetoothUUID(0xBB01))
        t.characteristic(BluetoothUUID(0x2A00), properties: 0x02, value: [1])
        let rig = ClientRig(t)
        _ = try await rig.client.discoverDatabase()
        #expect(await rig.client.services.map(\.handle) == [0x0001, 0x0010, 0x0020])

        // The includer is rewritten without its include (the secondary service stays in the table).
        var changed = FakeGATTTable()
        changed.genericAttributeService(hash: ClientTables.hashB)
        changed.skip(to: 0x0010)
        changed.secondaryService(BluetoothUUID(0xBB01))
        changed.characteristic(BluetoothUUID(0x2A19), properties: 0x02, value: [3])
        changed.skip(to: 0x0020)
        changed.primaryService(BluetoothUUID(0xAA01))
        changed.characteristic(BluetoothUUID(0x2A00), properties: 0x02, value: [1])
        rig.server.replaceTable(changed)
        var changes = rig.client.serviceChanges.makeAsyncIterator()
        try await rig.serverEngine.indicate(ATTHandleValueIndication(handle: gatt.serviceChanged, value: [0x20, 0x00, 0x22, 0x00]))
        #expect(await changes.next() == 0x0020...0x0022)
        #expect(await rig.client.services.map(\.handle) == [0x0001, 0x0020])
        await rig.close()
    }
}
