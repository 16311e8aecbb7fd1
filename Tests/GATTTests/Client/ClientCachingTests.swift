import Testing
import BLECore
import Synchronization
@testable import ATT
@testable import GATT
import BLETestSupport

/// Robust caching (Core v5.4, Vol 3, Part G, 2.5.2, 7.2, 7.3), Database Out Of Sync recovery
/// (2.5.2.1) and Service Changed (7.1), against ClientTables.standard (Service Changed value
/// 0x0008 and CCCD 0x0009, Client Supported Features 0x000b, Database Hash 0x000d).
@Suite("GATT client: caching and service changes")
struct ClientCachingTests {
    let peer = GATTPeerIdentity(address: BluetoothAddress(0xC0FF_EE12_3456), isRandom: true)
    let hashA = Hex.encode(ClientTables.hashA)
    let hashB = Hex.encode(ClientTables.hashB)

    @Test("a cold discovery fills the cache; a reconnection with the same hash reads only the hash")
    func cacheHit() async throws {
        let cache = InMemoryGATTClientCache()
        let (table, h) = ClientTables.standard()
        let configuration = GATTClient.Configuration(cache: cache, peer: peer)

        let cold = ClientRig(table, configuration: configuration)
        let services = try await cold.client.discoverDatabase()
        #expect(await cold.client.usedCachedDatabase == false)
        #expect(cold.transcript.prefix(2) == ["> 080100ffff2a2b", "< 09120d00" + hashA])
        #expect(cache.count == 1)
        #expect(await cache.entry(for: peer) == GATTClientCacheEntry(databaseHash: ClientTables.hashA, services: services))
        #expect(cold.server.writes(to: h.clientFeatures) == [[0x05]])
        #expect(cold.server.writes(to: h.serviceChangedCCCD) == [[0x02, 0x00]])
        await cold.close()

        let warm = ClientRig(table, configuration: configuration)
        let cached = try await warm.client.discoverDatabase()
        #expect(cached == services)
        #expect(await warm.client.services == services)
        #expect(await warm.client.usedCachedDatabase)
        warm.expectTranscript([
            "> 08 0100 ffff 2a2b",      // Read By Type Request 0x0001..0xffff «Database Hash»
            "< 09 12 0d00 \(hashA)",    // Length 18: handle 0x000d, the hash the cache was made under
            "> 12 0b00 05",             // Client Supported Features: Robust Caching | Multiple Handle Value Notifications
            "< 13",
            "> 12 0900 0200",           // Service Changed CCCD: indications (an unbonded peer forgets it)
            "< 13",
        ])
        await warm.close()
        #expect(peer.description == "random C0:FF:EE:12:34:56")
    }

    @Test("with a bonded peer a cached reconnection costs one round trip")
    func bondedCacheHit() async throws {
        let cache = InMemoryGATTClientCache()
        let (table, _) = ClientTables.standard()
        let configuration = GATTClient.Configuration(cache: cache, peer: peer, hasTrustedRelationship: true)
        let cold = ClientRig(table, configuration: configuration)
        _ = try await cold.client.discoverDatabase()
        #expect(await cache.entry(for: peer)?.configuredForBond == true)
        await cold.close()

        let warm = ClientRig(table, configuration: configuration)
        _ = try await warm.client.discoverDatabase()
        warm.expectTranscript(["> 08 0100 ffff 2a2b", "< 09 12 0d00 \(hashA)"])
        #expect(warm.requestCount == 1)
        // The server kept Service Changed enabled: its indications are still handled.
        #expect(await warm.client.serviceChangedSubscriber != nil)
        #expect(await warm.client.configurations[0x0009]?.written == 0x0002)
        await warm.close()
    }

    @Test("a different hash means a new discovery, and the cache entry is replaced")
    func cacheMiss() async throws {
        let cache = InMemoryGATTClientCache()
        let (old, _) = ClientTables.standard()
        let configuration = GATTClient.Configuration(cache: cache, peer: peer)
        let first = ClientRig(old, configuration: configuration)
        _ = try await first.client.discoverDatabase()
        await first.close()

        let (changed, _) = ClientTables.standard(hash: ClientTables.hashB, extraCharacteristic: true)
        let second = ClientRig(changed, configuration: configuration)
        let services = try await second.client.discoverDatabase()
        #expect(await second.client.usedCachedDatabase == false)
        #expect(services[3].characteristics.count == 4)     // Heart Rate, after the secondary Battery
        #expect(await cache.entry(for: peer)?.databaseHash == ClientTables.hashB)
        #expect(await cache.entry(for: peer)?.services == services)
        #expect(second.requestCount > 10)
        await second.close()

        await cache.removeEntry(for: peer)
        #expect(cache.count == 0)
    }

    @Test("without a Database Hash nothing is cached")
    func noHash() async throws {
        let cache = InMemoryGATTClientCache()
        let (table, _) = ClientTables.standard(hash: nil)
        let rig = ClientRig(table, configuration: .init(cache: cache, peer: peer))
        let services = try await rig.client.discoverDatabase()
        #expect(rig.transcript.prefix(2) == ["> 080100ffff2a2b", "< 01080100" + "0a"])   // Attribute Not Found
        #expect(services.count == 5)                        // four primary services and the included Battery
        #expect(await rig.client.databaseHash == nil)
        #expect(cache.count == 0)
        await rig.close()
    }

    @Test("the server refusing Client Supported Features does not fail the discovery")
    func clientFeaturesRefused() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        rig.server.fail(.writeRequest, handle: h.clientFeatures, code: .valueNotAllowed)
        let services = try await rig.client.discoverDatabase()
        #expect(services.count == 5)                        // four primary services and the included Battery
        #expect(await rig.client.wroteClientSupportedFeatures == false)
        #expect(rig.server.writes(to: h.serviceChangedCCCD) == [[0x02, 0x00]])
        await rig.close()
    }

    // MARK: Database Out Of Sync (0x12)

    @Test("0x12 with an unchanged hash: read the hash, repeat the request")
    func outOfSyncSameHash() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        rig.server.fail(.readRequest, handle: h.deviceName, code: .databaseOutOfSync)
        let name = try await rig.client.read(h.deviceName)
        rig.expectTranscript([
            "> 0a 0300",                  // Read Request
            "< 01 0a 0300 12",            // Error Response: Database Out Of Sync
            "> 08 0100 ffff 2a2b",        // read the Database Hash: the client is change-aware again
            "< 09 12 0d00 \(hashA)",
            "> 0a 0300",                  // the request, once more
            "< 0b 4c696e7578424c45",
        ])
        #expect(name == Array("LinuxBLE".utf8))
        #expect(await rig.client.databaseHash == ClientTables.hashA)
        await rig.close()
    }

    @Test("0x12 twice: the second answer is the caller's error")
    func outOfSyncTwice() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        rig.server.fail(.readRequest, handle: h.deviceName, code: .databaseOutOfSync, times: 2)
        await #expect(throws: GATTClientError.errorResponse(request: .readRequest, handle: 0x0003, code: .databaseOutOfSync)) {
            try await rig.client.read(h.deviceName)
        }
        #expect(rig.requestCount == 3)
        await rig.close()
    }

    @Test("0x12 after a change: the tree is rediscovered and the cache updated before the request is repeated")
    func outOfSyncChanged() async throws {
        let cache = InMemoryGATTClientCache()
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table, configuration: .init(cache: cache, peer: peer))
        _ = try await rig.client.discoverDatabase()
        let (changed, _) = ClientTables.standard(hash: ClientTables.hashB, deviceName: Array("Renamed".utf8), extraCharacteristic: true)
        rig.server.replaceTable(changed)
        rig.server.fail(.readRequest, handle: h.deviceName, code: .databaseOutOfSync)
        rig.clearTranscript()

        let name = try await rig.client.read(h.deviceName)
        #expect(name == Array("Renamed".utf8))
        #expect(rig.transcript.prefix(5) == ["> 0a0300", "< 010a030012", "> 080100ffff2a2b", "< 09120d00" + hashB, "> 100100ffff0028"])
        #expect(rig.transcript.suffix(2) == ["> 0a0300", "< 0b52656e616d6564"])
        let services = await rig.client.services
        #expect(services[3].characteristics.count == 4)     // Heart Rate, after the secondary Battery
        #expect(await rig.client.databaseHash == ClientTables.hashB)
        #expect(await cache.entry(for: peer)?.services == services)
        await rig.close()
    }

    /// Device Name and Appearance (read, write) at values 0x0003 and 0x0005, swapped in the
    /// changed database, and the Database Hash `hash` at 0x0008.
    static func gap(swapped: Bool, hash: [UInt8]) -> FakeGATTTable {
        var t = FakeGATTTable()
        t.primaryService(BluetoothUUID(0x1800))
        t.characteristic(BluetoothUUID(swapped ? 0x2A01 : 0x2A00), properties: 0x0A, value: [0x01])   // value 0x0003
        t.characteristic(BluetoothUUID(swapped ? 0x2A00 : 0x2A01), properties: 0x0A, value: [0x02])   // value 0x0005
        t.primaryService(BluetoothUUID(0x1801))
        t.characteristic(BluetoothUUID(0x2B2A), properties: 0x02, value: hash)                        // value 0x0008
        return t
    }

    @Test("0x12 after a change that moved the handle: the request is not repeated")
    func outOfSyncMoved() async throws {
        let rig = ClientRig(Self.gap(swapped: false, hash: ClientTables.hashA),
                            configuration: .init(enablesServiceChangedIndications: false, clientSupportedFeatures: []))
        _ = try await rig.client.discoverDatabase()
        rig.server.replaceTable(Self.gap(swapped: true, hash: ClientTables.hashB))
        rig.server.fail(.readRequest, handle: 0x0003, code: .databaseOutOfSync)
        rig.clearTranscript()
        await #expect(throws: GATTClientError.databaseChanged(handle: 0x0003)) { try await rig.client.read(0x0003) }
        #expect(rig.transcript.filter { $0 == "> 0a0300" }.count == 1)
        #expect(await rig.client.services.first?.characteristics.first?.uuid == BluetoothUUID(0x2A01))
        await rig.close()
    }

    /// A notifying characteristic `uuid` (value 0x0003, CCCD 0x0004), and the Database Hash
    /// `hash` in a GATT service after it.
    static func notifying(_ uuid: UInt16, hash: [UInt8]) -> FakeGATTTable {
        var t = FakeGATTTable()
        t.primaryService(BluetoothUUID(0x180D))
        t.characteristic(BluetoothUUID(uuid), properties: 0x12, value: [0x01])                        // value 0x0003
        t.cccd()                                                                                       // 0x0004
        t.primaryService(BluetoothUUID(0x1801))
        t.characteristic(BluetoothUUID(0x2B2A), properties: 0x02, value: hash)
        return t
    }

    @Test("0x12 after a change that gave a subscribed CCCD to another characteristic: the subscription ends, and subscribing to the new one writes its CCCD")
    func outOfSyncForgetsTheMovedCCCD() async throws {
        let rig = ClientRig(Self.notifying(0x2A37, hash: ClientTables.hashA),
                            configuration: .init(enablesServiceChangedIndications: false, clientSupportedFeatures: []))
        let before = try #require(try await rig.client.discoverDatabase().first?.characteristics.first)
        let subscription = try await rig.client.notifications(for: before)
        rig.server.replaceTable(Self.notifying(0x2A38, hash: ClientTables.hashB))
        rig.server.fail(.readRequest, handle: 0x0003, code: .databaseOutOfSync)
        await #expect(throws: GATTClientError.databaseChanged(handle: 0x0003)) { try await rig.client.read(0x0003) }
        let after = try #require(await rig.client.services.first?.characteristics.first)
        #expect(after.uuid == BluetoothUUID(0x2A38))
        rig.clearTranscript()
        _ = try await rig.client.notifications(for: after)
        #expect(rig.transcript.contains("> 1204000100"), "\(rig.transcript)")
        #expect(!rig.transcript.contains("> 1204000000"), "the old subscription wrote nothing")
        withExtendedLifetime(subscription) {}
        await rig.close()
    }

    @Test("0x12 during a discovery procedure restarts it once")
    func outOfSyncDuringDiscovery() async throws {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        rig.server.fail(.readByGroupTypeRequest, handle: 0x0001, code: .databaseOutOfSync)
        let services = try await rig.client.discoverPrimaryServices()
        #expect(services.count == 4)
        #expect(rig.transcript.prefix(5) == ["> 100100ffff0028", "< 0110010012", "> 080100ffff2a2b", "< 09120d00" + hashA,
                                             "> 100100ffff0028"])
        await rig.close()
    }

    /// The Prepare Writes of a 20-octet Write Long at 0x001d (ATT_MTU 23: parts of 18 and 2
    /// octets), each answered with its echo.
    static let writeLongParts = [
        "> 16 1d00 0000 808182838485868788898a8b8c8d8e8f9091", "< 17 1d00 0000 808182838485868788898a8b8c8d8e8f9091",
        "> 16 1d00 1200 9293", "< 17 1d00 1200 9293",
    ]

    @Test("0x12 to the Execute Write: recover, cancel the queue, and run the whole write again; the execute is never repeated alone")
    func outOfSyncAtExecute() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let value = Array(UInt8(0x80)..<UInt8(0x94))
        rig.server.inject(.errorResponse(ATTErrorResponse(requestOpcodeInError: .executeWriteRequest, attributeHandleInError: 0,
                                                          errorCode: .databaseOutOfSync))) {
            if case .executeWriteRequest(let request) = $0 { return request.flags == .immediatelyWriteAllPendingPreparedValues }
            return false
        }
        try await rig.client.writeLong(value, to: h.vendorValue)
        rig.expectTranscript(Self.writeLongParts + [
            "> 18 01", "< 01 18 0000 12",                         // Execute Write: Database Out Of Sync
            "> 08 0100 ffff 2a2b", "< 09 12 0d00 \(hashA)",      // the hash: change-aware again
            "> 18 00", "< 19",                                    // whatever is still queued, cancelled
        ] + Self.writeLongParts + [
            "> 18 01", "< 19",                                    // the whole write, once more
        ])
        #expect(rig.server.value(at: h.vendorValue)?.prefix(20) == value[...])
        await rig.close()
    }

    @Test("0x12 to a Prepare Write: the parts queued before it are cancelled and the whole write runs again")
    func outOfSyncAtPrepare() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let value = Array(UInt8(0x80)..<UInt8(0x94))
        rig.server.inject(.errorResponse(ATTErrorResponse(requestOpcodeInError: .prepareWriteRequest, attributeHandleInError: h.vendorValue,
                                                          errorCode: .databaseOutOfSync))) {
            if case .prepareWriteRequest(let request) = $0 { return request.valueOffset == 18 }
            return false
        }
        try await rig.client.writeLong(value, to: h.vendorValue)
        rig.expectTranscript(Array(Self.writeLongParts.prefix(2)) + [
            "> 16 1d00 1200 9293", "< 01 16 1d00 12",
            "> 08 0100 ffff 2a2b", "< 09 12 0d00 \(hashA)",
            "> 18 00", "< 19",
        ] + Self.writeLongParts + ["> 18 01", "< 19"])
        #expect(rig.server.value(at: h.vendorValue)?.prefix(20) == value[...])
        await rig.close()
    }

    @Test("0x12 to a queued write twice: the second is the caller's error, and the queue is cancelled")
    func outOfSyncAtExecuteTwice() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let before = rig.server.value(at: h.vendorValue)
        rig.server.inject(.errorResponse(ATTErrorResponse(requestOpcodeInError: .executeWriteRequest, attributeHandleInError: 0,
                                                          errorCode: .databaseOutOfSync)), times: 2) {
            if case .executeWriteRequest(let request) = $0 { return request.flags == .immediatelyWriteAllPendingPreparedValues }
            return false
        }
        await #expect(throws: GATTClientError.errorResponse(request: .executeWriteRequest, handle: 0, code: .databaseOutOfSync)) {
            try await rig.client.writeLong(Array(UInt8(0x80)..<UInt8(0x94)), to: h.vendorValue)
        }
        #expect(rig.transcript.filter { $0 == "> 1801" }.count == 2)
        #expect(rig.server.value(at: h.vendorValue) == before)
        await rig.close()
    }

    @Test("0x12 to a queued write after a change that moved its handle: the queue is cancelled, nothing is written again")
    func outOfSyncQueuedWriteMoved() async throws {
        let rig = ClientRig(Self.gap(swapped: false, hash: ClientTables.hashA),
                            configuration: .init(enablesServiceChangedIndications: false, clientSupportedFeatures: []))
        _ = try await rig.client.discoverDatabase()
        rig.server.replaceTable(Self.gap(swapped: true, hash: ClientTables.hashB))
        rig.server.fail(.executeWriteRequest, code: .databaseOutOfSync)
        rig.clearTranscript()
        await #expect(throws: GATTClientError.databaseChanged(handle: 0x0003)) {
            try await rig.client.writeLong(Array(repeating: 0x55, count: 20), to: 0x0003)
        }
        #expect(rig.transcript.filter { $0.hasPrefix("> 18") } == ["> 1801", "> 1800"])
        #expect(rig.transcript.filter { $0.hasPrefix("> 16") }.count == 2, "the parts were sent once")
        #expect(rig.server.value(at: 0x0003) == [0x01])
        await rig.close()
    }

    // MARK: Service Changed (7.1)

    @Test("a Service Changed indication: the range is rediscovered, its subscriptions end, the change is published")
    func serviceChanged() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        _ = try await rig.client.discoverDatabase()
        let vendor = try #require(await rig.client.services.last?.characteristics.first)
        let vendorUpdates = try await rig.client.notifications(for: vendor)
        let measurementUpdates = try await rig.client.notifications(for: try #require(await rig.client.services[3].characteristics.first))

        let (changed, _) = ClientTables.standard(hash: ClientTables.hashB, extraCharacteristic: true)
        rig.server.replaceTable(changed)
        rig.clearTranscript()
        var changes = rig.client.serviceChanges.makeAsyncIterator()
        // Service Changed, affected range 0x0019..0xffff: the Heart Rate service's end and after.
        try await rig.serverEngine.indicate(ATTHandleValueIndication(handle: h.serviceChanged, value: [0x19, 0x00, 0xFF, 0xFF]))
        #expect(await changes.next() == 0x0019...0xFFFF)

        // The Heart Rate service overlaps the range, so the client rediscovers from its start.
        #expect(rig.transcript.first == "< 1d08001900ffff")   // Handle Value Indication 0x0008: 0x0019..0xffff
        #expect(rig.transcript.contains("> 1e"))               // confirmed
        #expect(rig.transcript.first { $0.hasPrefix("> 10") } == "> 101200ffff0028")
        let services = await rig.client.services
        // Battery (0x000E, included by Heart Rate) lies before the range: kept, not walked again.
        #expect(services.map(\.handle) == [0x0001, 0x0006, 0x000E, 0x0012, 0x001D])
        #expect(services[3].characteristics.map(\.uuid).last == BluetoothUUID(0x2A3A))
        #expect(services[4].characteristics.first?.valueHandle == 0x001F)
        #expect(await rig.client.databaseHash == ClientTables.hashB)

        // Subscriptions inside the range have ended; the CCCD states there are forgotten.
        var vendorIterator = vendorUpdates.makeAsyncIterator()
        var measurementIterator = measurementUpdates.makeAsyncIterator()
        #expect(await vendorIterator.next() == nil)
        #expect(await measurementIterator.next() == nil)
        #expect(await rig.client.configurations.keys.sorted() == [h.serviceChangedCCCD])
        await rig.close()
    }

    @Test("a subscription asked for on a Service Changed's notice waits until the change is handled, then lives on")
    func subscribingOnTheNotice() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        _ = try await rig.client.discoverDatabase()
        let (changed, _) = ClientTables.standard(hash: ClientTables.hashB, extraCharacteristic: true)
        rig.server.replaceTable(changed)
        var notices = rig.client.serviceChangeNotices.makeAsyncIterator()
        var changes = rig.client.serviceChanges.makeAsyncIterator()
        try await rig.serverEngine.indicate(ATTHandleValueIndication(handle: h.serviceChanged, value: [0x19, 0x00, 0xFF, 0xFF]))
        #expect(await notices.next() == 0x0019...0xFFFF)
        // The Heart Rate Measurement as the changed database has it (the same handles), its CCCD
        // known: subscribing needs no request of its own.
        let measurement = RemoteCharacteristic(uuid: BluetoothUUID(0x2A37), declarationHandle: 0x0014, valueHandle: 0x0015,
                                               endHandle: 0x0016, properties: .notify,
                                               descriptors: [RemoteDescriptor(handle: 0x0016, uuid: GATTAttributeType.clientCharacteristicConfiguration)])
        let updates = try await rig.client.notifications(for: measurement)
        #expect(await changes.next() == 0x0019...0xFFFF)
        #expect(await rig.client.subscribers.values.contains { $0.valueHandle == 0x0015 }, "the handling did not end it")
        try await rig.serverEngine.send(.handleValueNotification(ATTHandleValueNotification(handle: 0x0015, value: [0x06, 0x50])))
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next()?.value == [0x06, 0x50])
        await rig.close()
    }

    @Test("a Service Changed whose range cannot be discovered again leaves nothing cached, so the next connection discovers it all")
    func serviceChangedRediscoveryFails() async throws {
        let cache = InMemoryGATTClientCache()
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table, configuration: GATTClient.Configuration(cache: cache, peer: peer))
        _ = try await rig.client.discoverDatabase()
        #expect(await cache.entry(for: peer)?.databaseHash == ClientTables.hashA)

        let (changed, _) = ClientTables.standard(hash: ClientTables.hashB, extraCharacteristic: true)
        rig.server.replaceTable(changed)
        rig.server.fail(.readByGroupTypeRequest, handle: 0x0012, code: .unlikelyError)
        var changes = rig.client.serviceChanges.makeAsyncIterator()
        try await rig.serverEngine.indicate(ATTHandleValueIndication(handle: h.serviceChanged, value: [0x19, 0x00, 0xFF, 0xFF]))
        #expect(await changes.next() == 0x0019...0xFFFF)
        #expect(await rig.client.services.map(\.handle) == [0x0001, 0x0006, 0x000E], "the range is gone from the tree")
        #expect(await cache.entry(for: peer) == nil, "a tree without the range is not kept under the new hash")
        #expect(await rig.client.databaseHash == nil)
        // A later change whose range is discovered again: the tree still lacks the first one.
        try await rig.serverEngine.indicate(ATTHandleValueIndication(handle: h.serviceChanged, value: [0x0E, 0x00, 0x11, 0x00]))
        #expect(await changes.next() == 0x000E...0x0011)
        #expect(await cache.entry(for: peer) == nil, "still not the whole database")
        await rig.close()

        let next = ClientRig(changed, configuration: GATTClient.Configuration(cache: cache, peer: peer))
        let services = try await next.client.discoverDatabase()
        #expect(await next.client.usedCachedDatabase == false)
        #expect(services.map(\.handle) == [0x0001, 0x0006, 0x000E, 0x0012, 0x001D])
        await next.close()
    }

    @Test("a tree the client did not discover: runOptionalSteps writes Client Supported Features and Service Changed's CCCD, and handles its indications")
    func optionalStepsForAnAdoptedTree() async throws {
        let (table, h) = ClientTables.standard()
        let earlier = ClientRig(table)
        let genericAttribute = try #require(try await earlier.client.discoverDatabase().first { $0.uuid == GATTProfileUUID.genericAttribute })
        await earlier.close()

        let rig = ClientRig(table)
        let error = await #expect(throws: GATTClientError.self) {
            try await rig.client.runOptionalSteps(genericAttribute: RemoteService(uuid: BluetoothUUID(0x180F), handle: 0x0001, endHandle: 0x0002))
        }
        #expect(error == .invalidArgument("180F is not the Generic Attribute service (0x1801)"))
        #expect(rig.transcript.isEmpty, "nothing sent for another service")
        try await rig.client.runOptionalSteps(genericAttribute: genericAttribute)
        rig.expectTranscript([
            "> 12 0b00 05",             // Client Supported Features: Robust Caching | Multiple Handle Value Notifications
            "< 13",
            "> 12 0900 0200",           // Service Changed CCCD: indications
            "< 13",
        ])
        var changes = rig.client.serviceChanges.makeAsyncIterator()
        try await rig.serverEngine.indicate(ATTHandleValueIndication(handle: h.serviceChanged, value: [0x19, 0x00, 0xFF, 0xFF]))
        #expect(await changes.next() == 0x0019...0xFFFF)
        #expect(await rig.client.services.isEmpty, "no whole tree: nothing rediscovered, the caller rediscovers")
        // A change over the Generic Attribute service itself: its old handles are not written to.
        rig.clearTranscript()
        try await rig.serverEngine.indicate(ATTHandleValueIndication(handle: h.serviceChanged, value: [0x01, 0x00, 0xFF, 0xFF]))
        #expect(await changes.next() == 0x0001...0xFFFF)
        #expect(!rig.transcript.contains { $0.hasPrefix("> 12") }, "\(rig.transcript)")
        await rig.close()
    }

    @Test("a Service Changed indication handled after the bearer closed ends without re-enabling indications")
    func serviceChangedAfterClose() async throws {
        // A fuzzer's finding: the indication's task reached the re-enable step after the client
        // had closed; it registered a subscriber and waited for a write no task would make, so
        // the task, and the client with it, lived for ever.
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        _ = try await rig.client.discoverDatabase()
        await rig.close()
        // The close has run its course: Service Changed's subscriber and CCCD state are gone.
        #expect(await eventually {
            let closed = await rig.client.isClosed
            let subscriber = await rig.client.serviceChangedSubscriber
            let configurations = await rig.client.configurations
            return closed && subscriber == nil && configurations.isEmpty
        })
        rig.clearTranscript()

        let ended = Mutex(false)
        Task {
            await rig.client.serviceChanged(0x0019...0xFFFF)   // Generic Attribute stays
            ended.withLock { $0 = true }
        }
        #expect(await eventually { ended.withLock { $0 } })
        #expect(await rig.client.serviceChangedSubscriber == nil)
        #expect(await rig.client.configurations[h.serviceChangedCCCD] == nil)
        #expect(rig.transcript.isEmpty)
    }

    @Test("a Service Changed indication with a malformed value is confirmed and ignored")
    func serviceChangedMalformed() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        _ = try await rig.client.discoverDatabase()
        rig.clearTranscript()
        try await rig.serverEngine.indicate(ATTHandleValueIndication(handle: h.serviceChanged, value: [0x19, 0x00, 0xFF]))
        try await rig.serverEngine.indicate(ATTHandleValueIndication(handle: h.serviceChanged, value: [0x20, 0x00, 0x10, 0x00]))
        _ = try await rig.client.read(h.deviceName)
        // Both confirmed; neither (the reversed range neither) started a discovery.
        #expect(rig.transcript == ["< 1d08001900ff", "> 1e",
                                   "< 1d080020001000", "> 1e", "> 0a0300", "< 0b4c696e7578424c45"])
        await rig.close()
    }
}
