import Testing
import BLECore
import BLETestSupport
@testable import HCI

/// Real LE Extended Advertising Report events from the shared captures (see
/// ../shared/captures/README.md): a few pasted with their decode, then every report of two
/// captures through the accumulator, cross-checked against tshark.
@Suite("Advertising data from real captures")
struct AdvertisingCaptureTests {
    /// The reports of one LE Meta event, LE Extended Advertising Report subevent (0x0D), given
    /// without its H4 packet indicator: Event_Code 0x3E, Parameter_Total_Length, Subevent_Code,
    /// Num_Reports, then the reports (Core v5.4, Vol 4, Part E, 7.7.65.13).
    static func extendedReports(event: [UInt8]) throws -> [LEExtendedAdvertisingReport] {
        var r = ByteReader(event)
        guard try r.readUInt8("Event_Code") == 0x3E else { return [] }
        let length = try r.readUInt8("Parameter_Total_Length")
        var p = ByteReader(try r.readSlice(Int(length), "Parameters"))
        guard try p.readUInt8("Subevent_Code") == 0x0D else { return [] }
        let count = try p.readUInt8("Num_Reports")
        return try (0..<count).map { _ in try LEExtendedAdvertisingReport(from: &p) }
    }

    @Test("iBeacon and its scan response (frames 148 and 149)")
    func iBeacon() throws {
        // 3e 38 0d 01              LE Meta, 56 octets, LE Extended Advertising Report, 1 report
        // 13 00                    Event_Type 0x0013: legacy ADV_IND (connectable, scannable)
        // 00 91 22 7f b3 46 b4     public address B4:46:B3:7F:22:91
        // 01 00 ff 7f b2           LE 1M, no secondary PHY, no SID, TX_Power n/a, RSSI -78 dBm
        // 00 00 00 00*6 1e         no periodic advertising, no direct address, Data_Length 30
        // 02 01 06                 Flags 0x06
        // 1a ff 4c 00 02 15 ...    Manufacturer Specific Data, Apple, iBeacon (0x02 0x15, 21 octets)
        let adv = try Self.extendedReports(event: try adBytes("""
            3e 38 0d 01 13 00 00 91 22 7f b3 46 b4 01 00 ff 7f b2 00 00 00 00 00 00 00 00 00 1e
            02 01 06 1a ff 4c 00 02 15 74 27 8b da b6 44 45 20 8f 0c 72 0e af 05 99 35 01 00 71 11 c5
            """))
        // 3e 32 0d 01 1b 00 ...    Event_Type 0x001B: legacy SCAN_RSP to an ADV_IND, Data_Length 24
        // 03 02 22 11              Incomplete List of 16-bit Service UUIDs: 1122
        // 13 09 53 66 ... 43       Complete Local Name "Sf2d9748e1b0b3108C"
        let rsp = try Self.extendedReports(event: try adBytes("""
            3e 32 0d 01 1b 00 00 91 22 7f b3 46 b4 01 00 ff 7f b2 00 00 00 00 00 00 00 00 00 18
            03 02 22 11 13 09 53 66 32 64 39 37 34 38 65 31 62 30 62 33 31 30 38 43
            """))
        var acc = AdvertisementAccumulator()
        let advReport = try #require(adv.first)
        let rspReport = try #require(rsp.first)
        _ = acc.add(advReport)
        let merged = try #require(acc.add(rspReport).advertisement)
        #expect(merged.address == BluetoothAddress("B4:46:B3:7F:22:91"))
        #expect(merged.addressType == .public)
        #expect(merged.advertisingSID == nil)
        #expect(merged.isLegacy && merged.isConnectable && merged.isScannable)
        #expect(merged.rssi == -78)
        #expect(merged.txPower == nil)
        #expect(merged.flags == [.leGeneralDiscoverableMode, .brEDRNotSupported])
        let apple = try #require(merged.manufacturerSpecificData.first)
        #expect(apple.companyName == "Apple, Inc.")
        #expect(apple.data.prefix(2) == [0x02, 0x15])
        #expect(merged.serviceUUIDs == [BluetoothUUID(0x1122)])
        #expect(merged.localName?.string == "Sf2d9748e1b0b3108C")
        #expect(merged.advertisingData?.isWellFormed == true)
        #expect(merged.scanResponseData?.isWellFormed == true)
    }

    @Test("a Canon camera: 128-bit UUID, Canon data, then Tx Power, Appearance and a NUL-padded name (frames 547, 548)")
    func canon() throws {
        // 13 00 00 ac 66 b2 d1 50 9c ...   legacy ADV_IND from public 9C:50:D1:B2:66:AC, RSSI -61, 31 octets:
        // 02 01 06                         Flags 0x06
        // 11 07 21 a8 ... 01 00            Complete List of 128-bit UUIDs: 00010000-0000-1000-0000-D8492FFFA821
        // 09 ff a9 01 01 ee 32 9d 34 01    Manufacturer Specific Data, 0x01A9 Canon Inc., 6 octets
        let adv = try Self.extendedReports(event: try adBytes("""
            3e 39 0d 01 13 00 00 ac 66 b2 d1 50 9c 01 00 ff 7f c3 00 00 00 00 00 00 00 00 00 1f
            02 01 06 11 07 21 a8 ff 2f 49 d8 00 00 00 10 00 00 00 00 01 00 09 ff a9 01 01 ee 32 9d 34 01
            """))
        // 1b 00 ...                        legacy SCAN_RSP, RSSI -60, 17 octets:
        // 02 0a 06                         Tx Power Level +6 dBm
        // 03 19 00 02                      Appearance 0x0200 (Tag)
        // 09 09 53 58 37 30 00 00 00 00    Complete Local Name "SX70" and four NULs
        let rsp = try Self.extendedReports(event: try adBytes("""
            3e 2b 0d 01 1b 00 00 ac 66 b2 d1 50 9c 01 00 ff 7f c4 00 00 00 00 00 00 00 00 00 11
            02 0a 06 03 19 00 02 09 09 53 58 37 30 00 00 00 00
            """))
        var acc = AdvertisementAccumulator()
        let advReport = try #require(adv.first)
        let rspReport = try #require(rsp.first)
        _ = acc.add(advReport)
        let m = try #require(acc.add(rspReport).advertisement)
        let uuid = try #require(BluetoothUUID("00010000-0000-1000-0000-D8492FFFA821"))
        #expect(m.serviceUUIDs == [uuid])
        #expect(m.manufacturerSpecificData == [ADManufacturerSpecificData(companyIdentifier: 0x01A9, data: [0x01, 0xEE, 0x32, 0x9D, 0x34, 0x01])])
        #expect(m.manufacturerSpecificData.first?.companyName == "Canon Inc.")
        #expect(m.txPowerLevel == 6)
        #expect(m.appearance?.name == "Tag")
        #expect(m.localName?.bytes == [0x53, 0x58, 0x37, 0x30, 0, 0, 0, 0])
        #expect(m.rssi == -60)
        #expect(m.scanResponseData?.description == #"Tx Power Level 6 dBm, Appearance 0x0200 (Tag), Complete Local Name "SX70\0\0\0\0""#)
    }

    @Test("Apple Nearby data with Flags 0x1A and Tx Power Level 0 dBm (frame 4087)")
    func appleNearby() throws {
        // 13 00 01 eb 0b 7b eb 9c 4c ...   legacy ADV_IND from random 4C:9C:EB:7B:0B:EB, RSSI -100, 21 octets:
        // 02 01 1a                         Flags 0x1A: LE General Discoverable, LE and BR/EDR Controller and Host
        // 0e ff 4c 00 0f 05 90 00 ...      Manufacturer Specific Data, Apple, 11 octets
        // 02 0a 00                         Tx Power Level 0 dBm
        let reports = try Self.extendedReports(event: try adBytes("""
            3e 2f 0d 01 13 00 01 eb 0b 7b eb 9c 4c 01 00 ff 7f 9c 00 00 00 00 00 00 00 00 00 15
            02 01 1a 0e ff 4c 00 0f 05 90 00 eb 2e 62 10 02 2a 04 02 0a 00
            """))
        let report = try #require(reports.first)
        let ad = AdvertisingData(decoding: report.data)
        #expect(ad.flags == [.leGeneralDiscoverableMode, .simultaneousLEAndBREDRController, .simultaneousLEAndBREDRHost])
        #expect(ad.manufacturerSpecificData.first?.data.count == 11)
        #expect(ad.txPowerLevel == 0)
        #expect(report.rssi == -100)
        #expect(report.addressType == .random)
        try expectADRoundTrip(ad.bytes)
    }

    // MARK: Whole captures

    struct CaptureCase: Sendable, CustomStringConvertible {
        var file: String
        /// tshark -Y 'bthci_evt.le_meta_subevent == 0x0d' | wc -l
        var events: Int
        /// distinct bthci_evt.bd_addr, bthci_evt.le_peer_address_type, bthci_evt.advertising_sid
        var advertisers: Int
        /// btcommon.eir_ad.entry.type fields over those events
        var structures: Int
        var description: String { file }
    }

    @Test("every extended report of a capture decodes and merges; counts match tshark",
          .enabled(if: SharedCaptures.available, Comment(rawValue: SharedCaptures.skipNote)),
          arguments: [
            CaptureCase(file: SharedCaptures.nexxtenderCFA, events: 8241, advertisers: 18, structures: 10376),
            CaptureCase(file: SharedCaptures.nexxtenderBTSnoop, events: 290, advertisers: 10, structures: 437),
          ])
    func wholeCapture(_ capture: CaptureCase) throws {
        var acc = AdvertisementAccumulator()
        var events = 0
        var structures = 0
        var diagnostics: [ADDiagnostic] = []
        var dispositions: [AdvertisementAccumulator.Disposition: Int] = [:]
        for packet in try h4Packets(inSharedCapture: capture.file) {
            guard packet.first == 0x04, packet.count > 3, packet[packet.startIndex + 1] == 0x3E,
                  packet[packet.startIndex + 3] == 0x0D else { continue }
            events += 1
            for report in try Self.extendedReports(event: Array(packet.dropFirst())) {
                let ad = AdvertisingData(decoding: report.data)
                structures += ad.elements.count
                diagnostics += ad.diagnostics
                dispositions[acc.add(report).disposition, default: 0] += 1
            }
        }
        #expect(events == capture.events)
        #expect(acc.count == capture.advertisers)
        #expect(structures == capture.structures)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(dispositions == [.complete: capture.events])
        #expect(acc.pendingChainCount == 0)
        // Every advertisement has what it was sent, and its description can be printed.
        for adv in acc.advertisements {
            #expect(adv.advertisingData != nil || adv.scanResponseData != nil)
            #expect(!adv.description.isEmpty)
        }
    }
}
