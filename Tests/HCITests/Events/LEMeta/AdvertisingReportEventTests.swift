import BLECore
import HCI
import Testing

/// The legacy and extended advertising report subevents.
@Suite("LE Meta advertising report subevents")
struct AdvertisingReportEventTests {
    static let twoReports = hex("""
        02                   # Num_Reports 2
        00                   #   Event_Type: ADV_IND
        01                   #   Address_Type: random
        c3 a2 11 22 33 f0    #   Address F0:33:22:11:A2:C3
        03                   #   Data_Length 3
        02 01 06             #   Data: Flags 0x06
        c4                   #   RSSI -60 dBm
        04                   #   Event_Type: SCAN_RSP
        01                   #   Address_Type: random
        c3 a2 11 22 33 f0    #   Address F0:33:22:11:A2:C3
        07                   #   Data_Length 7
        06 09 4c 69 6e 75 78 #   Data: Complete Local Name "Linux"
        c3                   #   RSSI -61 dBm
        """)

    @Test("LE Advertising Report with an advertisement and its scan response")
    func advertisingReport() throws {
        // Built from Vol 4, Part E, 7.7.65.2 (the captured controllers report extended).
        let event = hex("3e 20 02") + Self.twoReports   // LE Meta, 32 octets, subevent 0x02
        guard case .leMeta(.advertisingReport(let report)) = try HCIEvent(decoding: event) else { Issue.record("not LE Advertising Report"); return }
        #expect(report.reports.count == 2)
        let first = report.reports[0]
        #expect(first.eventType == .advInd)
        #expect(first.addressType == .random)
        #expect(first.address == BluetoothAddress("F0:33:22:11:A2:C3"))
        #expect(first.data == hex("02 01 06"))
        #expect(first.rssi == -60)
        let second = report.reports[1]
        #expect(second.eventType == .scanRsp)
        #expect(second.eventType.isScanResponse)
        #expect(second.addressType == .random)
        #expect(second.address == first.address)
        #expect(second.data == hex("06 09 4c 69 6e 75 78"))
        #expect(second.rssi == -61)
        #expect(report.description == "LE Advertising Report num_reports=2 reports=[{event_type=ADV_IND address_type=random address=F0:33:22:11:A2:C3 data_length=3 data=020106 rssi=-60 dBm}, {event_type=SCAN_RSP address_type=random address=F0:33:22:11:A2:C3 data_length=7 data=06094c696e7578 rssi=-61 dBm}]")
    }

    @Test("LE Advertising Report round trip; Num_Reports that overruns; Data_Length that overruns")
    func advertisingReportRoundTrip() throws {
        try expectRoundTrip(LEMetaEvent.AdvertisingReport.self, Self.twoReports)
        // Num_Reports 3 but two reports: Event_Type of the third is missing, at event offset 34.
        var three = Self.twoReports
        three[0] = 3
        #expect(throws: BLEDecodingError.truncated(field: "Event_Type[2]", offset: 34, needed: 1, available: 0)) {
            _ = try HCIEvent(decoding: hex("3e 20 02") + three)
        }
        // The first report's Data_Length says 30 but the event ends 21 octets later.
        var long = Self.twoReports
        long[9] = 30
        #expect(throws: BLEDecodingError.truncated(field: "Data[0]", offset: 13, needed: 30, available: 21)) {
            _ = try HCIEvent(decoding: hex("3e 20 02") + long)
        }
        // The existing per-report API reads and writes one report in place.
        var reader = ByteReader(Array(Self.twoReports.dropFirst()))
        let first = try LEAdvertisingReport(from: &reader)
        #expect(reader.offset == 13)
        var writer = ByteWriter()
        first.write(to: &writer)
        #expect(writer.bytes == Array(Self.twoReports[1..<14]))
    }

    @Test("salvaging: the reports before a bad one are kept, with the reason decoding stopped")
    func salvaging() throws {
        // Whole: the same reports as the event's decoding, no error.
        let whole = LEMetaEvent.AdvertisingReport.salvaging(Self.twoReports[...])
        #expect(whole.reports == (try LEMetaEvent.AdvertisingReport(decoding: Self.twoReports)).reports)
        #expect(whole.error == nil)
        // The second report's Data_Length (offset 22) says 30, but 8 octets remain: the first is kept.
        var lying = Self.twoReports
        lying[22] = 30
        #expect(throws: BLEDecodingError.self) { _ = try LEMetaEvent.AdvertisingReport(decoding: lying) }
        let salvaged = LEMetaEvent.AdvertisingReport.salvaging(lying[...])
        #expect(salvaged.reports.map(\.data) == [hex("02 01 06")])
        #expect(salvaged.error == .truncated(field: "Data", offset: 23, needed: 30, available: 8))
        // Octets after the last report: every report kept, the trailing octets named.
        let trailing = LEMetaEvent.AdvertisingReport.salvaging((Self.twoReports + [0xEE])[...])
        #expect(trailing.reports.count == 2)
        #expect(trailing.error == .unexpectedTrailingOctets(offset: 31, count: 1))
        // Nothing at all: no reports, Num_Reports missing.
        let empty = LEMetaEvent.AdvertisingReport.salvaging([][...])
        #expect(empty.reports.isEmpty)
        #expect(empty.error == .truncated(field: "Num_Reports", offset: 0, needed: 1, available: 0))
        // Extended reports the same way: the one report, then a second cut inside its Event_Type.
        let extended = LEMetaEvent.ExtendedAdvertisingReport.salvaging((hex("02") + Self.extendedReport.dropFirst() + hex("13"))[...])
        #expect(extended.reports.count == 1)
        #expect(extended.error == .truncated(field: "Event_Type", offset: 39, needed: 2, available: 1))
    }

    static let extendedReport = hex("""
        01                   # Num_Reports 1
        13 80                #   Event_Type 0x8013: legacy ADV_IND, reserved bit 15 set
        01                   #   Address_Type: random
        6f 00 60 8c b7 69    #   Address 69:B7:8C:60:00:6F
        01                   #   Primary_PHY: LE 1M
        00                   #   Secondary_PHY: none
        ff                   #   Advertising_SID: none (legacy)
        7f                   #   TX_Power: not available
        ad                   #   RSSI -83 dBm
        00 00                #   Periodic_Advertising_Interval: none
        00                   #   Direct_Address_Type: public
        00 00 00 00 00 00    #   Direct_Address: none
        0e                   #   Data_Length 14
        02 01 02             #   Flags 0x02
        03 02 af fe          #   Incomplete List of 16-bit Service UUIDs: 0xFEAF
        06 09 4e 58 4d 31 44 #   Complete Local Name "NXM1D"
        """)

    @Test("LE Extended Advertising Report with reserved Event_Type bit 15 (0x8013), from the charger")
    func extendedAdvertisingReport() throws {
        // nexxtender btsnoop #260: the Broadcom controller sets bit 15 in some reports.
        let event = hex("3e 28 0d") + Self.extendedReport   // LE Meta, 40 octets, subevent 0x0D
        guard case .leMeta(.extendedAdvertisingReport(let report)) = try HCIEvent(decoding: event) else { Issue.record("not LE Extended Advertising Report"); return }
        #expect(report.reports.count == 1)
        let r = report.reports[0]
        #expect(r.eventType.rawValue == 0x8013)
        #expect(r.eventType.reservedBits == 0x8000)
        #expect(r.eventType.isLegacy)
        #expect(r.eventType.legacyPDU == .advInd)
        #expect(r.eventType.isConnectable)
        #expect(r.eventType.dataStatus == .complete)
        #expect(r.addressType == .random)
        #expect(r.address == BluetoothAddress("69:B7:8C:60:00:6F"))
        #expect(r.primaryPHY == 0x01)
        #expect(r.secondaryPHY == 0x00)
        #expect(r.advertisingSID == 0xFF)
        #expect(r.txPower == 127)
        #expect(r.rssi == -83)
        #expect(r.periodicAdvertisingInterval == 0)
        #expect(r.directAddressType == .public)
        #expect(r.directAddress == .zero)
        #expect(r.data == hex("02 01 02 03 02 af fe 06 09 4e 58 4d 31 44"))
        #expect(HCIEvent.leMeta(.extendedAdvertisingReport(report)).encoded == event)
    }

    @Test("LE Extended Advertising Report round trip, reserved bits 0x8010 and 0x801B kept")
    func extendedAdvertisingReportRoundTrip() throws {
        try expectRoundTrip(LEMetaEvent.ExtendedAdvertisingReport.self, Self.extendedReport)
        for eventType: UInt16 in [0x8010, 0x801B, 0x0010, 0x001B] {
            var bytes = Self.extendedReport
            bytes[1] = UInt8(eventType & 0xFF)
            bytes[2] = UInt8(eventType >> 8)
            let decoded = try LEMetaEvent.ExtendedAdvertisingReport(decoding: bytes)
            #expect(decoded.reports[0].eventType.rawValue == eventType)
            #expect(decoded.encoded == bytes)
        }
        // Num_Reports 2 with one report.
        var two = Self.extendedReport
        two[0] = 2
        #expect(throws: BLEDecodingError.truncated(field: "Event_Type[1]", offset: 42, needed: 2, available: 0)) {
            _ = try HCIEvent(decoding: hex("3e 28 0d") + two)
        }
    }
}
