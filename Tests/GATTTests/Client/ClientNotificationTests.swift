import Testing
import BLECore
@testable import ATT
@testable import GATT
import BLETestSupport

/// Notifications and indications (Core v5.4, Vol 3, Part G, 4.10, 4.11) and the reference-counted
/// Client Characteristic Configuration writes (3.3.3.3, 4.12.3).
@Suite("GATT client: notifications and indications")
struct ClientNotificationTests {
    /// The Heart Rate Measurement of ClientTables.standard: value 0x0015, CCCD 0x0016.
    let measurement = RemoteCharacteristic(uuid: BluetoothUUID(0x2A37), declarationHandle: 0x0014, valueHandle: 0x0015,
                                           endHandle: 0x0016, properties: .notify)

    /// A service with one characteristic that can notify and indicate: declaration 0x0002,
    /// value 0x0003, CCCD 0x0004.
    static func notifyAndIndicate() -> (FakeGATTTable, RemoteCharacteristic) {
        var table = FakeGATTTable()
        table.primaryService(BluetoothUUID(0x180F))
        let handles = table.characteristic(BluetoothUUID(0x2A19), properties: 0x32, value: [0x64])
        table.cccd()
        return (table, RemoteCharacteristic(uuid: BluetoothUUID(0x2A19), declarationHandle: handles.declaration,
                                            valueHandle: handles.value, endHandle: 0x0004, properties: [.read, .notify, .indicate]))
    }

    @Test("subscribing finds the CCCD, writes 0x0001, and delivers each notification")
    func notifications() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let updates = try await rig.client.notifications(for: measurement)
        #expect(updates.kind == .notification)
        #expect(updates.configurationHandle == h.measurementCCCD)
        try await rig.serverEngine.send(.handleValueNotification(ATTHandleValueNotification(handle: 0x0015, value: [0x06, 0x49])))
        try await rig.serverEngine.send(.handleValueNotification(ATTHandleValueNotification(handle: 0x0015, value: [0x06, 0x4A])))
        var iterator = updates.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        rig.expectTranscript([
            "> 04 1600 1600",         // Find Information 0x0016..0x0016: the characteristic had no descriptors yet
            "< 05 01 1600 0229",      // 0x0016 Client Characteristic Configuration
            "> 12 1600 0100",         // Write Request: CCCD = 0x0001, notifications
            "< 13",
            "< 1b 1500 0649",         // Handle Value Notification, handle 0x0015, value 0649
            "< 1b 1500 064a",
        ])
        #expect(first == RemoteNotification(handle: 0x0015, value: [0x06, 0x49], isIndication: false))
        #expect(second?.value == [0x06, 0x4A])
        #expect(first?.description == "notification 0x0015: 0649")
        await rig.close()
    }

    @Test("forget ends a subscription without a write, and the next subscription at that handle writes its configuration again")
    func forgetWritesNothingAndForgetsTheCCCD() async throws {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        let updates = try await rig.client.notifications(for: measurement)
        await updates.forget()
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == nil, "its sequence finished")
        _ = try await rig.client.notifications(for: measurement)
        rig.expectTranscript([
            "> 04 1600 1600",         // Find Information: the CCCD
            "< 05 01 1600 0229",
            "> 12 1600 0100",         // Write Request: CCCD = 0x0001
            "< 13",
            "> 04 1600 1600",         // after forget (nothing written), the next subscription
            "< 05 01 1600 0229",
            "> 12 1600 0100",         // writes its configuration again
            "< 13",
        ])
        await rig.close()
    }

    @Test("a subscription with a receiver hands it each value in order; its sequence yields nothing and finishes when the subscription ends")
    func receiver() async throws {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        let (received, receiving) = AsyncStream.makeStream(of: RemoteNotification.self)
        let updates = try await rig.client.notifications(for: measurement) { receiving.yield($0) }
        let ending = Task { () -> Int in
            var count = 0
            for await _ in updates { count += 1 }
            return count
        }
        try await rig.serverEngine.send(.handleValueNotification(ATTHandleValueNotification(handle: 0x0015, value: [0x06, 0x49])))
        try await rig.serverEngine.send(.handleValueNotification(ATTHandleValueNotification(handle: 0x0015, value: [0x06, 0x4A])))
        var values = received.makeAsyncIterator()
        #expect(await values.next()?.value == [0x06, 0x49])
        #expect(await values.next()?.value == [0x06, 0x4A])
        try await updates.cancel()
        #expect(await ending.value == 0)
        rig.expectTranscript([
            "> 04 1600 1600", "< 05 01 1600 0229",
            "> 12 1600 0100", "< 13",                 // CCCD = 0x0001
            "< 1b 1500 0649", "< 1b 1500 064a",
            "> 12 1600 0000", "< 13",                 // cleared by cancel()
        ])
        await rig.close()
    }

    @Test("indications are delivered and confirmed")
    func indications() async throws {
        let (table, characteristic) = Self.notifyAndIndicate()
        let rig = ClientRig(table)
        let updates = try await rig.client.notifications(for: characteristic, kind: .indication)
        #expect(rig.server.writes(to: 0x0004) == [[0x02, 0x00]])   // CCCD = 0x0002, indications
        // indicate() returns only once the client's confirmation arrives.
        try await rig.serverEngine.indicate(ATTHandleValueIndication(handle: 0x0003, value: [0x63]))
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == RemoteNotification(handle: 0x0003, value: [0x63], isIndication: true))
        #expect(rig.transcript.suffix(2) == ["< 1d030063", "> 1e"])   // Handle Value Indication, then Confirmation
        await rig.close()
    }

    @Test("a Multiple Handle Value Notification is split per handle")
    func multipleHandleValueNotification() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let vendor = RemoteCharacteristic(uuid: ClientTables.vendorCharacteristic, declarationHandle: 0x001C, valueHandle: h.vendorValue,
                                          endHandle: 0x001F, properties: [.notify],
                                          descriptors: [RemoteDescriptor(handle: 0x001E, uuid: BluetoothUUID(0x2902))])
        let rate = try await rig.client.notifications(for: measurement)
        let other = try await rig.client.notifications(for: vendor)
        // Multiple Handle Value Notification: 0x0015 0649, 0x001d 07
        try rig.serverLink.sendNow(ClientTest.hex("23 1500 0200 0649 1d00 0100 07"))
        var rates = rate.makeAsyncIterator()
        var others = other.makeAsyncIterator()
        #expect(await rates.next() == RemoteNotification(handle: 0x0015, value: [0x06, 0x49], isIndication: false))
        #expect(await others.next() == RemoteNotification(handle: 0x001D, value: [0x07], isIndication: false))
        await rig.close()
    }

    @Test("CCCD writes are reference-counted: the first subscriber writes, the last to leave clears")
    func referenceCounting() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let a = try await rig.client.notifications(for: measurement)
        let b = try await rig.client.notifications(for: measurement)
        #expect(rig.server.writes(to: h.measurementCCCD) == [[0x01, 0x00]])   // one write for two subscribers
        try await rig.serverEngine.send(.handleValueNotification(ATTHandleValueNotification(handle: 0x0015, value: [0x01])))
        var ia = a.makeAsyncIterator()
        var ib = b.makeAsyncIterator()
        #expect(await ia.next()?.value == [0x01])                            // both receive it
        #expect(await ib.next()?.value == [0x01])

        try await a.cancel()
        #expect(rig.server.writes(to: h.measurementCCCD) == [[0x01, 0x00]])   // b still holds the bit
        #expect(await ia.next() == nil)                                       // a's sequence has finished
        try await b.cancel()
        #expect(rig.server.writes(to: h.measurementCCCD) == [[0x01, 0x00], [0x00, 0x00]])
        #expect(rig.server.value(at: h.measurementCCCD) == [0x00, 0x00])
        try await b.cancel()                                                   // twice: nothing more
        #expect(rig.server.writes(to: h.measurementCCCD).count == 2)
        #expect(await rig.client.configurations.isEmpty)
        await rig.close()
    }

    @Test("notifications and indications on one CCCD: both bits, then each cleared in turn")
    func bothBits() async throws {
        let (table, characteristic) = Self.notifyAndIndicate()
        let rig = ClientRig(table)
        let notifying = try await rig.client.notifications(for: characteristic)
        #expect(notifying.kind == .notification)                       // Notify is preferred
        let indicating = try await rig.client.notifications(for: characteristic, kind: .indication)
        try await notifying.cancel()
        try await indicating.cancel()
        #expect(rig.server.writes(to: 0x0004) == [[0x01, 0x00], [0x03, 0x00], [0x02, 0x00], [0x00, 0x00]])
        await rig.close()
    }

    @Test("concurrent subscribers cause one write, and concurrent cancels one more")
    func concurrentSubscribers() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let client = rig.client
        let characteristic = measurement
        let subscriptions = try await withThrowingTaskGroup(of: GATTClientSubscription.self) { group in
            for _ in 0..<20 { group.addTask { try await client.notifications(for: characteristic) } }
            var all: [GATTClientSubscription] = []
            for try await subscription in group { all.append(subscription) }
            return all
        }
        #expect(subscriptions.count == 20)
        #expect(rig.server.writes(to: h.measurementCCCD) == [[0x01, 0x00]])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for subscription in subscriptions { group.addTask { try await subscription.cancel() } }
            try await group.waitForAll()
        }
        #expect(rig.server.writes(to: h.measurementCCCD) == [[0x01, 0x00], [0x00, 0x00]])
        await rig.close()
    }

    @Test("subscribes and cancels racing: no write repeats the last, and the CCCD ends as the subscribers want")
    func churn() async throws {
        let (table, characteristic) = Self.notifyAndIndicate()
        let rig = ClientRig(table)
        let client = rig.client
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<12 {
                group.addTask {
                    for round in 0..<4 {
                        let kind: GATTClientSubscription.Kind = (task + round) % 2 == 0 ? .notification : .indication
                        let subscription = try await client.notifications(for: characteristic, kind: kind)
                        await Task.yield()
                        try? await subscription.cancel()
                    }
                }
            }
            try await group.waitForAll()
        }
        let writes = rig.server.writes(to: 0x0004)
        #expect(writes.last == [0x00, 0x00])
        #expect(rig.server.value(at: 0x0004) == [0x00, 0x00])
        #expect(zip(writes, writes.dropFirst()).allSatisfy { $0 != $1 })   // each write changes the value
        #expect(await rig.client.configurations.isEmpty)

        let staying = try await client.notifications(for: characteristic, kind: .indication)
        #expect(rig.server.value(at: 0x0004) == [0x02, 0x00])
        _ = staying
        await rig.close()
    }

    @Test("a refused CCCD write fails the subscription and leaves no subscriber")
    func refusedConfiguration() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        rig.server.fail(.writeRequest, handle: h.measurementCCCD, code: .insufficientAuthentication)
        await #expect(throws: GATTClientError.errorResponse(request: .writeRequest, handle: 0x0016, code: .insufficientAuthentication)) {
            try await rig.client.notifications(for: measurement)
        }
        #expect(await rig.client.subscribers.isEmpty)
        #expect(await rig.client.configurations.isEmpty)
        // Once the link is secure the server accepts: the next subscriber writes again.
        _ = try await rig.client.notifications(for: measurement)
        #expect(rig.server.writes(to: h.measurementCCCD) == [[0x01, 0x00], [0x01, 0x00]])
        await rig.close()
    }

    @Test("a refused CCCD write on the last cancel throws the Error Response; the subscription has ended all the same")
    func refusedCancel() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let updates = try await rig.client.notifications(for: measurement)
        rig.server.fail(.writeRequest, handle: h.measurementCCCD, code: .writeNotPermitted)
        await #expect(throws: GATTClientError.errorResponse(request: .writeRequest, handle: 0x0016, code: .writeNotPermitted)) {
            try await updates.cancel()
        }
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == nil, "its sequence finished")
        #expect(await rig.client.subscribers.isEmpty)
        await rig.close()
    }

    @Test("no Notify or Indicate property, no CCCD: typed errors")
    func refusals() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let location = RemoteCharacteristic(uuid: BluetoothUUID(0x2A38), declarationHandle: 0x0017, valueHandle: h.bodySensorLocation,
                                            endHandle: 0x0018, properties: .read)
        await #expect(throws: GATTClientError.notificationsNotSupported(valueHandle: 0x0018)) {
            try await rig.client.notifications(for: location)
        }
        await #expect(throws: GATTClientError.notificationsNotSupported(valueHandle: 0x0015)) {
            try await rig.client.notifications(for: measurement, kind: .indication)
        }
        #expect(rig.transcript.isEmpty)
        var notifying = location
        notifying.properties = .notify
        await #expect(throws: GATTClientError.noClientCharacteristicConfiguration(valueHandle: 0x0018)) {
            try await rig.client.notifications(for: notifying)
        }
        await rig.close()
    }

    @Test("the CCCD comes from the discovered tree without another request")
    func configurationFromTree() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table, configuration: .init(enablesServiceChangedIndications: false, clientSupportedFeatures: []))
        _ = try await rig.client.discoverDatabase()
        rig.clearTranscript()
        _ = try await rig.client.notifications(for: measurement)   // a copy without descriptors
        rig.expectTranscript(["> 12 1600 0100", "< 13"])
        #expect(rig.server.writes(to: h.measurementCCCD) == [[0x01, 0x00]])
        await rig.close()
    }

    @Test("a reader that stops iterating ends its subscription")
    func readerStops() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let updates = try await rig.client.notifications(for: measurement)
        let reader = Task {
            for await update in updates { return update.value }
            return []
        }
        try await rig.serverEngine.send(.handleValueNotification(ATTHandleValueNotification(handle: 0x0015, value: [0x42])))
        #expect(await reader.value == [0x42])
        #expect(await eventually { rig.server.writes(to: h.measurementCCCD).count == 2 })
        #expect(rig.server.value(at: h.measurementCCCD) == [0x00, 0x00])
        await rig.close()
    }

    @Test("a CCCD write under way when Service Changed forgets its CCCD does not decide the next subscription there", arguments: [
        "01 12 0400 05",   // the old write refused (Insufficient Authentication)
        "13",              // the old write accepted
    ])
    func writeUnderWayAcrossServiceChanged(oldAnswer: String) async throws {
        let (client, server) = ScriptedServer.make(configuration: .init(enablesServiceChangedIndications: false,
                                                                        clientSupportedFeatures: []))
        var peer = server
        await client.learnServiceChanged(valueHandle: 0x0008)
        let characteristic = RemoteCharacteristic(uuid: BluetoothUUID(0x2A19), declarationHandle: 0x0002, valueHandle: 0x0003,
                                                  endHandle: 0x0004, properties: .notify,
                                                  descriptors: [RemoteDescriptor(handle: 0x0004, uuid: GATTAttributeType.clientCharacteristicConfiguration)])
        let first = Task { try await client.notifications(for: characteristic) }
        await peer.expect("12 0400 0100")            // Write Request: CCCD 0x0004 = 0x0001; not answered yet
        try peer.inject("1d 0800 0100 ffff")         // Service Changed over 0x0001..0xffff
        await peer.expect("1e")
        await #expect(throws: GATTClientError.databaseChanged(handle: 0x0004)) { try await first.value }

        // The same handle, now another characteristic's CCCD: a new subscriber, whose write
        // queues behind the old one.
        let second = Task { try await client.notifications(for: characteristic) }
        #expect(await eventually { await client.configurations[0x0004]?.waiters.count == 1 })
        try peer.inject(oldAnswer)                   // the old write's answer reaches the old task
        await peer.expect("12 0400 0100")            // the new subscriber's own write
        try peer.inject("13")
        let subscription = try await second.value
        #expect(subscription.configurationHandle == 0x0004)
        #expect(await client.configurations[0x0004]?.written == 0x0001)
        #expect(await client.configurations[0x0004]?.isSettling == false)
        await client.close()
    }

    @Test("a subscription that a Service Changed overtakes while it looks for its CCCD fails with databaseChanged and writes nothing")
    func overtakenWhileFindingTheCCCD() async throws {
        let (client, server) = ScriptedServer.make(configuration: .init(enablesServiceChangedIndications: false,
                                                                        clientSupportedFeatures: []))
        var peer = server
        await client.learnServiceChanged(valueHandle: 0x0008)
        let characteristic = RemoteCharacteristic(uuid: BluetoothUUID(0x2A19), declarationHandle: 0x0002, valueHandle: 0x0003,
                                                  endHandle: 0x0004, properties: .notify)
        let subscribing = Task { try await client.notifications(for: characteristic) }
        await peer.expect("04 0400 0400")            // Find Information: its CCCD; not answered yet
        try peer.inject("1d 0800 0100 ffff")         // Service Changed over 0x0001..0xffff
        await peer.expect("1e")
        try peer.inject("05 01 0400 0229")           // 0x0004 is a CCCD, but of the database before the change
        await #expect(throws: GATTClientError.databaseChanged(handle: 0x0003)) { try await subscribing.value }
        #expect(await client.subscribers.isEmpty)
        #expect(await client.configurations.isEmpty, "nothing to write")
        await client.close()
    }

    @Test("closing the bearer finishes every subscription")
    func closeFinishes() async throws {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        let updates = try await rig.client.notifications(for: measurement)
        let reader = Task {
            var count = 0
            for await _ in updates { count += 1 }
            return count
        }
        try await rig.serverEngine.send(.handleValueNotification(ATTHandleValueNotification(handle: 0x0015, value: [0x01])))
        await rig.serverEngine.close()
        #expect(await reader.value == 1)
        #expect(await eventually { await rig.client.isClosed })
        await #expect(throws: GATTClientError.closed) { try await rig.client.notifications(for: measurement) }
    }
}
