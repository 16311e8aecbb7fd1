import BLECore
import HCI
import Host
import Testing

@Suite("LEAdvertiser: legacy and extended advertising, limits, fragments, advertising again", .timeLimit(.minutes(1)))
struct LEAdvertiserTests {
    /// Flags 0x06 (LE General Discoverable, BR/EDR Not Supported) and the complete list of 16-bit
    /// service UUIDs 0x180D: "02 01 06  03 03 0d 18".
    let heartRate = LEAdvertisingParameters(
        advertisingData: [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported]),
                          .serviceUUIDs(ADUUIDList(uuids16: [0x180D]), isComplete: true)],
        scanResponse: [.localName(ADLocalName("HRM"))])   // "04 09 48 52 4d"

    /// The legacy conversation that starts `heartRate`.
    func legacyStart() throws -> [ScriptedHCITransport.Step] {
        try [
            // LE Set Advertising Parameters: Advertising_Interval_Min 0x00A0 (100 ms), _Max 0x00F0
            //   (150 ms), Advertising_Type ADV_IND, Own_Address_Type public, Peer_Address_Type public,
            //   Peer_Address 00:00:00:00:00:00, Advertising_Channel_Map 37, 38, 39, Filter_Policy 0x00
            .expect(h4: "01 06 20 0f a000 f000 00 00 00 000000000000 07 00"),
            .inject(h4: "04 0e 04 01 06 20 00"),
            // LE Set Advertising Data: Advertising_Data_Length 7, then 31 octets (24 of padding)
            .expect(h4: "01 08 20 20 07 020106 03030d18" + String(repeating: " 00", count: 24)),
            .inject(h4: "04 0e 04 01 08 20 00"),
            // LE Set Scan Response Data: Scan_Response_Data_Length 5 ("HRM"), then padding
            .expect(h4: "01 09 20 20 05 0409 48524d" + String(repeating: " 00", count: 26)),
            .inject(h4: "04 0e 04 01 09 20 00"),
            .expect(h4: "01 0a 20 01 01"),                       // LE Set Advertising Enable: enable
            .inject(h4: "04 0e 04 01 0a 20 00"),
        ]
    }

    /// The extended conversation that starts `heartRate` with legacy PDUs on set 0x00.
    func extendedStart() throws -> [ScriptedHCITransport.Step] {
        try [
            // LE Set Extended Advertising Parameters: Advertising_Handle 0x00,
            //   Advertising_Event_Properties 0x0013 (connectable, scannable, legacy),
            //   Primary_Advertising_Interval_Min 0x0000A0 (100 ms), _Max 0x0000F0 (150 ms), channels
            //   37, 38, 39, Own_Address_Type public, Peer public 00:00:00:00:00:00, Filter_Policy 0x00,
            //   Advertising_TX_Power 0x7F (no preference), Primary PHY LE 1M, Max_Skip 0,
            //   Secondary PHY LE 1M, Advertising_SID 0, Scan_Request_Notification_Enable 0
            .expect(h4: "01 36 20 19 00 1300 a00000 f00000 07 00 00 000000000000 00 7f 01 00 01 00 00"),
            .inject(h4: "04 0e 05 01 36 20 00 09"),              // Success, Selected_TX_Power 9 dBm
            // LE Set Extended Advertising Data: handle 0x00, Operation 0x03 (complete),
            //   Fragment_Preference 0x01, Advertising_Data_Length 7
            .expect(h4: "01 37 20 0b 00 03 01 07 020106 03030d18"),
            .inject(h4: "04 0e 04 01 37 20 00"),
            // LE Set Extended Scan Response Data: handle 0x00, complete, 5 octets "HRM"
            .expect(h4: "01 38 20 09 00 03 01 05 0409 48524d"),
            .inject(h4: "04 0e 04 01 38 20 00"),
            // LE Set Extended Advertising Enable: Enable, Num_Sets 1, handle 0x00, Duration 0,
            //   Max_Extended_Advertising_Events 0
            .expect(h4: "01 39 20 06 01 01 00 0000 00"),
            .inject(h4: "04 0e 04 01 39 20 00"),
        ]
    }

    @Test("legacy: parameters, data, scan response, enable; stop disables")
    func legacyAdvertising() async throws {
        let transport = ScriptedHCITransport(script: try legacyStart())
        let flow = patientFlow(transport)
        let advertiser = LEAdvertiser(flow: flow, capabilities: legacyCapabilities)
        try await advertiser.start(heartRate)
        #expect(await advertiser.isAdvertising)
        #expect(await advertiser.isStarted)
        transport.append(try [
            .expect(h4: "01 0a 20 01 00"),                       // LE Set Advertising Enable: disable
            .inject(h4: "04 0e 04 01 0a 20 00"),
        ])
        try await advertiser.stop()
        #expect(await advertiser.isAdvertising == false)
        expectScriptPlayed(transport)
    }

    @Test("legacy: non-connectable with a scan response is ADV_SCAN_IND, without one ADV_NONCONN_IND")
    func legacyTypes() throws {
        var scannable = heartRate
        scannable.isConnectable = false
        let first = try LEAdvertiser.commands(for: scannable, capabilities: legacyCapabilities).first
        #expect((first as? HCILESetAdvertisingParameters)?.advertisingType == .advScanInd)
        var beacon = scannable
        beacon.scanResponse = []
        let beaconFirst = try LEAdvertiser.commands(for: beacon, capabilities: legacyCapabilities).first
        #expect((beaconFirst as? HCILESetAdvertisingParameters)?.advertisingType == .advNonconnInd)
    }

    @Test("legacy: 32 octets of advertising data is a clear error, and nothing is sent")
    func legacyLimit() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let advertiser = LEAdvertiser(flow: flow, capabilities: legacyCapabilities)
        // Flags (3 octets) + Complete Local Name of 27 characters (29 octets) = 32 octets
        let long = LEAdvertisingParameters(advertisingData: [.flags([.leGeneralDiscoverableMode]),
                                                             .localName(ADLocalName(String(repeating: "n", count: 27)))])
        let error = await #expect(throws: LEAdvertiserError.self) { try await advertiser.start(long) }
        #expect(error == .dataTooLong(.advertisingData, length: 32, maximum: 31, family: .legacy))
        #expect(error?.description == "advertising data is 32 octets; legacy advertising carries at most 31: "
                + "shorten it or move AD structures to the scan response")
        var longResponse = heartRate
        longResponse.scanResponse = [.manufacturerSpecificData(ADManufacturerSpecificData(companyIdentifier: 0x05F1,
                                                                                          data: Array(repeating: 0xAB, count: 28)))]
        let responseError = await #expect(throws: LEAdvertiserError.self) { try await advertiser.start(longResponse) }
        #expect(responseError == .dataTooLong(.scanResponse, length: 32, maximum: 31, family: .legacy))
        #expect(transport.sent.isEmpty)
        #expect(await advertiser.isStarted == false)
    }

    @Test("intervals outside the family's range, or min above max, are refused")
    func intervals() throws {
        var slow = heartRate
        slow.intervalMin = LEExtendedAdvertisingInterval(rawValue: 0x4001)
        slow.intervalMax = LEExtendedAdvertisingInterval(rawValue: 0x4001)
        #expect(throws: LEAdvertiserError.intervalOutOfRange(min: slow.intervalMin, max: slow.intervalMax, allowed: 0x0020...0x4000)) {
            try LEAdvertiser.commands(for: slow, capabilities: legacyCapabilities)
        }
        #expect(throws: Never.self) { try LEAdvertiser.commands(for: slow, capabilities: extendedCapabilities()) }
        var reversed = heartRate
        reversed.intervalMin = LEExtendedAdvertisingInterval(rawValue: 0x0100)
        #expect(throws: LEAdvertiserError.self) { try LEAdvertiser.commands(for: reversed, capabilities: extendedCapabilities()) }
    }

    @Test("extended with legacy PDUs: set parameters, data, scan response, enable")
    func extendedLegacyPDUs() async throws {
        let transport = ScriptedHCITransport(script: try extendedStart())
        let flow = patientFlow(transport)
        let advertiser = LEAdvertiser(flow: flow, capabilities: extendedCapabilities())
        try await advertiser.start(heartRate)
        transport.append(try [
            .expect(h4: "01 39 20 06 00 01 00 0000 00"),         // disable set 0x00
            .inject(h4: "04 0e 04 01 39 20 00"),
        ])
        try await advertiser.stop()
        expectScriptPlayed(transport)
    }

    @Test("extended PDUs: 600 octets go in fragments of 251 with Operation first, intermediate, last")
    func extendedFragments() async throws {
        // Three Manufacturer Specific Data structures of 200 octets each (Length 0xC7, type 0xFF,
        // company 0x05F1, 196 octets of 0x00...0xC3).
        let manufacturer = ADStructure.manufacturerSpecificData(
            ADManufacturerSpecificData(companyIdentifier: 0x05F1, data: (0..<196).map { UInt8($0) }))
        var beacon = LEAdvertisingParameters(advertisingData: [manufacturer, manufacturer, manufacturer], isConnectable: false)
        beacon.advertisingHandle = 0x01
        let data = try AdvertisingData(structures: beacon.advertisingData).bytes
        #expect(data.count == 600)
        let transport = ScriptedHCITransport(script: try [
            // Advertising_Handle 0x01, Advertising_Event_Properties 0x0000 (non-connectable,
            //   non-scannable, extended PDUs)
            .expect(h4: "01 36 20 19 01 0000 a00000 f00000 07 00 00 000000000000 00 7f 01 00 01 00 00"),
            .inject(h4: "04 0e 05 01 36 20 00 00"),
            // Operation 0x01 (first fragment), 251 octets: Parameter_Total_Length 0xFF
            .expect(h4: "01 37 20 ff 01 01 01 fb " + Hex.encode(data[0..<251])),
            .inject(h4: "04 0e 04 01 37 20 00"),
            // Operation 0x00 (intermediate fragment), 251 octets
            .expect(h4: "01 37 20 ff 01 00 01 fb " + Hex.encode(data[251..<502])),
            .inject(h4: "04 0e 04 01 37 20 00"),
            // Operation 0x02 (last fragment), 98 octets
            .expect(h4: "01 37 20 66 01 02 01 62 " + Hex.encode(data[502...])),
            .inject(h4: "04 0e 04 01 37 20 00"),
            .expect(h4: "01 39 20 06 01 01 01 0000 00"),         // enable set 0x01
            .inject(h4: "04 0e 04 01 39 20 00"),
        ])
        let flow = patientFlow(transport)
        let advertiser = LEAdvertiser(flow: flow, capabilities: extendedCapabilities())
        try await advertiser.start(beacon)
        expectScriptPlayed(transport)

        let fragments = LEAdvertiser.fragments(of: data)
        #expect(fragments.map(\.0) == [.firstFragment, .intermediateFragment, .lastFragment])
        #expect(fragments.map(\.1.count) == [251, 251, 98])
        #expect(fragments.flatMap(\.1) == data)
        #expect(LEAdvertiser.fragments(of: []).map(\.0) == [.complete])
        #expect(LEAdvertiser.fragments(of: Array(repeating: 1, count: 251)).map(\.0) == [.complete])
        #expect(LEAdvertiser.fragments(of: Array(repeating: 1, count: 252)).map(\.1.count) == [251, 1])
    }

    @Test("extended: data above Max_Advertising_Data_Length, and a scan response extended PDUs cannot carry")
    func extendedLimits() throws {
        let big = ADStructure.manufacturerSpecificData(ADManufacturerSpecificData(companyIdentifier: 0x05F1,
                                                                                   data: Array(repeating: 0, count: 196)))
        let beacon = LEAdvertisingParameters(advertisingData: [big, big, big], isConnectable: false)
        #expect(throws: LEAdvertiserError.dataTooLong(.advertisingData, length: 600, maximum: 400, family: .extended)) {
            try LEAdvertiser.commands(for: beacon, capabilities: extendedCapabilities(maximum: 400))
        }
        var connectable = heartRate
        connectable.advertisingData.append(big)
        #expect(throws: LEAdvertiserError.scanResponseNeedsLegacyPDUs(advertisingDataLength: 207, scanResponseLength: 5)) {
            try LEAdvertiser.commands(for: connectable, capabilities: extendedCapabilities())
        }
        connectable.scanResponse = []
        let properties = try (LEAdvertiser.commands(for: connectable, capabilities: extendedCapabilities()).first
                              as? HCILESetExtendedAdvertisingParameters)?.advertisingEventProperties
        #expect(properties == [.connectable])
    }

    @Test("advertising again when the connection it made ends, and only then")
    func readvertise() async throws {
        let transport = ScriptedHCITransport(script: try legacyStart())
        let flow = patientFlow(transport)
        let advertiser = LEAdvertiser(flow: flow, capabilities: legacyCapabilities)
        try await advertiser.start(heartRate)
        transport.append(try [
            // LE Connection Complete: Success, Connection_Handle 0x0050, Role central (not from
            //   this advertising), peer public 00:11:22:33:44:55, interval 30 ms, latency 0,
            //   supervision timeout 720 ms, central clock accuracy 500 ppm
            .inject(h4: "04 3e 13 01 00 5000 00 00 554433221100 1800 0000 4800 00"),
            // LE Connection Complete: Success, Connection_Handle 0x0040, Role peripheral
            .inject(h4: "04 3e 13 01 00 4000 01 00 554433221100 1800 0000 4800 00"),
        ])
        await eventually("the connection stops the advertising") { await advertiser.isAdvertising == false }
        #expect(await advertiser.connectionHandles == [0x0040])
        transport.append(try [
            .inject(h4: "04 05 04 00 5000 13"),                  // Disconnection Complete 0x0050: not ours
            .inject(h4: "04 05 04 00 4000 13"),                  // Disconnection Complete 0x0040, Reason 0x13
            .expect(h4: "01 0a 20 01 01"),                       // LE Set Advertising Enable: enable again
            .inject(h4: "04 0e 04 01 0a 20 00"),
        ])
        await eventually("advertising again") { await advertiser.isAdvertising }
        #expect(await advertiser.connectionHandles == [])
        #expect(await advertiser.readvertisingErrors == [])
        transport.append(try [
            .expect(h4: "01 0a 20 01 00"),
            .inject(h4: "04 0e 04 01 0a 20 00"),
        ])
        try await advertiser.stop()
        expectScriptPlayed(transport)   // one enable only: 0x0050's disconnection sent nothing
    }

    @Test("a connection and its disconnection with octets after their last parameter are seen as the connection manager sees them")
    func eventsWithTrailingOctets() async throws {
        let transport = ScriptedHCITransport(script: try legacyStart())
        let flow = patientFlow(transport)
        let advertiser = LEAdvertiser(flow: flow, capabilities: legacyCapabilities)
        try await advertiser.start(heartRate)
        transport.append(try [
            // LE Connection Complete: Success, 0x0040, Role peripheral, then one octet more
            .inject(h4: "04 3e 14 01 00 4000 01 00 554433221100 1800 0000 4800 00 ee"),
        ])
        await eventually("the connection stops the advertising") { await advertiser.isAdvertising == false }
        #expect(await advertiser.connectionHandles == [0x0040])
        transport.append(try [
            .inject(h4: "04 05 05 00 4000 13 ee"),               // Disconnection Complete 0x0040, one octet more
            .expect(h4: "01 0a 20 01 01"),                       // LE Set Advertising Enable: enable again
            .inject(h4: "04 0e 04 01 0a 20 00"),
        ])
        await eventually("advertising again") { await advertiser.isAdvertising }
        #expect(await advertiser.connectionHandles == [])
        transport.append(try [
            .expect(h4: "01 0a 20 01 00"),
            .inject(h4: "04 0e 04 01 0a 20 00"),
        ])
        try await advertiser.stop()
        expectScriptPlayed(transport)
    }

    @Test("readvertiseAfterConnection: advertising again at each connection, so many centrals can connect; a refusal is kept")
    func readvertiseAfterConnection() async throws {
        var parameters = heartRate
        parameters.readvertiseAfterConnection = true
        let transport = ScriptedHCITransport(script: try legacyStart())
        let flow = patientFlow(transport)
        let advertiser = LEAdvertiser(flow: flow, capabilities: legacyCapabilities)
        try await advertiser.start(parameters)
        transport.append(try [
            // LE Connection Complete: Success, Connection_Handle 0x0040, Role peripheral
            .inject(h4: "04 3e 13 01 00 4000 01 00 554433221100 1800 0000 4800 00"),
            .expect(h4: "01 0a 20 01 01"),                       // LE Set Advertising Enable: at once
            .inject(h4: "04 0e 04 01 0a 20 00"),
            // A second central: Connection_Handle 0x0041
            .inject(h4: "04 3e 13 01 00 4100 01 00 665544332211 1800 0000 4800 00"),
            .expect(h4: "01 0a 20 01 01"),
            .inject(h4: "04 0e 04 01 0a 20 0c"),                 // Command Disallowed: kept, not thrown
        ])
        await eventually("both connections seen, the second enable refused") { await advertiser.readvertisingErrors.count == 1 }
        #expect(await advertiser.connectionHandles == [0x0040, 0x0041])
        #expect(await advertiser.isAdvertising == false)
        transport.append(try [
            .inject(h4: "04 05 04 00 4000 13"),                  // the first leaves: advertise again
            .expect(h4: "01 0a 20 01 01"),
            .inject(h4: "04 0e 04 01 0a 20 00"),
        ])
        await eventually("advertising again") { await advertiser.isAdvertising }
        transport.append(try [
            .inject(h4: "04 05 04 00 4100 13"),                  // advertising already: nothing sent
            .expect(h4: "01 0a 20 01 00"),
            .inject(h4: "04 0e 04 01 0a 20 00"),
        ])
        await eventually("the second left") { await advertiser.connectionHandles.isEmpty }
        try await advertiser.stop()
        expectScriptPlayed(transport)
    }

    @Test("a controller that refuses every re-enable: the newest 16 errors are kept, not one per connection")
    func readvertisingErrorsBounded() async throws {
        var parameters = heartRate
        parameters.readvertiseAfterConnection = true
        let transport = ScriptedHCITransport(script: try legacyStart())
        let advertiser = LEAdvertiser(flow: patientFlow(transport), capabilities: legacyCapabilities)
        try await advertiser.start(parameters)
        // 20 times: a central connects and the re-enable at once is refused (Command Disallowed);
        // it leaves, and the re-enable then succeeds, so the next central can connect.
        for round in 1...20 {
            transport.append(try [
                .inject(h4: "04 3e 13 01 00 4000 01 00 554433221100 1800 0000 4800 00"),   // LE Connection Complete, 0x0040
                .expect(h4: "01 0a 20 01 01"),
                .inject(h4: "04 0e 04 01 0a 20 0c"),
                .inject(h4: "04 05 04 00 4000 13"),              // Disconnection Complete 0x0040
                .expect(h4: "01 0a 20 01 01"),
                .inject(h4: "04 0e 04 01 0a 20 00"),
            ])
            await eventually("round \(round): advertising again") { transport.isFinished }
            await eventually("round \(round): advertising again") { await advertiser.isAdvertising }
        }
        #expect(await advertiser.readvertisingErrors.count == LEAdvertiser.keptReadvertisingErrors)
        transport.append(try [.expect(h4: "01 0a 20 01 00"), .inject(h4: "04 0e 04 01 0a 20 00")])
        try await advertiser.stop()
        expectScriptPlayed(transport)
    }

    @Test("readvertiseAfterConnection, extended: a connection's two events make one enable, in either order",
          arguments: [true, false])
    func readvertiseAfterConnectionExtended(setTerminatedFirst: Bool) async throws {
        var parameters = heartRate
        parameters.readvertiseAfterConnection = true
        let transport = ScriptedHCITransport(script: try extendedStart())
        let flow = patientFlow(transport)
        let advertiser = LEAdvertiser(flow: flow, capabilities: extendedCapabilities())
        try await advertiser.start(parameters)
        // LE Advertising Set Terminated: set 0x00, Connection_Handle 0x0041
        let terminated = try ScriptedHCITransport.Step.inject(h4: "04 3e 06 12 00 00 4100 00")
        // LE Enhanced Connection Complete [v2]: 0x0041, peripheral, Advertising_Handle 0x00
        let connected = try ScriptedHCITransport.Step.inject(
            h4: "04 3e 22 29 00 4100 01 01 665544332211 000000000000 000000000000 1800 0000 4800 00 00 ffff")
        transport.append(try [
            setTerminatedFirst ? terminated : connected,
            .expect(h4: "01 39 20 06 01 01 00 0000 00"),         // LE Set Extended Advertising Enable: set 0x00 again
            .inject(h4: "04 0e 04 01 39 20 00"),
            setTerminatedFirst ? connected : terminated,         // the same connection: nothing more sent
        ])
        await eventually("the script played") { transport.isFinished }
        await eventually("advertising again, for 0x0041") {
            let handles = await advertiser.connectionHandles
            return await advertiser.isAdvertising && handles == [0x0041]
        }
        // Let the second event be observed before stopping (events are observed in order, and a
        // disconnection of an unknown handle changes nothing).
        transport.append(try [.inject(h4: "04 05 04 00 7700 13")])
        await eventually("everything injected was observed") { transport.isFinished }
        #expect(await advertiser.readvertisingErrors == [])
        #expect(await advertiser.isAdvertising)
        transport.append(try [
            .expect(h4: "01 39 20 06 00 01 00 0000 00"),         // stop: disable set 0x00
            .inject(h4: "04 0e 04 01 39 20 00"),
        ])
        try await advertiser.stop()
        expectScriptPlayed(transport)
    }

    @Test("without readvertiseAfterDisconnection, a disconnection sends nothing")
    func noReadvertise() async throws {
        var parameters = heartRate
        parameters.readvertiseAfterDisconnection = false
        let transport = ScriptedHCITransport(script: try legacyStart())
        let flow = patientFlow(transport)
        let advertiser = LEAdvertiser(flow: flow, capabilities: legacyCapabilities)
        try await advertiser.start(parameters)
        transport.append(try [
            .inject(h4: "04 3e 13 01 00 4000 01 00 554433221100 1800 0000 4800 00"),
        ])
        await eventually("the connection stops the advertising") { await advertiser.isAdvertising == false }
        transport.append(try [
            .inject(h4: "04 05 04 00 4000 13"),
        ])
        await eventually("the connection is over") { await advertiser.connectionHandles.isEmpty }
        #expect(await advertiser.isAdvertising == false)
        transport.append(try [
            .expect(h4: "01 0a 20 01 00"),
            .inject(h4: "04 0e 04 01 0a 20 00"),
        ])
        try await advertiser.stop()
        expectScriptPlayed(transport)
    }

    @Test("a refused command fails start; the advertiser can start again")
    func refused() async throws {
        var script = try legacyStart()
        script[1] = try .inject(h4: "04 0e 04 01 06 20 12")     // Invalid HCI Command Parameters
        let transport = ScriptedHCITransport(script: Array(script[0...1]))
        let flow = patientFlow(transport)
        let advertiser = LEAdvertiser(flow: flow, capabilities: legacyCapabilities)
        let error = await #expect(throws: LEAdvertiserError.self) { try await advertiser.start(heartRate) }
        #expect(error == .command(.status(.invalidHCICommandParameters, opcode: .leSetAdvertisingParameters)))
        #expect(await advertiser.isStarted == false)
        transport.append(try legacyStart())
        try await advertiser.start(heartRate)
        #expect(await advertiser.isAdvertising)
        let again = await #expect(throws: LEAdvertiserError.self) { try await advertiser.start(heartRate) }
        #expect(again == .alreadyAdvertising)
        expectScriptPlayed(transport)
    }

    @Test("extended: LE Advertising Set Terminated tells whose connection it is, in either order")
    func readvertiseExtended() async throws {
        let transport = ScriptedHCITransport(script: try extendedStart())
        let flow = patientFlow(transport)
        let advertiser = LEAdvertiser(flow: flow, capabilities: extendedCapabilities())
        try await advertiser.start(heartRate)
        transport.append(try [
            // LE Enhanced Connection Complete [v1]: Success, Connection_Handle 0x0040, Role
            //   peripheral, peer public 00:11:22:33:44:55, no resolvable private addresses,
            //   interval 30 ms, latency 0, supervision timeout 720 ms, clock accuracy 500 ppm
            .inject(h4: "04 3e 1f 0a 00 4000 01 00 554433221100 000000000000 000000000000 1800 0000 4800 00"),
            // LE Advertising Set Terminated: Success, Advertising_Handle 0x02 (another set),
            //   Connection_Handle 0x0040, 0 events: 0x0040 is not this advertiser's after all
            .inject(h4: "04 3e 06 12 00 02 4000 00"),
            // The same for 0x0042, before its own connection event this time
            .inject(h4: "04 3e 06 12 00 02 4200 00"),
            .inject(h4: "04 3e 1f 0a 00 4200 01 00 554433221100 000000000000 000000000000 1800 0000 4800 00"),
            // LE Advertising Set Terminated: Success, Advertising_Handle 0x00 (this set), 0x0041
            .inject(h4: "04 3e 06 12 00 00 4100 00"),
            // LE Enhanced Connection Complete [v2]: Connection_Handle 0x0041, peripheral, peer
            //   random 11:22:33:44:55:66, ..., Advertising_Handle 0x00, Sync_Handle 0xFFFF
            .inject(h4: "04 3e 22 29 00 4100 01 01 665544332211 000000000000 000000000000 1800 0000 4800 00 00 ffff"),
        ])
        // Events are observed in order: once 0x0041 is recorded, the others have been judged.
        await eventually("0x0041 is this set's") { await advertiser.connectionHandles == [0x0041] }
        #expect(await advertiser.isAdvertising == false)
        transport.append(try [
            .inject(h4: "04 05 04 00 4000 13"),                  // Disconnection Complete 0x0040: not ours
            .inject(h4: "04 05 04 00 4100 08"),                  // Disconnection Complete 0x0041, Connection Timeout
            .expect(h4: "01 39 20 06 01 01 00 0000 00"),         // LE Set Extended Advertising Enable: set 0x00
            .inject(h4: "04 0e 04 01 39 20 00"),
        ])
        await eventually("advertising again") { await advertiser.isAdvertising }
        #expect(await advertiser.connectionHandles.isEmpty)
        expectScriptPlayed(transport)
    }
}
