import BLECore
import HCI
import Host
import Testing

@Suite("LEScanner: legacy and extended scanning, filters, parameter checks", .timeLimit(.minutes(1)))
struct LEScannerTests {
    @Test("legacy active scan: parameters, enable, reports merged with the scan response, filter, stop")
    func legacyActiveScan() async throws {
        let transport = ScriptedHCITransport(script: try [
            // LE Set Scan Parameters: LE_Scan_Type active, LE_Scan_Interval 0x0060 (60 ms),
            //   LE_Scan_Window 0x0030 (30 ms), Own_Address_Type public, Scanning_Filter_Policy 0x00
            .expect(h4: "01 0b 20 07 01 6000 3000 00 00"),
            .inject(h4: "04 0e 04 01 0b 20 00"),
            .expect(h4: "01 0c 20 02 01 00"),                    // LE Set Scan Enable: enable, duplicates kept
            .inject(h4: "04 0e 04 01 0c 20 00"),
            // LE Advertising Report: ADV_NONCONN_IND, random 66:55:44:33:22:11, Flags 0x04, -70 dBm
            //   (no service UUID: filtered out)
            .inject(h4: "04 3e 0f 02 01 03 01 112233445566 03 020104 ba"),
            // LE Advertising Report: ADV_IND, public 00:11:22:33:44:55, Data_Length 7:
            //   Flags 0x06, Complete List of 16-bit Service UUIDs 0x180D; RSSI -60 dBm
            .inject(h4: "04 3e 13 02 01 00 00 554433221100 07 020106 03030d18 c4"),
            // LE Advertising Report: SCAN_RSP, same advertiser, Complete Local Name "HRM", -58 dBm
            .inject(h4: "04 3e 11 02 01 04 00 554433221100 05 0409 48524d c6"),
        ])
        let flow = patientFlow(transport)
        let scanner = LEScanner(flow: flow, capabilities: legacyCapabilities)
        let parameters = LEScanParameters(scanType: .active, serviceUUIDs: [BluetoothUUID(0x180D)])
        let discoveries = try await scanner.start(parameters)
        #expect(await scanner.isScanning)
        var iterator = discoveries.makeAsyncIterator()

        let first = try #require(await iterator.next())
        #expect(first.address == BluetoothAddress(0x00_11_22_33_44_55))
        #expect(first.addressType == .public)
        #expect(first.rssi == -60)
        #expect(first.txPower == nil)
        #expect(first.isConnectable)
        #expect(first.serviceUUIDs == [BluetoothUUID(0x180D)])
        #expect(first.localName == nil)

        let second = try #require(await iterator.next())
        #expect(second.address == first.address)
        #expect(second.localName == "HRM")
        #expect(second.rssi == -58)
        #expect(second.isConnectable, "a scan response keeps the advertising's properties")
        #expect(second.serviceUUIDs == [BluetoothUUID(0x180D)])

        transport.append(try [
            .expect(h4: "01 0c 20 02 00 00"),                    // LE Set Scan Enable: disable
            .inject(h4: "04 0e 04 01 0c 20 00"),
        ])
        try await scanner.stop()
        #expect(await iterator.next() == nil)
        #expect(await scanner.isScanning == false)
        expectScriptPlayed(transport)
    }

    @Test("extended passive scan with duplicates filtered: a 128-bit solicited UUID passes the filter")
    func extendedPassiveScan() async throws {
        let transport = ScriptedHCITransport(script: try [
            // LE Set Extended Scan Parameters: Own_Address_Type public, Scanning_Filter_Policy 0x00,
            //   Scanning_PHYs LE 1M; Scan_Type passive, Scan_Interval 0x0060, Scan_Window 0x0030
            .expect(h4: "01 41 20 08 00 00 01 00 6000 3000"),
            .inject(h4: "04 0e 04 01 41 20 00"),
            // LE Set Extended Scan Enable: Enable, Filter_Duplicates 0x01, Duration 0, Period 0
            .expect(h4: "01 42 20 06 01 01 0000 0000"),
            .inject(h4: "04 0e 04 01 42 20 00"),
            // LE Extended Advertising Report: Event_Type 0x0010 (legacy ADV_NONCONN_IND), public
            //   00:11:22:33:44:66, LE 1M, no secondary PHY, no ADI, TX_Power 0x7F (n/a), RSSI -80,
            //   Data_Length 4: Complete List of 16-bit Service UUIDs 0x180F (filtered out)
            .inject(h4: "04 3e 1e 0d 01 1000 00 664433221100 01 00 ff 7f b0 0000 00 000000000000 04 03030f18"),
            // LE Extended Advertising Report: Event_Type 0x0013 (legacy ADV_IND), random
            //   C0:FF:EE:00:11:22, RSSI -60, Data_Length 18: List of 128-bit Service Solicitation
            //   UUIDs 6E400001-B5A3-F393-E0A9-E50E24DCCA9E
            .inject(h4: """
                04 3e 2c 0d 01 1300 01 221100eeffc0 01 00 ff 7f c4 0000 00 000000000000 12
                1115 9ecadc240ee5a9e093f3a3b501 00 406e
                """),
        ])
        let flow = patientFlow(transport)
        let scanner = LEScanner(flow: flow, capabilities: extendedCapabilities())
        let nus = try #require(BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))
        let discoveries = try await scanner.start(LEScanParameters(filterDuplicates: true, serviceUUIDs: [nus]))
        var iterator = discoveries.makeAsyncIterator()
        let found = try #require(await iterator.next())
        #expect(found.address == BluetoothAddress(0xC0_FF_EE_00_11_22))
        #expect(found.addressType == .random)
        #expect(found.rssi == -60)
        #expect(found.txPower == nil)
        #expect(found.isConnectable)
        #expect(found.solicitedServiceUUIDs == [nus])
        #expect(found.serviceUUIDs == [])

        transport.finish()                                       // the controller goes away
        #expect(await iterator.next() == nil)
        await eventually("the scan is over") { await scanner.isScanning == false }
        expectScriptPlayed(transport)
    }

    @Test("duplicates filtered: an advertiser is reported again only when its data or type changed, not for a new RSSI")
    func hostDuplicateFilter() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 0b 20 07 01 6000 3000 00 00"),          // LE Set Scan Parameters, active
            .inject(h4: "04 0e 04 01 0b 20 00"),
            .expect(h4: "01 0c 20 02 01 01"),                       // LE Set Scan Enable: enable, Filter_Duplicates 0x01
            .inject(h4: "04 0e 04 01 0c 20 00"),
            // LE Advertising Reports from public 00:11:22:33:44:55, as a controller that does not
            // filter (BlueZ's btvirt) sends them:
            .inject(h4: "04 3e 0f 02 01 00 00 554433221100 03 020106 c4"),     // 1. ADV_IND, Flags 0x06, -60 dBm: reported
            .inject(h4: "04 3e 0f 02 01 00 00 554433221100 03 020106 ce"),     // 2. the same at -50 dBm: dropped
            .inject(h4: "04 3e 11 02 01 04 00 554433221100 05 0409 48524d c6"), // 3. SCAN_RSP "HRM": reported
            .inject(h4: "04 3e 11 02 01 04 00 554433221100 05 0409 48524d c0"), // 4. the same again: dropped
            .inject(h4: "04 3e 0f 02 01 00 00 554433221100 03 020104 c4"),     // 5. ADV_IND, Flags 0x04 now: reported
            .inject(h4: "04 3e 0f 02 01 00 00 112233445566 03 020106 b0"),     // 6. another advertiser: reported
        ])
        let scanner = LEScanner(flow: patientFlow(transport), capabilities: legacyCapabilities)
        let discoveries = try await scanner.start(LEScanParameters(scanType: .active, filterDuplicates: true))
        var iterator = discoveries.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(first.rssi == -60)
        #expect(first.localName == nil)
        let named = try #require(await iterator.next())
        #expect(named.localName == "HRM")
        #expect(named.rssi == -58)
        let changed = try #require(await iterator.next())
        #expect(changed.advertisement.flags?.rawValue == 0x04)
        #expect(changed.localName == "HRM")
        let other = try #require(await iterator.next())
        #expect(other.address == BluetoothAddress(0x66_55_44_33_22_11))
        transport.finish()
        #expect(await iterator.next() == nil, "reports 2 and 4 were duplicates")
        expectScriptPlayed(transport)
    }

    @Test("one bad report does not take the good one before it: the advertiser is still discovered")
    func badReportKeepsTheGoodOne() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 0b 20 07 00 6000 3000 00 00"),          // LE Set Scan Parameters, passive
            .inject(h4: "04 0e 04 01 0b 20 00"),
            .expect(h4: "01 0c 20 02 01 00"),
            .inject(h4: "04 0e 04 01 0c 20 00"),
            // LE Advertising Report, Num_Reports 2: ADV_IND from public 00:11:22:33:44:55 (Flags
            // 0x06, -60 dBm), then a report whose Data_Length 0x1f runs past the event's end.
            .inject(h4: "04 3e 1a 02 02 00 00 554433221100 03 020106 c4 00 00 665544332211 1f 0201"),
        ])
        let scanner = LEScanner(flow: patientFlow(transport), capabilities: legacyCapabilities)
        let discoveries = try await scanner.start(LEScanParameters())
        var iterator = discoveries.makeAsyncIterator()
        let found = try #require(await iterator.next())
        #expect(found.address == BluetoothAddress(0x00_11_22_33_44_55))
        #expect(found.advertisement.flags?.rawValue == 0x06)
        transport.finish()
        #expect(await iterator.next() == nil, "nothing from the bad report")
        expectScriptPlayed(transport)
    }

    @Test("the service filter matches 16-, 32- and 128-bit forms, advertised or solicited, in either payload")
    func serviceFilter() throws {
        func advertisement(_ data: String, scanResponse: String? = nil) -> Advertisement? {
            var accumulator = AdvertisementAccumulator()
            let address = BluetoothAddress(0x00_11_22_33_44_55)
            var update = accumulator.add(LEAdvertisingReport(eventType: .advInd, addressType: .public, address: address,
                                                             data: Hex.decode(data) ?? [], rssi: -50))
            if let scanResponse {
                update = accumulator.add(LEAdvertisingReport(eventType: .scanRsp, addressType: .public, address: address,
                                                             data: Hex.decode(scanResponse) ?? [], rssi: -50))
            }
            return update.advertisement
        }
        let uuid32 = BluetoothUUID(uuid32: 0x1234_5678)
        let filter32 = LEScanParameters(serviceUUIDs: [uuid32])
        let filter16 = LEScanParameters(serviceUUIDs: [BluetoothUUID(0x180D)])
        let filter128Alias = LEScanParameters(serviceUUIDs: [BluetoothUUID(0x180D).as128Bit])
        let noFilter = LEScanParameters()

        // Complete List of 32-bit Service UUIDs: 0x12345678
        let list32 = try #require(advertisement("05 05 78563412"))
        // Incomplete List of 16-bit Service UUIDs in the scan response: 0x180D
        let inScanResponse = try #require(advertisement("020106", scanResponse: "03 02 0d18"))
        // List of 16-bit Service Solicitation UUIDs: 0x180D
        let solicited16 = try #require(advertisement("03 14 0d18"))
        // Flags only
        let none = try #require(advertisement("020106"))

        #expect(filter32.matches(list32))
        #expect(!filter16.matches(list32))
        #expect(filter16.matches(inScanResponse))
        #expect(filter128Alias.matches(inScanResponse))
        #expect(filter16.matches(solicited16))
        #expect(!filter16.matches(none))
        #expect(noFilter.matches(none))
    }

    @Test("interval and window are checked against the family's ranges before anything is sent")
    func parameterChecks() async throws {
        let transport = ScriptedHCITransport()
        let flow = patientFlow(transport)
        let scanner = LEScanner(flow: flow, capabilities: legacyCapabilities)

        let tooShort = LEScanParameters(interval: LESlotDuration(rawValue: 0x0003), window: LESlotDuration(rawValue: 0x0003))
        let error = await #expect(throws: LEScannerError.self) { try await scanner.start(tooShort) }
        #expect(error == .intervalOutOfRange(LESlotDuration(rawValue: 0x0003), allowed: 0x0004...0x4000))
        #expect(error?.description == "scan interval 1.875 ms (0x3) is outside 0x4...0x4000 (0.625 ms units)")

        let longLegacy = LEScanParameters(interval: LESlotDuration(rawValue: 0x4001), window: LESlotDuration(rawValue: 0x0010))
        #expect(throws: LEScannerError.intervalOutOfRange(LESlotDuration(rawValue: 0x4001), allowed: 0x0004...0x4000)) {
            try longLegacy.validate(for: .legacy)
        }
        #expect(throws: Never.self) { try longLegacy.validate(for: .extended) }

        let wideWindow = LEScanParameters(interval: LESlotDuration(rawValue: 0x0010), window: LESlotDuration(rawValue: 0x0020))
        #expect(throws: LEScannerError.windowLongerThanInterval(window: LESlotDuration(rawValue: 0x0020),
                                                                interval: LESlotDuration(rawValue: 0x0010))) {
            try wideWindow.validate(for: .extended)
        }
        let tinyWindow = LEScanParameters(window: LESlotDuration(rawValue: 0x0002))
        #expect(throws: LEScannerError.windowOutOfRange(LESlotDuration(rawValue: 0x0002), allowed: 0x0004...0x4000)) {
            try tinyWindow.validate(for: .legacy)
        }
        let reserved = LEScanParameters(scanType: LEScanType(rawValue: 0x02))
        #expect(throws: LEScannerError.invalidScanType(LEScanType(rawValue: 0x02))) { try reserved.validate(for: .legacy) }

        #expect(transport.sent.isEmpty)
        #expect(await scanner.isScanning == false)
    }

    @Test("a refused command fails start, leaves no scan, and a second start while scanning is refused")
    func refusedAndAlreadyScanning() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 0b 20 07 00 6000 3000 00 00"),
            .inject(h4: "04 0e 04 01 0b 20 0c"),                 // Command Disallowed
            .expect(h4: "01 0b 20 07 00 6000 3000 00 00"),
            .inject(h4: "04 0e 04 01 0b 20 00"),
            .expect(h4: "01 0c 20 02 01 01"),                    // enable, filter duplicates
            .inject(h4: "04 0e 04 01 0c 20 00"),
        ])
        let flow = patientFlow(transport)
        let scanner = LEScanner(flow: flow, capabilities: legacyCapabilities)
        let refused = await #expect(throws: LEScannerError.self) { try await scanner.start() }
        #expect(refused == .command(.status(.commandDisallowed, opcode: .leSetScanParameters)))
        #expect(await scanner.isScanning == false)

        _ = try await scanner.start(LEScanParameters(filterDuplicates: true))
        let again = await #expect(throws: LEScannerError.self) { try await scanner.start() }
        #expect(again == .alreadyScanning)
        expectScriptPlayed(transport)
    }
}
