import Testing
import BLECore
@testable import ATT
@testable import GATT
import BLETestSupport

/// Discovery (Core v5.4, Vol 3, Part G, 4.4-4.7) against the fake server's standard table
/// (ClientTables.standard), at the default ATT_MTU of 23, PDU by PDU.
@Suite("GATT client: discovery")
struct ClientDiscoveryTests {
    let vendorUUIDOctets = "9ecadc240ee5a9e093f3a3b50100406e"   // 6E400001-B5A3-F393-E0A9-E50E24DCCA9E, LSO first

    @Test("Discover All Primary Services: Read By Group Type until Attribute Not Found (4.4.1)")
    func allPrimaryServices() async throws {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        let services = try await rig.client.discoverPrimaryServices()
        rig.expectTranscript([
            "> 10 0100 ffff 0028",                 // Read By Group Type Request 0x0001..0xffff «Primary Service»
            "< 11 06 0100 0500 0018"               // Read By Group Type Response, Length 6:
                + " 0600 0d00 0118"                //   0x0001..0x0005 1800, 0x0006..0x000d 1801,
                + " 1200 1a00 0d18",               //   0x0012..0x001a 180d (three 6-octet entries fill MTU 23)
            "> 10 1b00 ffff 0028",                 // continue after 0x001a
            "< 11 14 1b00 1f00 \(vendorUUIDOctets)", // Length 20: 0x001b..0x001f, the 128-bit vendor UUID
            "> 10 2000 ffff 0028",                 // continue after 0x001f
            "< 01 10 2000 0a",                     // Error Response: Attribute Not Found ends the loop
        ])
        #expect(services.count == 4)
        #expect(services.map(\.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801), BluetoothUUID(0x180D), ClientTables.vendorService])
        #expect(services.map(\.handle) == [0x0001, 0x0006, 0x0012, 0x001B])
        #expect(services.map(\.endHandle) == [0x0005, 0x000D, 0x001A, 0x001F])
        #expect(services.allSatisfy { $0.isPrimary })
        #expect(services[3].uuid.width == .bits128)
        #expect(services[2].description == "Primary Service 180D (Heart Rate) 0x0012...0x001a")
        await rig.close()
    }

    @Test("a group ending at 0xFFFF ends the loop without another request")
    func groupEndingAtFFFF() async throws {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        rig.server.setLastGroupEndsAtFFFF(true)
        let services = try await rig.client.discoverPrimaryServices()
        rig.expectTranscript([
            "> 10 0100 ffff 0028",
            "< 11 06 0100 0500 0018 0600 0d00 0118 1200 1a00 0d18",
            "> 10 1b00 ffff 0028",
            "< 11 14 1b00 ffff \(vendorUUIDOctets)",   // End Group Handle 0xffff: nothing can follow
        ])
        #expect(services.last?.endHandle == 0xFFFF)
        #expect(services.last?.handleRange == 0x001B...0xFFFF)
        await rig.close()
    }

    @Test("Discover Primary Service by Service UUID, 16-bit and 128-bit (4.4.2)")
    func primaryServiceByUUID() async throws {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        let heartRate = try await rig.client.discoverPrimaryServices(uuid: BluetoothUUID(0x180D))
        rig.expectTranscript([
            "> 06 0100 ffff 0028 0d18",   // Find By Type Value Request 0x0001..0xffff «Primary Service» value 180d
            "< 07 1200 1a00",             // Find By Type Value Response: 0x0012..0x001a
            "> 06 1b00 ffff 0028 0d18",   // continue after the group's end
            "< 01 06 1b00 0a",            // Attribute Not Found
        ])
        #expect(heartRate == [RemoteService(uuid: BluetoothUUID(0x180D), handle: 0x0012, endHandle: 0x001A)])

        rig.clearTranscript()
        let vendor = try await rig.client.discoverPrimaryServices(uuid: ClientTables.vendorService)
        rig.expectTranscript([
            "> 06 0100 ffff 0028 \(vendorUUIDOctets)",   // the value is the 128-bit UUID, 16 octets
            "< 07 1b00 1f00",
            "> 06 2000 ffff 0028 \(vendorUUIDOctets)",
            "< 01 06 2000 0a",
        ])
        #expect(vendor.map(\.handleRange) == [0x001B...0x001F])

        rig.clearTranscript()
        let none = try await rig.client.discoverPrimaryServices(uuid: BluetoothUUID(0x1812))
        rig.expectTranscript(["> 06 0100 ffff 0028 1218", "< 01 06 0100 0a"])
        #expect(none.isEmpty)
        await rig.close()
    }

    @Test("Find Included Services with a 16-bit include (4.5.1)")
    func includedServices16() async throws {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        let heartRate = RemoteService(uuid: BluetoothUUID(0x180D), handle: 0x0012, endHandle: 0x001A)
        let includes = try await rig.client.discoverIncludedServices(of: heartRate)
        rig.expectTranscript([
            "> 08 1200 1a00 0228",            // Read By Type Request 0x0012..0x001a «Include»
            "< 09 08 1300 0e00 1100 0f18",    // Length 8: include at 0x0013: service 0x000e..0x0011, UUID 180f
            "> 08 1400 1a00 0228",
            "< 01 08 1400 0a",
        ])
        #expect(includes == [RemoteIncludedService(declarationHandle: 0x0013, serviceHandle: 0x000E, endHandle: 0x0011,
                                                   uuid: BluetoothUUID(0x180F))])
        #expect(includes[0].handleRange == 0x000E...0x0011)
        // The included (secondary) service's characteristics, through its include.
        let battery = includes[0].service
        #expect(battery == RemoteService(uuid: BluetoothUUID(0x180F), isPrimary: false, handle: 0x000E, endHandle: 0x0011))
        let level = try await rig.client.discoverCharacteristics(of: battery)
        #expect(level.map(\.uuid) == [BluetoothUUID(0x2A19)])
        #expect(level.first?.properties == [.read, .notify])
        await rig.close()
    }

    @Test("Find Included Services with a 128-bit include reads the included declaration (4.5.1)")
    func includedServices128() async throws {
        var table = FakeGATTTable()
        let secondary = table.secondaryService(ClientTables.vendorService)            // 0x0001
        table.characteristic(BluetoothUUID(0x2A19), properties: 0x02, value: [0x50])  // 0x0002, 0x0003
        let primary = table.primaryService(BluetoothUUID(0x180D))                     // 0x0004
        table.include(serviceHandle: secondary, endHandle: 0x0003, uuid: ClientTables.vendorService)   // 0x0005
        table.include(serviceHandle: secondary, endHandle: 0x0003, uuid: ClientTables.vendorService)   // 0x0006
        let rig = ClientRig(table)
        let includes = try await rig.client.discoverIncludedServices(of: RemoteService(uuid: BluetoothUUID(0x180D),
                                                                                       handle: primary, endHandle: 0x0006))
        rig.expectTranscript([
            "> 08 0400 0600 0228",                     // Read By Type Request 0x0004..0x0006 «Include»
            "< 09 06 0500 0100 0300 0600 0100 0300",   // Length 6: two includes without a UUID (it is 128-bit)
            "> 0a 0100",                                // Read Request of the included declaration 0x0001
            "< 0b \(vendorUUIDOctets)",                 // its value: the 128-bit service UUID
            "> 0a 0100",
            "< 0b \(vendorUUIDOctets)",
        ])
        #expect(includes.count == 2)
        #expect(includes.allSatisfy { $0.uuid == ClientTables.vendorService && $0.serviceHandle == 0x0001 && $0.endHandle == 0x0003 })
        #expect(includes.map(\.declarationHandle) == [0x0005, 0x0006])
        await rig.close()
    }

    @Test("Discover All Characteristics of a Service, end handles from the next declaration (4.6.1)")
    func allCharacteristics() async throws {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        let heartRate = RemoteService(uuid: BluetoothUUID(0x180D), handle: 0x0012, endHandle: 0x001A)
        let characteristics = try await rig.client.discoverCharacteristics(of: heartRate)
        rig.expectTranscript([
            "> 08 1200 1a00 0328",              // Read By Type Request 0x0012..0x001a «Characteristic»
            "< 09 07 1400 10 1500 372a"         // Length 7: 0x0014 notify, value 0x0015, 2a37
                + " 1700 02 1800 382a"          //           0x0017 read, value 0x0018, 2a38
                + " 1900 08 1a00 392a",         //           0x0019 write, value 0x001a, 2a39
            "> 08 1a00 1a00 0328",              // continue after 0x0019, up to the service's end
            "< 01 08 1a00 0a",
        ])
        #expect(characteristics.count == 3)
        let measurement = characteristics[0]
        #expect(measurement.uuid == BluetoothUUID(0x2A37))
        #expect(measurement.declarationHandle == 0x0014)
        #expect(measurement.valueHandle == 0x0015)
        #expect(measurement.endHandle == 0x0016)          // the next declaration is at 0x0017
        #expect(measurement.properties == .notify)
        #expect(measurement.descriptorRange == 0x0016...0x0016)
        #expect(characteristics[1].endHandle == 0x0018)
        #expect(characteristics[1].descriptorRange == nil)   // the value is its last attribute
        #expect(characteristics[2].endHandle == 0x001A)      // the last ends with the service
        #expect(characteristics[2].properties == .write)
        #expect(measurement.description == "Characteristic 2A37 (Heart Rate Measurement) value 0x0015 0x10 [notify]")

        rig.clearTranscript()
        let vendor = try await rig.client.discoverCharacteristics(of: RemoteService(uuid: ClientTables.vendorService,
                                                                                    handle: 0x001B, endHandle: 0x001F))
        #expect(rig.transcript.first == "> 081b001f000328")
        #expect(vendor == [RemoteCharacteristic(uuid: ClientTables.vendorCharacteristic, declarationHandle: 0x001C,
                                                valueHandle: 0x001D, endHandle: 0x001F,
                                                properties: [.read, .writeWithoutResponse, .write, .notify])])
        await rig.close()
    }

    @Test("Discover Characteristics by UUID keeps the end handles of the whole list (4.6.2)")
    func characteristicsByUUID() async throws {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        let heartRate = RemoteService(uuid: BluetoothUUID(0x180D), handle: 0x0012, endHandle: 0x001A)
        let found = try await rig.client.discoverCharacteristics(of: heartRate, uuid: BluetoothUUID(0x2A37))
        #expect(found.map(\.valueHandle) == [0x0015])
        #expect(found.first?.endHandle == 0x0016)
        #expect(rig.requestCount == 2)
        let none = try await rig.client.discoverCharacteristics(of: heartRate, uuid: BluetoothUUID(0x2A00))
        #expect(none.isEmpty)
        await rig.close()
    }

    @Test("Discover All Characteristic Descriptors (4.7.1); none asked when the value ends the characteristic")
    func descriptors() async throws {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        let vendor = RemoteCharacteristic(uuid: ClientTables.vendorCharacteristic, declarationHandle: 0x001C,
                                          valueHandle: 0x001D, endHandle: 0x001F, properties: [.notify])
        let descriptors = try await rig.client.discoverDescriptors(of: vendor)
        rig.expectTranscript([
            "> 04 1e00 1f00",                  // Find Information Request 0x001e..0x001f
            "< 05 01 1e00 0229 1f00 0129",     // Format 0x01 (16-bit): 0x001e 2902, 0x001f 2901
        ])
        #expect(descriptors == [RemoteDescriptor(handle: 0x001E, uuid: BluetoothUUID(0x2902)),
                                RemoteDescriptor(handle: 0x001F, uuid: BluetoothUUID(0x2901))])
        #expect(descriptors[0].description == "Descriptor 0x001e 2902 (Client Characteristic Configuration)")

        rig.clearTranscript()
        let bare = RemoteCharacteristic(uuid: BluetoothUUID(0x2A38), declarationHandle: 0x0017, valueHandle: 0x0018,
                                        endHandle: 0x0018, properties: .read)
        #expect(try await rig.client.discoverDescriptors(of: bare).isEmpty)
        #expect(rig.transcript.isEmpty)
        await rig.close()
    }

    @Test("discoverDatabase builds the whole tree")
    func wholeTree() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table, configuration: .init(enablesServiceChangedIndications: false, clientSupportedFeatures: []))
        let services = try await rig.client.discoverDatabase()
        #expect(services == (await rig.client.services))
        // The secondary Battery service, found only through Heart Rate's include, is in the tree too.
        #expect(services.map(\.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801), BluetoothUUID(0x180F),
                                         BluetoothUUID(0x180D), ClientTables.vendorService])
        #expect(services.map(\.isPrimary) == [true, true, false, true, true])
        let gatt = services[1]
        #expect(gatt.characteristics.map(\.uuid) == [BluetoothUUID(0x2A05), BluetoothUUID(0x2B29), BluetoothUUID(0x2B2A)])
        #expect(gatt.characteristics[0].clientCharacteristicConfiguration?.handle == h.serviceChangedCCCD)
        #expect(services[2].characteristic(BluetoothUUID(0x2A19))?.descriptors.map(\.handle) == [h.batteryCCCD])
        let heartRate = services[3]
        #expect(heartRate.includedServices.map(\.uuid) == [BluetoothUUID(0x180F)])
        #expect(heartRate.characteristic(BluetoothUUID(0x2A37))?.descriptors.map(\.handle) == [h.measurementCCCD])
        #expect(services[4].characteristics.first?.descriptors.map(\.uuid) == [BluetoothUUID(0x2902), BluetoothUUID(0x2901)])
        #expect(await rig.client.databaseHash == ClientTables.hashA)
        #expect(await rig.client.usedCachedDatabase == false)
        await rig.close()
    }

    // MARK: A server that breaks the rules

    @Test("a response that does not advance stops the loop with a typed error")
    func nonAdvancing() async throws {
        let result = await ScriptedServer.run([
            ("10 0100 ffff 0028", "11 06 0100 0500 0018"),   // 0x0001..0x0005 1800
            ("10 0600 ffff 0028", "11 06 0100 0500 0018"),   // the same entry again: followed, it would loop forever
        ]) { try await $0.discoverPrimaryServices().count }
        #expect(throws: GATTClientError.protocolViolation(.handleOutOfRange(request: .readByGroupTypeRequest, handle: 0x0001,
                                                                            expected: 0x0006...0xFFFF))) { try result.get() }
    }

    @Test("entries out of order, group ends before the start, handles past the range: each a typed error")
    func outOfRange() async throws {
        // Two entries in one response, the second going back.
        var result = await ScriptedServer.run([("10 0100 ffff 0028", "11 06 0600 0800 0018 0100 0500 0118")]) {
            try await $0.discoverPrimaryServices().count
        }
        #expect(throws: GATTClientError.protocolViolation(.handleOutOfRange(request: .readByGroupTypeRequest, handle: 0x0001,
                                                                            expected: 0x0009...0xFFFF))) { try result.get() }

        // An End Group Handle below its Attribute Handle.
        result = await ScriptedServer.run([("10 0100 ffff 0028", "11 06 0500 0100 0018")]) {
            try await $0.discoverPrimaryServices().count
        }
        #expect(throws: GATTClientError.protocolViolation(.handleOutOfRange(request: .readByGroupTypeRequest, handle: 0x0001,
                                                                            expected: 0x0005...0xFFFF))) { try result.get() }

        // A characteristic declaration outside the service's range.
        let service = RemoteService(uuid: BluetoothUUID(0x180D), handle: 0x0010, endHandle: 0x0014)
        result = await ScriptedServer.run([("08 1000 1400 0328", "09 07 2000 02 2100 372a")]) {
            try await $0.discoverCharacteristics(of: service).count
        }
        #expect(throws: GATTClientError.protocolViolation(.handleOutOfRange(request: .readByTypeRequest, handle: 0x0020,
                                                                            expected: 0x0010...0x0014))) { try result.get() }

        // A value handle that does not follow its declaration.
        result = await ScriptedServer.run([("08 1000 1400 0328", "09 07 1100 02 1100 372a")]) {
            try await $0.discoverCharacteristics(of: service).count
        }
        #expect(throws: GATTClientError.protocolViolation(.handleOutOfRange(request: .readByTypeRequest, handle: 0x0011,
                                                                            expected: 0x0012...0x0014))) { try result.get() }

        // A descriptor before the requested start.
        let characteristic = RemoteCharacteristic(uuid: BluetoothUUID(0x2A37), declarationHandle: 0x0010, valueHandle: 0x0011,
                                                  endHandle: 0x0013, properties: .notify)
        result = await ScriptedServer.run([("04 1200 1300", "05 01 1100 0229")]) {
            try await $0.discoverDescriptors(of: characteristic).count
        }
        #expect(throws: GATTClientError.protocolViolation(.handleOutOfRange(request: .findInformationRequest, handle: 0x0011,
                                                                            expected: 0x0012...0x0013))) { try result.get() }
    }

    @Test("a Find Information pair at 0xFFFF ends the loop")
    func findInformationAtFFFF() async throws {
        let characteristic = RemoteCharacteristic(uuid: BluetoothUUID(0x2A37), declarationHandle: 0xFFF0, valueHandle: 0xFFF1,
                                                  endHandle: 0xFFFF, properties: .notify)
        // One exchange only: a second request would find no answer and the call would not end.
        let result = await ScriptedServer.run([("04 f2ff ffff", "05 01 f2ff 0229 ffff 0129")]) {
            try await $0.discoverDescriptors(of: characteristic).map(\.handle)
        }
        #expect(try result.get() == [0xFFF2, 0xFFFF])
    }

    @Test("malformed declaration values name the field and offset")
    func malformedValues() async throws {
        // A service UUID of 4 octets (32-bit UUIDs travel as 128 bits on ATT).
        var result = await ScriptedServer.run([("10 0100 ffff 0028", "11 08 0100 0500 0d180000")]) {
            try await $0.discoverPrimaryServices().count
        }
        #expect(throws: GATTClientError.protocolViolation(.malformedValue(
            handle: 0x0001, .invalidValue(field: "Service UUID", offset: 0, reason: "4 octets; a UUID here has 2 or 16")))) {
            try result.get()
        }

        // A characteristic declaration of 6 octets.
        let service = RemoteService(uuid: BluetoothUUID(0x180D), handle: 0x0010, endHandle: 0x0014)
        result = await ScriptedServer.run([("08 1000 1400 0328", "09 08 1100 02 1200 372a00")]) {
            try await $0.discoverCharacteristics(of: service).count
        }
        #expect(throws: GATTClientError.protocolViolation(.malformedValue(
            handle: 0x0011, .invalidValue(field: "Characteristic UUID", offset: 3, reason: "3 octets; a UUID here has 2 or 16")))) {
            try result.get()
        }

        // An include of 5 octets.
        result = await ScriptedServer.run([("08 1000 1400 0228", "09 07 1100 0100 0300 0f")]) {
            try await $0.discoverIncludedServices(of: service).count
        }
        #expect(throws: GATTClientError.protocolViolation(.malformedValue(
            handle: 0x0011, .truncated(field: "Service UUID", offset: 4, needed: 2, available: 1)))) {
            try result.get()
        }
    }

    @Test("a response that does not decode, and error responses other than Attribute Not Found")
    func errors() async throws {
        var result = await ScriptedServer.run([("10 0100 ffff 0028", "11 06 0100 05")]) {   // cut inside the entry
            try await $0.discoverPrimaryServices().count
        }
        let decoding = try #require(throws: ATTDecodingError.self) { try ATTPDU.decode(ClientTest.hex("11 06 0100 05")) }
        #expect(throws: GATTClientError.protocolViolation(.malformedResponse(decoding))) { try result.get() }

        result = await ScriptedServer.run([("10 0100 ffff 0028", "01 10 0100 05")]) {      // Insufficient Authentication
            try await $0.discoverPrimaryServices().count
        }
        #expect(throws: GATTClientError.errorResponse(request: .readByGroupTypeRequest, handle: 0x0001,
                                                      code: .insufficientAuthentication)) { try result.get() }
    }

    @Test("no response within 30 s: timeout, and the client is closed")
    func timeout() async throws {
        let clock = TestClock()
        let (client, server) = ScriptedServer.make(clock: clock)
        var peer = server
        let discovery = Task { try await client.discoverPrimaryServices() }
        await peer.expect("10 0100 ffff 0028")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        await #expect(throws: GATTClientError.timeout) { try await discovery.value }
        #expect(await eventually { await client.isClosed })
        await #expect(throws: GATTClientError.closed) { try await client.read(0x0003) }
    }
}
