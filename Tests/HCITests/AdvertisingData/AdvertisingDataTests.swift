import Testing
import BLECore
@testable import HCI

/// Payload decoding: the zero-length terminator, padding, accessors, and the malformed-input rules
/// of Core v5.4, Vol 3, Part C, 11 (a structure's extent comes from its Length octet alone; a bad
/// structure never costs the others).
@Suite("AdvertisingData payloads")
struct AdvertisingDataTests {
    // MARK: Cases from public bug reports

    @Test("advertising data with padding, then a scan response: flags, UUID A201, its service data and the name survive")
    func flagsUUIDServiceDataThenName() throws {
        // Advertising data, 28 octets:
        // 02 01 06                   Flags 0x06 (LE General Discoverable, BR/EDR Not Supported)
        // 03 02 01 a2                Incomplete List of 16-bit Service UUIDs: A201
        // 0c 16 01 a2                Service Data - 16-bit UUID A201 ...
        //       00 89 41 98 a1 9b e5 87 da    ... 9 octets of service data
        // 00 00 00 00 00 00 00 00    non-significant part (a zero Length ends the structures)
        let advBytes = try adBytes("02 01 06 03 02 01 a2 0c 16 01 a2 00 89 41 98 a1 9b e5 87 da 00 00 00 00 00 00 00 00")
        let ad = AdvertisingData(decoding: advBytes)
        #expect(ad.elements.map(\.offset) == [0, 3, 7])
        #expect(ad.terminatorOffset == 20)
        #expect(ad.significantLength == 20)
        #expect(ad.padding == ArraySlice(repeating: 0, count: 8))
        #expect(ad.isWellFormed)
        #expect(ad.flags == [.leGeneralDiscoverableMode, .brEDRNotSupported])
        #expect(ad.serviceUUIDs == [BluetoothUUID(0xA201)])
        #expect(!ad.hasCompleteServiceUUIDList(width: .bits16))
        #expect(ad.serviceData(for: BluetoothUUID(0xA201)) == [0x00, 0x89, 0x41, 0x98, 0xA1, 0x9B, 0xE5, 0x87, 0xDA])
        #expect(ad.localName == nil)
        #expect(ad.encoded == advBytes)
        try expectADRoundTrip(advBytes)

        // Scan response, a separate payload:
        // 05 09 41 42 43 44          Complete Local Name "ABCD"
        let srBytes = try adBytes("05 09 41 42 43 44")
        let sr = AdvertisingData(decoding: srBytes)
        #expect(sr.localName?.string == "ABCD")
        #expect(sr.flags == nil)
        #expect(sr.serviceUUIDs.isEmpty)

        // Through the accumulator: ADV_IND then SCAN_RSP from the same address.
        var acc = AdvertisementAccumulator()
        let address = try #require(BluetoothAddress("C0:FF:EE:00:00:01"))
        _ = acc.add(LEAdvertisingReport(eventType: .advInd, addressType: .random, address: address, data: advBytes, rssi: -60))
        let update = acc.add(LEAdvertisingReport(eventType: .scanRsp, addressType: .random, address: address, data: srBytes, rssi: -61))
        let merged = try #require(update.advertisement)
        #expect(update.disposition == .complete)
        #expect(merged.flags == [.leGeneralDiscoverableMode, .brEDRNotSupported])
        #expect(merged.serviceUUIDs == [BluetoothUUID(0xA201)])
        #expect(merged.serviceData == [ADServiceData(uuid: BluetoothUUID(0xA201), data: [0x00, 0x89, 0x41, 0x98, 0xA1, 0x9B, 0xE5, 0x87, 0xDA])])
        #expect(merged.localName?.string == "ABCD")
        #expect(merged.advertisingData?.encoded == advBytes)
        #expect(merged.scanResponseData?.encoded == srBytes)
        #expect(merged.isConnectable)
        #expect(merged.rssi == -61)
    }

    @Test("06 05 aa bb cc dd ee: one 32-bit UUID, and a diagnostic for the octet left over")
    func partial32BitUUIDList() throws {
        // 06                Length 6
        // 05                Complete List of 32-bit Service UUIDs
        // aa bb cc dd       0xDDCCBBAA
        // ee                one octet: not a whole 32-bit UUID
        let ad = AdvertisingData(decoding: try adBytes("06 05 aa bb cc dd ee"))
        #expect(ad.elements.count == 1)
        let e = ad.elements[0]
        #expect(e.structure == .serviceUUIDs(ADUUIDList(uuids32: [0xDDCC_BBAA]), isComplete: true))
        let d = try #require(e.diagnostic)
        #expect(d == ADDiagnostic(offset: 0, type: .completeServiceUUIDs32, reason: .partialTrailingEntry(entryLength: 4, offset: 6, count: 1)))
        #expect(d.decodingError == .unexpectedTrailingOctets(offset: 6, count: 1))
        #expect(d.description == "Complete List of 32-bit Service or Service Class UUIDs (0x05) at offset 0: 1 octet does not make a whole 4-octet entry at offset 6")
        #expect(ad.serviceUUIDs == [BluetoothUUID(uuid32: 0xDDCC_BBAA)])
        #expect(ad.structures.count == 1)
        #expect(!ad.isWellFormed)
    }

    @Test("02 ff 4c at the end of a payload: a diagnostic for it, the earlier structures kept")
    func shortManufacturerData() throws {
        // 02 01 06              Flags 0x06
        // 05 09 41 42 43 44     Complete Local Name "ABCD"
        // 02 ff 4c              Manufacturer Specific Data with 1 octet: no room for the Company ID
        let bytes = try adBytes("02 01 06 05 09 41 42 43 44 02 ff 4c")
        let ad = AdvertisingData(decoding: bytes)
        #expect(ad.elements.map(\.offset) == [0, 3, 9])
        #expect(ad.flags == [.leGeneralDiscoverableMode, .brEDRNotSupported])
        #expect(ad.localName?.string == "ABCD")
        #expect(ad.manufacturerSpecificData.isEmpty)
        let bad = ad.elements[2]
        #expect(bad.structure == nil)
        #expect(bad.octets == [0x02, 0xFF, 0x4C])
        #expect(bad.data == [0x4C])
        #expect(ad.diagnostics == [ADDiagnostic(offset: 9, type: .manufacturerSpecificData, reason: .invalidLength(count: 1, expected: .atLeast(2)))])
        #expect(ad.diagnostics[0].decodingError == .invalidValue(field: "Length", offset: 9,
            reason: "AD data of Manufacturer Specific Data has 1 octet, expected at least 2 octets"))
        #expect(ad.description == #"Flags 0x06 (LE General Discoverable, BR/EDR Not Supported), Complete Local Name "ABCD", [Manufacturer Specific Data (0xFF) at offset 9: 1 AD data octet, expected at least 2 octets; octets 02 ff 4c]"#)
        #expect(ad.encoded == bytes)

        // The same Company ID cut off by the end of the payload: Length 0x1a runs past it.
        let cut = AdvertisingData(decoding: try adBytes("02 01 06 1a ff 4c 00 02"))
        #expect(cut.flags != nil)
        #expect(cut.diagnostics == [ADDiagnostic(offset: 3, type: .manufacturerSpecificData, reason: .runsPastEnd(declared: 26, available: 4))])
        #expect(cut.diagnostics[0].decodingError == .truncated(field: "Data (Manufacturer Specific Data)", offset: 4, needed: 26, available: 4))
        #expect(cut.elements[1].octets == [0x1A, 0xFF, 0x4C, 0x00, 0x02])
    }

    // MARK: Terminator and padding

    @Test("a zero Length ends the significant part; what follows is padding, kept but not parsed")
    func zeroLengthTerminates() throws {
        // 02 01 06    Flags
        // 00          Length 0: end of the significant part
        // 05 09 41 42 43 44   padding (not zero, but not a structure either)
        let bytes = try adBytes("02 01 06 00 05 09 41 42 43 44")
        let ad = AdvertisingData(decoding: bytes)
        #expect(ad.elements.count == 1)
        #expect(ad.terminatorOffset == 3)
        #expect(ad.padding == bytes[3...])
        #expect(ad.localName == nil)
        #expect(ad.isWellFormed)
        #expect(ad.encoded == bytes)

        let leading = AdvertisingData(decoding: [0x00, 0x02, 0x01, 0x06])
        #expect(leading.elements.isEmpty)
        #expect(leading.terminatorOffset == 0)
        #expect(leading.significantLength == 0)

        let empty = AdvertisingData(decoding: [])
        #expect(empty.elements.isEmpty)
        #expect(empty.terminatorOffset == nil)
        #expect(empty == .empty)
        #expect(empty.description == "empty")
    }

    // MARK: Malformed input

    @Test("truncated at every length: whole structures kept, the cut one diagnosed exactly")
    func truncatedAtEveryLength() throws {
        // 02 01 06          Flags                         offsets 0...2
        // 1a ff 4c 00 ...   Manufacturer Specific Data    offsets 3...29 (Length 26)
        let full = try adBytes("02 01 06 1a ff 4c 00 02 15 74 27 8b da b6 44 45 20 8f 0c 72 0e af 05 99 35 01 00 71 11 c5")
        let boundaries = [(offset: 0, length: 2), (offset: 3, length: 26)]
        let complete = AdvertisingData(decoding: full)
        #expect(complete.isWellFormed)
        #expect(complete.encodedLength == 30)
        for cut in 0...full.count {
            let ad = AdvertisingData(decoding: Array(full[..<cut]))
            let present = boundaries.filter { $0.offset < cut }
            #expect(ad.elements.map(\.offset) == present.map(\.offset), "cut \(cut)")
            #expect(ad.elements.reduce(0) { $0 + $1.extent } == cut, "cut \(cut)")
            for (element, b) in zip(ad.elements, present) {
                let available = cut - b.offset - 1
                if available >= b.length {
                    #expect(element.diagnostic == nil, "cut \(cut)")
                    #expect(element.structure == complete.elements.first { $0.offset == b.offset }?.structure, "cut \(cut)")
                } else {
                    let type: ADType? = available >= 1 ? ADType(full[b.offset + 1]) : nil
                    #expect(element.diagnostic == ADDiagnostic(offset: b.offset, type: type,
                                                               reason: .runsPastEnd(declared: b.length, available: available)), "cut \(cut)")
                    #expect(element.structure == nil, "cut \(cut)")
                    #expect(element.type == type, "cut \(cut)")
                }
            }
        }
    }

    @Test("a Length octet with nothing after it has no AD type")
    func lengthOctetAtEnd() throws {
        // 02 01 06   Flags
        // 05         Length 5, then the payload ends
        let ad = AdvertisingData(decoding: try adBytes("02 01 06 05"))
        #expect(ad.elements.count == 2)
        let last = ad.elements[1]
        #expect(last.type == nil)
        #expect(last.length == 5)
        #expect(last.octets == [0x05])
        #expect(last.data.isEmpty)
        #expect(last.structure == nil)
        #expect(last.diagnostic == ADDiagnostic(offset: 3, type: nil, reason: .runsPastEnd(declared: 5, available: 0)))
        #expect(last.diagnostic?.decodingError == .truncated(field: "Data", offset: 4, needed: 5, available: 0))
        #expect(last.diagnostic?.description == "AD structure at offset 3: Length 5 runs past the end of the payload (0 octets left)")

        // ff 01: Length 255 with only the AD type after it.
        let huge = AdvertisingData(decoding: [0xFF, 0x01])
        #expect(huge.diagnostics == [ADDiagnostic(offset: 0, type: .flags, reason: .runsPastEnd(declared: 255, available: 1))])
    }

    @Test("AD data lengths a type does not allow become diagnostics, and the next structure is kept",
          arguments: [
            // (structure octets, expected diagnostic reason)
            ("01 0a", ADDiagnostic.Reason.invalidLength(count: 0, expected: .exactly(1))),               // Tx Power Level, none
            ("03 0a 01 02", .invalidLength(count: 2, expected: .exactly(1))),                             // Tx Power Level, 2
            ("02 19 c1", .invalidLength(count: 1, expected: .exactly(2))),                                // Appearance, 1
            ("04 19 c1 03 00", .invalidLength(count: 3, expected: .exactly(2))),                          // Appearance, 3
            ("04 12 06 00 18", .invalidLength(count: 3, expected: .exactly(4))),                          // Connection Interval Range, 3
            ("04 1a a0 00 00", .invalidLength(count: 3, expected: .exactly(2))),                          // Advertising Interval, 3
            ("03 2f a0 00", .invalidLength(count: 2, expected: .either(3, 4))),                           // Advertising Interval - long, 2
            ("06 2f 01 02 03 04 05", .invalidLength(count: 5, expected: .either(3, 4))),                  // Advertising Interval - long, 5
            ("01 1c", .invalidLength(count: 0, expected: .exactly(1))),                                   // LE Role, none
            ("02 16 0f", .invalidLength(count: 1, expected: .atLeast(2))),                                // Service Data 16, 1
            ("04 20 01 02 03", .invalidLength(count: 3, expected: .atLeast(4))),                          // Service Data 32, 3
            ("10 21 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e", .invalidLength(count: 15, expected: .atLeast(16))), // Service Data 128, 15
            ("01 ff", .invalidLength(count: 0, expected: .atLeast(2))),                                   // Manufacturer Specific Data, none
            ("01 24", .invalidLength(count: 0, expected: .atLeast(1))),                                   // URI, no scheme
            ("03 24 ff 41", .invalidURIScheme),                                                           // URI, 0xFF is not UTF-8
            ("02 24 c2", .invalidURIScheme),                                                              // URI, a cut 2-octet character
          ])
    func invalidLengths(structure: String, reason: ADDiagnostic.Reason) throws {
        // <structure> then 02 0a 05 (Tx Power Level +5 dBm), which must survive.
        let bytes = try adBytes(structure + " 02 0a 05")
        let ad = AdvertisingData(decoding: bytes)
        #expect(ad.elements.count == 2)
        let bad = ad.elements[0]
        #expect(bad.diagnostic == ADDiagnostic(offset: 0, type: ADType(bytes[1]), reason: reason))
        #expect(bad.structure == nil)
        #expect(bad.extent == Int(bytes[0]) + 1)
        #expect(ad.elements[1].offset == bad.extent)
        #expect(ad.elements[1].structure == .txPowerLevel(5))
        #expect(ad.txPowerLevel == 5)
        #expect(ad.encoded == bytes)
    }

    @Test("lists with a partial last entry keep their whole entries",
          arguments: [
            // (octets, whole entries kept, entry length, leftover offset, leftover count)
            ("04 03 0d 18 0f", 1, 2, 4, 1),                                              // 16-bit list, 3 octets
            ("02 14 12", 0, 2, 2, 1),                                                    // 16-bit solicitation, 1 octet
            ("07 1f 01 02 03 04 05 06", 1, 4, 6, 2),                                     // 32-bit solicitation, 6 octets
            ("12 07 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10", 1, 16, 18, 1),  // 128-bit list, 17 octets
            ("08 17 06 05 04 03 02 01 aa", 1, 6, 8, 1),                                  // Public Target Address, 7 octets
            ("06 18 01 02 03 04 05", 0, 6, 2, 5),                                        // Random Target Address, 5 octets
          ])
    func partialEntries(structure: String, whole: Int, entryLength: Int, leftoverOffset: Int, leftoverCount: Int) throws {
        let ad = AdvertisingData(decoding: try adBytes(structure))
        let e = try #require(ad.elements.first)
        #expect(e.diagnostic?.reason == .partialTrailingEntry(entryLength: entryLength, offset: leftoverOffset, count: leftoverCount))
        let s = try #require(e.structure)
        switch s {
        case .serviceUUIDs(let list, _), .serviceSolicitation(let list): #expect(list.uuids.count == whole)
        case .publicTargetAddresses(let a), .randomTargetAddresses(let a): #expect(a.count == whole)
        default: Issue.record("unexpected structure \(s)")
        }
    }

    @Test("every diagnostic maps to a BLEDecodingError naming the field and offset")
    func decodingErrors() {
        let past = ADDiagnostic(offset: 7, type: .completeLocalName, reason: .runsPastEnd(declared: 9, available: 3))
        #expect(past.decodingError == .truncated(field: "Data (Complete Local Name)", offset: 8, needed: 9, available: 3))
        let uri = ADDiagnostic(offset: 2, type: .uri, reason: .invalidURIScheme)
        #expect(uri.decodingError == .invalidValue(field: "URI scheme", offset: 4, reason: "not a valid UTF-8 character"))
        #expect(uri.description == "URI (0x24) at offset 2: the scheme code point is not valid UTF-8")
        let power = ADDiagnostic(offset: 0, type: .txPowerLevel, reason: .invalidLength(count: 0, expected: .exactly(1)))
        #expect(power.description == "Tx Power Level (0x0A) at offset 0: 0 AD data octets, expected exactly 1 octet")
    }

    @Test("Flags of zero or of several octets are legal (CSS Part A, 1.3.1): kept raw, no diagnostic")
    func flagsOfOtherLengths() throws {
        // 01 01        Length 1, Flags with no octet: no flag set
        // 03 01 06 80  Length 3, Flags 0x06 and a second (future) octet 0x80
        // 02 0a f4     Tx Power Level -12 dBm, kept after both
        let none = AdvertisingData(decoding: [0x01, 0x01, 0x02, 0x0A, 0xF4])
        #expect(none.diagnostics.isEmpty)
        #expect(none.flags == ADFlags(rawValue: 0))
        #expect(none.structures.first == .other(type: .flags, data: []))
        #expect(none.txPowerLevel == -12)
        let wide = AdvertisingData(decoding: [0x03, 0x01, 0x06, 0x80, 0x02, 0x0A, 0xF4])
        #expect(wide.diagnostics.isEmpty)
        #expect(wide.flags == [.leGeneralDiscoverableMode, .brEDRNotSupported])
        #expect(wide.structures.first == .other(type: .flags, data: [0x06, 0x80]))
        #expect(try AdvertisingData(structures: wide.structures).encoded == wide.bytes)
    }

    // MARK: Accessors

    @Test("accessors gather every list, prefer the complete name, and match service data across widths")
    func accessors() throws {
        // 08 09 4c 69 6e 75 78 42 4c        Complete Local Name "LinuxBL"
        // 03 08 4c 69                       Shortened Local Name "Li"
        // 03 02 0d 18                       Incomplete 16-bit UUIDs 180D
        // 05 05 0f 18 00 00                 Complete 32-bit UUIDs 0000180F
        // 03 14 12 18                       Solicited 1812
        // 06 20 0d 18 00 00 63              Service Data 32-bit 0000180D: 63
        // 04 ff 59 00 01                    Manufacturer Specific Data, Nordic, 01
        // 04 ff 4c 00 02                    Manufacturer Specific Data, Apple, 02
        // 03 19 40 00                       Appearance 0x0040 Phone
        // 02 1c 00                          LE Role: only Peripheral
        // 03 1a 20 03                       Advertising Interval 800 (500 ms)
        // 07 17 01 00 00 00 00 00           Public Target Address 00:00:00:00:00:01
        // 07 18 02 00 00 00 00 c0           Random Target Address C0:00:00:00:00:02
        // 05 12 10 00 20 00                 Connection Interval Range 20...40 ms
        // 02 27 01                          LE Supported Features bit 0
        // 02 24 01                          URI with the empty scheme
        let ad = AdvertisingData(decoding: try adBytes("""
            08 09 4c 69 6e 75 78 42 4c  03 08 4c 69  03 02 0d 18  05 05 0f 18 00 00  03 14 12 18
            06 20 0d 18 00 00 63  04 ff 59 00 01  04 ff 4c 00 02  03 19 40 00  02 1c 00  03 1a 20 03
            07 17 01 00 00 00 00 00  07 18 02 00 00 00 00 c0  05 12 10 00 20 00  02 27 01  02 24 01
            """))
        #expect(ad.isWellFormed)
        #expect(ad.localName == ADLocalName("LinuxBL"))
        #expect(ad.serviceUUIDs == [BluetoothUUID(0x180D), BluetoothUUID(0x180F)])
        #expect(ad.hasCompleteServiceUUIDList(width: .bits32))
        #expect(!ad.hasCompleteServiceUUIDList(width: .bits16))
        #expect(ad.solicitedServiceUUIDs == [BluetoothUUID(0x1812)])
        #expect(ad.serviceData(for: BluetoothUUID(0x180D)) == [0x63])
        #expect(ad.serviceData(for: BluetoothUUID(0x180F)) == nil)
        #expect(ad.manufacturerSpecificData.map(\.companyIdentifier) == [0x0059, 0x004C])
        #expect(ad.appearance?.name == "Phone")
        #expect(ad.leRole == .peripheralOnly)
        #expect(ad.advertisingInterval?.microseconds == 500_000)
        #expect(ad.publicTargetAddresses == [BluetoothAddress(1)])
        #expect(ad.randomTargetAddresses == [BluetoothAddress(0xC000_0000_0002)])
        #expect(ad.peripheralConnectionIntervalRange == ADPeripheralConnectionIntervalRange(minimum: 16, maximum: 32))
        #expect(ad.leSupportedFeatures?.isSet(bit: 0) == true)
        #expect(ad.uris.first?.uriString == "")
        #expect(ad.txPowerLevel == nil)
        #expect(ad.flags == nil)
        #expect(ad.elements(ofType: .manufacturerSpecificData).count == 2)
        #expect(ad.structures(ofType: .shortenedLocalName) == [.localName(ADLocalName("Li", isComplete: false))])
        #expect(ad.firstStructure(ofType: .leRole) == .leRole(.peripheralOnly))
        // Only a shortened name: it is the name.
        #expect(AdvertisingData(decoding: try adBytes("03 08 4c 69")).localName == ADLocalName("Li", isComplete: false))
        // A malformed Tx Power Level before a good one: the good one is found.
        #expect(AdvertisingData(decoding: try adBytes("01 0a 02 0a 04")).txPowerLevel == 4)
    }

    @Test("equality and hashing follow the payload's octets")
    func equality() throws {
        let a = AdvertisingData(decoding: try adBytes("02 01 06"))
        let b = try AdvertisingData(structures: [.flags(ADFlags(rawValue: 6))])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != AdvertisingData(decoding: try adBytes("02 01 06 00")))
    }
}
