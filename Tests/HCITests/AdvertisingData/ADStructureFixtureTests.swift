import Testing
import BLECore
@testable import HCI

/// One annotated fixture per AD type: the decode beside the octets, one expectation per field,
/// then the round trip (CSS Part A, 1; Core v5.4, Vol 3, Part C, 11).
@Suite("AD structure fixtures")
struct ADStructureFixtureTests {
    @Test("Flags (0x01)")
    func flags() throws {
        // 02        Length 2
        // 01        AD type: Flags
        // 06        LE General Discoverable Mode (bit 1), BR/EDR Not Supported (bit 2)
        let e = try onlyElement("02 01 06")
        #expect(e.offset == 0)
        #expect(e.length == 2)
        #expect(e.type == .flags)
        #expect(e.diagnostic == nil)
        let s = try #require(e.structure)
        #expect(s == .flags([.leGeneralDiscoverableMode, .brEDRNotSupported]))
        guard case .flags(let f) = s else { Issue.record("not Flags"); return }
        #expect(!f.contains(.leLimitedDiscoverableMode))
        #expect(f.rawValue == 0x06)
        #expect(s.description == "Flags 0x06 (LE General Discoverable, BR/EDR Not Supported)")
        try expectADRoundTrip(try adBytes("02 01 06"))

        // 02 01 e5: Limited (bit 0), Controller (bit 2)... reserved bits 5...7 are kept.
        let r = try onlyElement("02 01 e5")
        guard case .flags(let reserved)? = r.structure else { Issue.record("not Flags"); return }
        #expect(reserved.rawValue == 0xE5)
        #expect(reserved.intersection(.reserved).rawValue == 0xE0)
        #expect(r.structure?.description == "Flags 0xE5 (LE Limited Discoverable, BR/EDR Not Supported, reserved 0xE0)")
        try expectADRoundTrip(try adBytes("02 01 e5"))
    }

    @Test("Incomplete and Complete List of 16-bit Service UUIDs (0x02, 0x03)")
    func serviceUUIDs16() throws {
        // 03        Length 3
        // 02        AD type: Incomplete List of 16-bit Service UUIDs
        // 0d 18     0x180D Heart Rate
        let incomplete = try onlyElement("03 02 0d 18")
        #expect(incomplete.type == .incompleteServiceUUIDs16)
        #expect(incomplete.structure == .serviceUUIDs(ADUUIDList(uuids16: [0x180D]), isComplete: false))
        #expect(incomplete.structure?.description == "Incomplete 16-bit UUIDs 180D (Heart Rate)")

        // 05 03     Length 5, Complete List of 16-bit Service UUIDs
        // 0d 18     0x180D Heart Rate
        // 0f 18     0x180F Battery
        let complete = try onlyElement("05 03 0d 18 0f 18")
        #expect(complete.type == .completeServiceUUIDs16)
        guard case let .serviceUUIDs(list, isComplete)? = complete.structure else { Issue.record("not a UUID list"); return }
        #expect(isComplete)
        #expect(list.width == .bits16)
        #expect(list.uuids == [BluetoothUUID(0x180D), BluetoothUUID(0x180F)])
        #expect(complete.structure?.description == "16-bit UUIDs 180D (Heart Rate), 180F (Battery)")
        try expectADRoundTrip(try adBytes("03 02 0d 18 05 03 0d 18 0f 18"))

        // 01 03     Length 1: a complete list with no UUIDs (no 16-bit services).
        let empty = try onlyElement("01 03")
        #expect(empty.diagnostic == nil)
        #expect(empty.structure == .serviceUUIDs(ADUUIDList(uuids16: []), isComplete: true))
        try expectADRoundTrip(try adBytes("01 03"))
    }

    @Test("Incomplete and Complete List of 32-bit Service UUIDs (0x04, 0x05)")
    func serviceUUIDs32() throws {
        // 05 04         Length 5, Incomplete List of 32-bit Service UUIDs
        // 78 56 34 12   0x12345678
        let e = try onlyElement("05 04 78 56 34 12")
        #expect(e.structure == .serviceUUIDs(ADUUIDList(uuids32: [0x1234_5678]), isComplete: false))
        #expect(e.structure?.description == "Incomplete 32-bit UUIDs 12345678")

        // 09 05         Length 9, Complete List of 32-bit Service UUIDs
        // 0d 18 00 00   0x0000180D (Heart Rate, in 32 bits)
        // ef be ad de   0xDEADBEEF
        let c = try onlyElement("09 05 0d 18 00 00 ef be ad de")
        guard case let .serviceUUIDs(list, true)? = c.structure else { Issue.record("not a complete list"); return }
        #expect(list.width == .bits32)
        #expect(list.uuids == [BluetoothUUID(0x180D), BluetoothUUID(uuid32: 0xDEAD_BEEF)])
        #expect(list.uuids[0].width == .bits32)
        try expectADRoundTrip(try adBytes("05 04 78 56 34 12 09 05 0d 18 00 00 ef be ad de"))
    }

    @Test("Incomplete and Complete List of 128-bit Service UUIDs (0x06, 0x07)")
    func serviceUUIDs128() throws {
        // Canon PowerShot SX70 HS advertising data (capture nexxtender...extadv.cfa, frame 547):
        // 11 07        Length 17, Complete List of 128-bit Service UUIDs
        // 21 a8 ff 2f 49 d8 00 00 00 10 00 00 00 00 01 00
        //              00010000-0000-1000-0000-D8492FFFA821 (least significant octet first)
        let c = try onlyElement("11 07 21 a8 ff 2f 49 d8 00 00 00 10 00 00 00 00 01 00")
        let uuid = try #require(BluetoothUUID("00010000-0000-1000-0000-D8492FFFA821"))
        #expect(c.structure == .serviceUUIDs(ADUUIDList(uuids128: [uuid]), isComplete: true))
        #expect(c.structure?.description == "128-bit UUIDs 00010000-0000-1000-0000-D8492FFFA821")

        // 11 06        Length 17, Incomplete List of 128-bit Service UUIDs
        // fb 34 9b 5f 80 00 00 80 00 10 00 00 0d 18 00 00   0000180D-0000-1000-8000-00805F9B34FB
        let i = try onlyElement("11 06 fb 34 9b 5f 80 00 00 80 00 10 00 00 0d 18 00 00")
        guard case let .serviceUUIDs(list, false)? = i.structure else { Issue.record("not an incomplete list"); return }
        #expect(list.uuids == [BluetoothUUID(0x180D)])   // equal to its 16-bit alias...
        #expect(list.uuids[0].width == .bits128)          // ...but kept in 128 bits
        try expectADRoundTrip(try adBytes("11 07 21 a8 ff 2f 49 d8 00 00 00 10 00 00 00 00 01 00 11 06 fb 34 9b 5f 80 00 00 80 00 10 00 00 0d 18 00 00"))
    }

    @Test("Shortened and Complete Local Name (0x08, 0x09)")
    func localName() throws {
        // 05 09 41 42 43 44     Length 5, Complete Local Name "ABCD"
        let c = try onlyElement("05 09 41 42 43 44")
        guard case .localName(let name)? = c.structure else { Issue.record("not a name"); return }
        #expect(name.isComplete)
        #expect(name.string == "ABCD")
        #expect(name.bytes == [0x41, 0x42, 0x43, 0x44])
        #expect(name.isValidUTF8)
        #expect(c.structure?.description == #"Complete Local Name "ABCD""#)

        // 03 08 4c 42           Length 3, Shortened Local Name "LB"
        let s = try onlyElement("03 08 4c 42")
        #expect(s.structure == .localName(ADLocalName("LB", isComplete: false)))
        #expect(s.structure?.description == #"Shortened Local Name "LB""#)

        // 05 09 41 42 ff 44     Complete Local Name, 0xFF is not UTF-8: bytes kept, lossy string
        let bad = try onlyElement("05 09 41 42 ff 44")
        #expect(bad.diagnostic == nil)
        guard case .localName(let badName)? = bad.structure else { Issue.record("not a name"); return }
        #expect(badName.bytes == [0x41, 0x42, 0xFF, 0x44])
        #expect(badName.string == "AB\u{FFFD}D")
        #expect(!badName.isValidUTF8)
        #expect(badName.description == #""AB\#u{FFFD}D" (invalid UTF-8: 41 42 ff 44)"#)

        // 09 09 53 58 37 30 00 00 00 00   Complete Local Name "SX70" padded with four NULs
        // (Canon camera scan response, capture frame 548): the NULs are kept.
        let padded = try onlyElement("09 09 53 58 37 30 00 00 00 00")
        guard case .localName(let sx70)? = padded.structure else { Issue.record("not a name"); return }
        #expect(sx70.string == "SX70\0\0\0\0")
        #expect(sx70.description == #""SX70\0\0\0\0""#)
        try expectADRoundTrip(try adBytes("05 09 41 42 43 44 03 08 4c 42 05 09 41 42 ff 44 09 09 53 58 37 30 00 00 00 00"))
    }

    @Test("Tx Power Level (0x0A)")
    func txPowerLevel() throws {
        // 02 0a f8              Length 2, Tx Power Level -8 dBm (signed)
        let e = try onlyElement("02 0a f8")
        #expect(e.structure == .txPowerLevel(-8))
        #expect(e.structure?.description == "Tx Power Level -8 dBm")
        // 02 0a 0b              +11 dBm
        #expect(try onlyElement("02 0a 0b").structure == .txPowerLevel(11))
        try expectADRoundTrip(try adBytes("02 0a f8 02 0a 0b 02 0a 81"))
    }

    @Test("Peripheral Connection Interval Range (0x12)")
    func connectionIntervalRange() throws {
        // 05 12                 Length 5, Peripheral Connection Interval Range
        // 06 00                 Conn_Interval_Min 6 × 1.25 ms = 7.5 ms
        // 18 00                 Conn_Interval_Max 24 × 1.25 ms = 30 ms
        let e = try onlyElement("05 12 06 00 18 00")
        guard case .peripheralConnectionIntervalRange(let r)? = e.structure else { Issue.record("not a range"); return }
        #expect(r.minimum == 6)
        #expect(r.maximum == 24)
        #expect(r.minimumMicroseconds == 7_500)
        #expect(r.maximumMicroseconds == 30_000)
        #expect(e.structure?.description == "Peripheral Connection Interval Range 7.5 ms...30 ms")

        // 05 12 ff ff 20 00     no specific minimum (0xFFFF), maximum 32 × 1.25 ms = 40 ms
        let open = try onlyElement("05 12 ff ff 20 00")
        guard case .peripheralConnectionIntervalRange(let o)? = open.structure else { Issue.record("not a range"); return }
        #expect(o.minimumMicroseconds == nil)
        #expect(o.maximumMicroseconds == 40_000)
        #expect(o.description == "no specific minimum...40 ms")
        try expectADRoundTrip(try adBytes("05 12 06 00 18 00 05 12 ff ff 20 00"))
    }

    @Test("Service Solicitation UUID lists (0x14, 0x1F, 0x15)")
    func serviceSolicitation() throws {
        // 03 14 12 18           Length 3, 16-bit Service Solicitation: 0x1812 Human Interface Device
        let s16 = try onlyElement("03 14 12 18")
        #expect(s16.structure == .serviceSolicitation(ADUUIDList(uuids16: [0x1812])))
        #expect(s16.structure?.description == "Solicited 16-bit UUIDs 1812 (Human Interface Device)")
        // 05 1f 1a 18 00 00     Length 5, 32-bit Service Solicitation: 0x0000181A
        let s32 = try onlyElement("05 1f 1a 18 00 00")
        #expect(s32.structure == .serviceSolicitation(ADUUIDList(uuids32: [0x181A])))
        // 11 15 + 16 octets     Length 17, 128-bit Service Solicitation
        // c1 75 5f 04 a8 b4 b5 88 06 42 fb 95 6a 41 47 fd   FD47416A-95FB-4206-88B5-B4A8045F75C1
        let s128 = try onlyElement("11 15 c1 75 5f 04 a8 b4 b5 88 06 42 fb 95 6a 41 47 fd")
        let vendor = try #require(BluetoothUUID("FD47416A-95FB-4206-88B5-B4A8045F75C1"))
        #expect(s128.structure == .serviceSolicitation(ADUUIDList(uuids128: [vendor])))
        try expectADRoundTrip(try adBytes("03 14 12 18 05 1f 1a 18 00 00 11 15 c1 75 5f 04 a8 b4 b5 88 06 42 fb 95 6a 41 47 fd"))
    }

    @Test("Service Data 16-, 32- and 128-bit (0x16, 0x20, 0x21)")
    func serviceData() throws {
        // 04 16                 Length 4, Service Data - 16-bit UUID
        // 0f 18                 0x180F Battery
        // 64                    data: 0x64
        let s16 = try onlyElement("04 16 0f 18 64")
        guard case .serviceData(let sd)? = s16.structure else { Issue.record("not service data"); return }
        #expect(sd.uuid == BluetoothUUID(0x180F))
        #expect(sd.uuid.width == .bits16)
        #expect(sd.data == [0x64])
        #expect(sd.type == .serviceData16)
        #expect(s16.structure?.description == "Service Data 180F (Battery): 64")

        // 07 20 78 56 34 12 01 02   Length 7, Service Data - 32-bit UUID 0x12345678, data 01 02
        let s32 = try onlyElement("07 20 78 56 34 12 01 02")
        #expect(s32.structure == .serviceData(ADServiceData(uuid: BluetoothUUID(uuid32: 0x1234_5678), data: [1, 2])))

        // Nexxtender charger scan response (capture frame 165):
        // 15 21                 Length 21, Service Data - 128-bit UUID
        // c0 75 5f 04 a8 b4 b5 88 06 42 fb 95 6a 41 47 fd   FD47416A-95FB-4206-88B5-B4A8045F75C0
        // 17 03 00 05           data
        let s128 = try onlyElement("15 21 c0 75 5f 04 a8 b4 b5 88 06 42 fb 95 6a 41 47 fd 17 03 00 05")
        let uuid = try #require(BluetoothUUID("FD47416A-95FB-4206-88B5-B4A8045F75C0"))
        #expect(s128.structure == .serviceData(ADServiceData(uuid: uuid, data: [0x17, 0x03, 0x00, 0x05])))

        // 03 16 0f 18           only the UUID, no data: allowed
        #expect(try onlyElement("03 16 0f 18").structure == .serviceData(ADServiceData(uuid: BluetoothUUID(0x180F), data: [])))
        try expectADRoundTrip(try adBytes("04 16 0f 18 64 07 20 78 56 34 12 01 02 03 16 0f 18 15 21 c0 75 5f 04 a8 b4 b5 88 06 42 fb 95 6a 41 47 fd 17 03 00 05"))
    }

    @Test("Public and Random Target Address (0x17, 0x18)")
    func targetAddresses() throws {
        // 07 17                 Length 7, Public Target Address
        // 06 05 04 03 02 01     01:02:03:04:05:06 (least significant octet first)
        let p = try onlyElement("07 17 06 05 04 03 02 01")
        #expect(p.structure == .publicTargetAddresses([BluetoothAddress(0x0102_0304_0506)]))
        #expect(p.structure?.description == "Public Target Address 01:02:03:04:05:06")
        // 0d 18                 Length 13, Random Target Address, two addresses
        // 66 55 44 33 22 c1     C1:22:33:44:55:66
        // ff ee dd cc bb 4a     4A:BB:CC:DD:EE:FF
        let r = try onlyElement("0d 18 66 55 44 33 22 c1 ff ee dd cc bb 4a")
        #expect(r.structure == .randomTargetAddresses([BluetoothAddress(0xC122_3344_5566), BluetoothAddress(0x4ABB_CCDD_EEFF)]))
        try expectADRoundTrip(try adBytes("07 17 06 05 04 03 02 01 0d 18 66 55 44 33 22 c1 ff ee dd cc bb 4a"))
    }

    @Test("Appearance (0x19)")
    func appearance() throws {
        // 03 19 c1 03           Length 3, Appearance 0x03C1: category 0x0F (HID), sub-category 0x01 (Keyboard)
        let e = try onlyElement("03 19 c1 03")
        guard case .appearance(let a)? = e.structure else { Issue.record("not an appearance"); return }
        #expect(a.rawValue == 0x03C1)
        #expect(a.category == 0x0F)
        #expect(a.subcategory == 0x01)
        #expect(a.name == "Human Interface Device: Keyboard")
        #expect(a == ADAppearance(category: 0x0F, subcategory: 0x01))
        #expect(e.structure?.description == "Appearance 0x03C1 (Human Interface Device: Keyboard)")
        // 03 19 00 02           Appearance 0x0200 Tag (Canon camera scan response, capture frame 548)
        #expect(try onlyElement("03 19 00 02").structure == .appearance(ADAppearance(rawValue: 0x0200)))
        try expectADRoundTrip(try adBytes("03 19 c1 03 03 19 00 02"))
    }

    @Test("Advertising Interval (0x1A) and Advertising Interval - long (0x2F)")
    func advertisingInterval() throws {
        // 03 1a a0 00           Length 3, Advertising Interval 160 × 0.625 ms = 100 ms
        let e = try onlyElement("03 1a a0 00")
        guard case .advertisingInterval(let i)? = e.structure else { Issue.record("not an interval"); return }
        #expect(i.units == 160)
        #expect(i.octetCount == 2)
        #expect(i.microseconds == 100_000)
        #expect(i.type == .advertisingInterval)
        #expect(e.structure?.description == "Advertising Interval 160 × 0.625 ms = 100 ms")
        // 03 1a 21 00           33 × 0.625 ms = 20.625 ms
        #expect(try onlyElement("03 1a 21 00").structure?.description == "Advertising Interval 33 × 0.625 ms = 20.625 ms")

        // 04 2f 00 00 01        Length 4, Advertising Interval - long, 3 octets: 0x010000 × 0.625 ms = 40.96 s
        let long3 = try onlyElement("04 2f 00 00 01")
        guard case .advertisingInterval(let l3)? = long3.structure else { Issue.record("not an interval"); return }
        #expect(l3.units == 0x01_0000)
        #expect(l3.octetCount == 3)
        #expect(l3.type == .advertisingIntervalLong)
        #expect(l3.microseconds == 40_960_000)
        // 05 2f 40 42 0f 00     4 octets: 1,000,000 × 0.625 ms; the fourth (zero) octet is kept
        let long4 = try onlyElement("05 2f 40 42 0f 00")
        #expect(long4.structure == .advertisingInterval(try #require(ADAdvertisingInterval(units: 1_000_000, octetCount: 4))))
        #expect(ADAdvertisingInterval(longUnits: 0x100_0000).octetCount == 4)
        #expect(ADAdvertisingInterval(units: 0x1_0000, octetCount: 2) == nil)
        try expectADRoundTrip(try adBytes("03 1a a0 00 04 2f 00 00 01 05 2f 40 42 0f 00"))
    }

    @Test("LE Role (0x1C)")
    func leRole() throws {
        // 02 1c 02              Length 2, LE Role: Peripheral and Central, Peripheral preferred
        let e = try onlyElement("02 1c 02")
        #expect(e.structure == .leRole(.peripheralPreferred))
        #expect(e.structure?.description == "LE Role 0x02 (Peripheral and Central, Peripheral preferred)")
        // 02 1c 07              reserved value, kept raw
        #expect(try onlyElement("02 1c 07").structure == .leRole(ADLERole(rawValue: 0x07)))
        #expect(ADLERole(rawValue: 0x07).description == "0x07 (reserved)")
        try expectADRoundTrip(try adBytes("02 1c 00 02 1c 01 02 1c 02 02 1c 03 02 1c 07"))
    }

    @Test("URI (0x24)")
    func uri() throws {
        // 0f 24                 Length 15, URI
        // 17                    scheme code point U+0017 "https:"
        // 2f 2f 65 78 61 6d 70 6c 65 2e 63 6f 6d   "//example.com"
        let e = try onlyElement("0f 24 17 2f 2f 65 78 61 6d 70 6c 65 2e 63 6f 6d")
        guard case .uri(let u)? = e.structure else { Issue.record("not a URI"); return }
        #expect(u.schemeCodePoint == 0x17)
        #expect(u.schemeName == "https:")
        #expect(u.rest == "//example.com")
        #expect(u.uriString == "https://example.com")
        #expect(e.structure?.description == #"URI "https://example.com""#)
        #expect(u == ADURI(scheme: "\u{17}", rest: "//example.com"))

        // 06 24 c2 b9 66 6f 6f  Length 6, URI: scheme U+00B9 (two UTF-8 octets, "example:"), "foo"
        let two = try onlyElement("06 24 c2 b9 66 6f 6f")
        guard case .uri(let e2)? = two.structure else { Issue.record("not a URI"); return }
        #expect(e2.schemeCodePoint == 0xB9)
        #expect(e2.schemeName == "example:")
        #expect(e2.uriString == "example:foo")

        // 06 24 df bf 66 6f 6f  Length 6, URI: scheme U+07FF (unassigned), "foo"; the code point is kept raw
        let raw = try onlyElement("06 24 df bf 66 6f 6f")
        guard case .uri(let r)? = raw.structure else { Issue.record("not a URI"); return }
        #expect(r.schemeCodePoint == 0x7FF)
        #expect(r.restBytes == [0x66, 0x6F, 0x6F])
        #expect(r.uriString == nil)
        #expect(r.description == #"scheme 0x07FF "foo""#)
        try expectADRoundTrip(try adBytes("0f 24 17 2f 2f 65 78 61 6d 70 6c 65 2e 63 6f 6d 06 24 df bf 66 6f 6f"))
    }

    @Test("LE Supported Features (0x27)")
    func leSupportedFeatures() throws {
        // 03 27                 Length 3, LE Supported Features
        // 21 01                 bits 0 (LE Encryption), 5 (Data Packet Length Extension), 8 (LE 2M PHY)
        let e = try onlyElement("03 27 21 01")
        guard case .leSupportedFeatures(let f)? = e.structure else { Issue.record("not features"); return }
        #expect(f.bytes == [0x21, 0x01])
        #expect(f.isSet(bit: 0))
        #expect(f.isSet(bit: 5))
        #expect(f.isSet(bit: 8))
        #expect(!f.isSet(bit: 1))
        #expect(!f.isSet(bit: 64))
        #expect(f.setBits == [0, 5, 8])
        #expect(e.structure?.description == "LE Supported Features bits 0, 5, 8 (21 01)")
        try expectADRoundTrip(try adBytes("03 27 21 01 01 27"))
    }

    @Test("Manufacturer Specific Data (0xFF)")
    func manufacturerSpecificData() throws {
        // iBeacon (capture frame 148):
        // 1a ff                 Length 26, Manufacturer Specific Data
        // 4c 00                 Company ID 0x004C Apple, Inc.
        // 02 15 74 27 ... c5    23 octets of Apple data (iBeacon)
        let e = try onlyElement("1a ff 4c 00 02 15 74 27 8b da b6 44 45 20 8f 0c 72 0e af 05 99 35 01 00 71 11 c5")
        guard case .manufacturerSpecificData(let m)? = e.structure else { Issue.record("not manufacturer data"); return }
        #expect(m.companyIdentifier == 0x004C)
        #expect(m.companyName == "Apple, Inc.")
        #expect(m.data.count == 23)
        #expect(m.data.prefix(2) == [0x02, 0x15])
        #expect(e.structure?.description == "Manufacturer Specific Data 0x004C (Apple, Inc.) 021574278bdab64445208f0c720eaf05993501007111c5")

        // ThermoPro TP359 (capture frame 1940): 07 ff c2 9b 00 3a 02 2c, Company ID 0x9BC2 is unassigned
        let t = try onlyElement("07 ff c2 9b 00 3a 02 2c")
        guard case .manufacturerSpecificData(let tp)? = t.structure else { Issue.record("not manufacturer data"); return }
        #expect(tp.companyIdentifier == 0x9BC2)
        #expect(tp.companyName == nil)
        #expect(tp.data == [0x00, 0x3A, 0x02, 0x2C])
        // 03 ff 59 00           Nordic Semiconductor ASA, no data
        #expect(try onlyElement("03 ff 59 00").structure == .manufacturerSpecificData(ADManufacturerSpecificData(companyIdentifier: 0x0059, data: [])))
        try expectADRoundTrip(try adBytes("1a ff 4c 00 02 15 74 27 8b da b6 44 45 20 8f 0c 72 0e af 05 99 35 01 00 71 11 c5 07 ff c2 9b 00 3a 02 2c"))
    }

    @Test("other AD types are kept raw as (type, data)")
    func other() throws {
        // 07 2e 01 02 03 04 05 06   Length 7, Resolvable Set Identifier (no typed decoder), 6 octets
        let rsi = try onlyElement("07 2e 01 02 03 04 05 06")
        #expect(rsi.structure == .other(type: ADType(0x2E), data: [1, 2, 3, 4, 5, 6]))
        #expect(rsi.structure?.description == "Resolvable Set Identifier (0x2E) 010203040506")
        // 03 3f aa bb               unassigned AD type 0x3F
        let unknown = try onlyElement("03 3f aa bb")
        #expect(unknown.structure == .other(type: ADType(0x3F), data: [0xAA, 0xBB]))
        #expect(unknown.diagnostic == nil)
        // 01 3f                     Length 1: an AD type with no AD data
        #expect(try onlyElement("01 3f").structure == .other(type: ADType(0x3F), data: []))
        try expectADRoundTrip(try adBytes("07 2e 01 02 03 04 05 06 03 3f aa bb 01 3f"))
    }

    @Test("encoding typed values writes Length, AD type and AD data")
    func encodeFromValues() throws {
        let ad = try AdvertisingData(structures: [
            .flags([.leGeneralDiscoverableMode, .brEDRNotSupported]),
            .localName(ADLocalName("ABCD")),
            .serviceUUIDs(ADUUIDList(uuids16: [0x180D]), isComplete: true),
        ])
        // 02 01 06 | 05 09 41 42 43 44 | 03 03 0d 18
        #expect(ad.encoded == (try adBytes("02 01 06 05 09 41 42 43 44 03 03 0d 18")))
        #expect(ad.encodedLength == 13)
        #expect(ad.fitsLegacyPDU)
        #expect(ad.description == #"Flags 0x06 (LE General Discoverable, BR/EDR Not Supported), Complete Local Name "ABCD", 16-bit UUIDs 180D (Heart Rate)"#)
        #expect(try ADStructure.txPowerLevel(-4).encoded() == [0x02, 0x0A, 0xFC])

        // A UUID list refuses a UUID that has no alias of its width.
        let vendor = try #require(BluetoothUUID("FD47416A-95FB-4206-88B5-B4A8045F75C1"))
        #expect(ADUUIDList(width: .bits16, uuids: [vendor]) == nil)
        #expect(ADUUIDList(width: .bits16, uuids: [BluetoothUUID(uuid32: 0x180D)])?.uuids[0].width == .bits16)
        #expect(ADUUIDList(width: .bits32, uuids: [vendor]) == nil)
        #expect(ADUUIDList(width: .bits128, uuids: [BluetoothUUID(0x180D)])?.dataCount == 16)
    }

    @Test("a structure with more than 254 AD data octets cannot be encoded")
    func encodeTooLong() throws {
        let long = ADStructure.manufacturerSpecificData(ADManufacturerSpecificData(companyIdentifier: 0x004C, data: Array(repeating: 0, count: 253)))
        #expect(long.dataCount == 255)
        #expect(throws: ADEncodingError.dataTooLong(type: .manufacturerSpecificData, index: 1, count: 255)) {
            _ = try AdvertisingData(structures: [.flags(.leGeneralDiscoverableMode), long])
        }
        #expect(throws: ADEncodingError.dataTooLong(type: .manufacturerSpecificData, index: 0, count: 255)) {
            _ = try long.encoded()
        }
        // 254 octets fit: Length 0xFF.
        let longest = ADStructure.other(type: ADType(0x3F), data: Array(repeating: 7, count: 254))
        let ad = try AdvertisingData(structures: [longest])
        #expect(ad.encoded.prefix(2) == [0xFF, 0x3F])
        #expect(ad.encodedLength == 256)
        #expect(!ad.fitsLegacyPDU)
        #expect(ad.structures == [longest])
    }
}
