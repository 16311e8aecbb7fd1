import Testing
import BLECore
@testable import Capture

@Suite("LE link layer: advertising physical channel PDUs")
struct LinkLayerAdvertisingTests {
    // crackle_lesc…pcapng frame 44, LINKTYPE 256 (Wireshark's decode):
    // 00                  RF Channel 0 (2402 MHz, advertising channel 37)
    // 00                  Signal Power 0 dBm
    // c9                  Noise Power -55 dBm
    // 00                  Access Address Offenses 0
    // d6 be 89 8e         Reference Access Address 0x8e89bed6
    // 37 00               Flags 0x0037: dewhitened, signal/noise valid, reference AA valid, offenses valid, PDU type 0
    // d6 be 89 8e         Access Address 0x8e89bed6 (advertising)
    // 85                  PDU Type 0b0101 CONNECT_IND, ChSel #1, TxAdd public, RxAdd random
    // 22                  Length 34
    // f4 3e 73 70 f3 5c   InitA 5C:F3:70:73:3E:F4
    // 16 23 42 82 43 7d   AdvA 7D:43:82:42:23:16
    // 27 4a 65 50         LLData AA 0x50654a27
    // 5d d4 2e            CRCInit 0x2ed45d
    // 03                  WinSize 3 (3.75 ms)
    // 26 00               WinOffset 38 (47.5 ms)
    // 36 00               Interval 54 (67.5 ms)
    // 00 00               Latency 0
    // 2a 00               Timeout 42 (420 ms)
    // ff ff ff ff 1f      ChM: data channels 0...36
    // a5                  Hop 5, SCA 5 (31-50 ppm)
    // ec 7c a4            CRC 0x373e25
    static let connectInd = """
        00 00 c9 00 d6 be 89 8e 37 00
        d6 be 89 8e 85 22
        f4 3e 73 70 f3 5c 16 23 42 82 43 7d
        27 4a 65 50 5d d4 2e 03 26 00 36 00 00 00 2a 00 ff ff ff ff 1f a5
        ec 7c a4
        """

    @Test("CONNECT_IND with a pseudo-header, field by field")
    func connectIndFixture() throws {
        let record = try LinkLayerRecord(decoding: try octets(Self.connectInd), linkType: .bluetoothLELLWithPHDR)
        let header = try #require(record.pseudoHeader)
        #expect(header.rfChannel == 0)
        #expect(header.frequencyMHz == 2402)
        #expect(header.channelIndex == 37)
        #expect(header.signalPower == 0)
        #expect(header.noisePower == -55)
        #expect(header.accessAddressOffenses == 0)
        #expect(header.referenceAccessAddress == 0x8E89_BED6)
        #expect(header.flags.rawValue == 0x0037)
        #expect(header.flags.isDewhitened && header.flags.isSignalPowerValid && header.flags.isNoisePowerValid)
        #expect(header.flags.isReferenceAccessAddressValid && header.flags.isAccessAddressOffensesValid)
        #expect(!header.flags.isDecrypted && !header.flags.isCRCChecked && !header.flags.isCRCValid)
        #expect(header.flags.pduType == .advertisingOrData)
        #expect(header.flags.phy == 0)
        #expect(record.ppi == nil)
        #expect(record.accessAddress == LinkLayerRecord.advertisingAccessAddress)

        guard case let .advertising(pdu) = record.pdu else { Issue.record("not an advertising PDU"); return }
        #expect(pdu.pduType == .connectInd)
        #expect(!pdu.chSel && !pdu.txAdd && pdu.rxAdd && !pdu.reservedBit)
        guard case let .connectIndication(initA, advA, llData) = pdu.payload else { Issue.record("not CONNECT_IND"); return }
        #expect(initA == BluetoothAddress("5C:F3:70:73:3E:F4"))
        #expect(advA == BluetoothAddress("7D:43:82:42:23:16"))
        #expect(pdu.advA == advA)
        #expect(llData.accessAddress == 0x5065_4A27)
        #expect(llData.crcInit == 0x2E_D45D)
        #expect(llData.winSize == 3)
        #expect(llData.winOffset == 38)
        #expect(llData.interval == 54)
        #expect(llData.latency == 0)
        #expect(llData.timeout == 42)
        #expect(llData.channelMap == 0x1F_FFFF_FFFF)
        #expect(llData.usedChannelCount == 37)
        #expect(llData.hop == 5)
        #expect(llData.sca == 5)
        #expect(record.crc == 0x37_3E25)
        #expect(record.isCRCValid(crcInit: LinkLayerCRC.advertisingCRCInit))
        #expect(pdu.description == "CONNECT_IND InitA 5C:F3:70:73:3E:F4 (public), AdvA 7D:43:82:42:23:16 (random), AA 0x50654a27, CRCInit 0x2ed45d, WinSize 3, WinOffset 38, Interval 54 (67.5 ms), Latency 0, Timeout 42 (420 ms), 37 channels, Hop 5, SCA 5")
    }

    // crackle_legacy…pcap frame 1, LINKTYPE 192 (PPI) around DLT 147:
    // 00                  pph_version 0
    // 00                  pph_flags 0 (not aligned)
    // 18 00               pph_len 24
    // 93 00 00 00         pph_dlt 147 (USER0: Ubertooth's raw LE link layer)
    // 36 75 0c 00         field type 30006 (PPI-BTLE), length 12
    // 00 62 09 00 6b 36 e3 00 e8 dc ee 3c   version 0, channel 0x0962 = 2402 MHz, clock, RSSI max/min/avg, count
    // d6 be 89 8e         Access Address 0x8e89bed6
    // 00                  PDU Type ADV_IND, TxAdd public
    // 09                  Length 9
    // e8 dd 6e e5 c5 78   AdvA 78:C5:E5:6E:DD:E8
    // 02 01 05            AdvData: Flags 0x05 (LE Limited Discoverable, BR/EDR not supported)
    // c6 3c 96            CRC 0x633c69
    static let advIndPPI = """
        00 00 18 00 93 00 00 00
        36 75 0c 00 00 62 09 00 6b 36 e3 00 e8 dc ee 3c
        d6 be 89 8e 00 09 e8 dd 6e e5 c5 78 02 01 05
        c6 3c 96
        """

    @Test("ADV_IND inside PPI with DLT 147")
    func advIndPPIFixture() throws {
        let bytes = try octets(Self.advIndPPI)
        let record = try LinkLayerRecord(decoding: bytes, linkType: .ppi)
        let ppi = try #require(record.ppi)
        #expect(ppi.version == 0)
        #expect(ppi.flags == 0)
        #expect(ppi.length == 24)
        #expect(ppi.dlt == .user0)
        #expect(ppi.fields == [PPIHeader.Field(type: 30006, data: Array(bytes[12..<24]))])
        #expect(record.pseudoHeader == nil)
        #expect(record.accessAddress == 0x8E89_BED6)
        guard case let .advertising(pdu) = record.pdu else { Issue.record("not an advertising PDU"); return }
        #expect(pdu.pduType == .advInd)
        #expect(!pdu.txAdd && !pdu.rxAdd && !pdu.chSel)
        #expect(pdu.payload == .undirected(advA: BluetoothAddress("78:C5:E5:6E:DD:E8")!, advData: [0x02, 0x01, 0x05]))
        #expect(pdu.advertisingData == [0x02, 0x01, 0x05])
        #expect(record.crc == 0x63_3C69)
        #expect(record.isCRCValid(crcInit: LinkLayerCRC.advertisingCRCInit))
        #expect(record.description == "ADV_IND AdvA 78:C5:E5:6E:DD:E8 (public), AdvData 3 octets")
        #expect(record.encoded == bytes)
    }

    // crackle_lesc…pcapng frame 9 without its pseudo-header, as LINKTYPE 251:
    // d6 be 89 8e         Access Address 0x8e89bed6
    // c3                  PDU Type 0b0011 SCAN_REQ, TxAdd random, RxAdd random
    // 0c                  Length 12
    // 0c b2 f0 de f5 14   ScanA 14:F5:DE:F0:B2:0C
    // 16 23 42 82 43 7d   AdvA 7D:43:82:42:23:16
    // 0a d5 5a            CRC 0x50ab5a
    @Test("SCAN_REQ as LINKTYPE 251")
    func scanReq() throws {
        let bytes = try octets("d6 be 89 8e c3 0c 0c b2 f0 de f5 14 16 23 42 82 43 7d 0a d5 5a")
        let record = try LinkLayerRecord(decoding: bytes, linkType: .bluetoothLELL)
        guard case let .advertising(pdu) = record.pdu else { Issue.record("not an advertising PDU"); return }
        #expect(pdu.pduType == .scanReq)
        #expect(pdu.txAdd && pdu.rxAdd)
        #expect(pdu.payload == .scanRequest(scanA: BluetoothAddress("14:F5:DE:F0:B2:0C")!, advA: BluetoothAddress("7D:43:82:42:23:16")!))
        #expect(record.crc == 0x50_AB5A)
        #expect(record.isCRCValid(crcInit: LinkLayerCRC.advertisingCRCInit))
        #expect(record.encoded == bytes)
    }

    // Hand-made legacy PDUs, each built and then checked against its annotated octets.
    @Test("ADV_DIRECT_IND, ADV_NONCONN_IND, ADV_SCAN_IND, SCAN_RSP encode as annotated and decode back")
    func otherLegacyPDUs() throws {
        let advA = BluetoothAddress("C0:11:22:33:44:55")!
        let target = BluetoothAddress("00:1A:7D:DA:71:13")!
        let cases: [(AdvertisingChannelPDU, String)] = [
            // 41 = ADV_DIRECT_IND, TxAdd random; 0c = Length 12; AdvA; TargetA
            (AdvertisingChannelPDU(pduType: .advDirectInd, txAdd: true, payload: .directed(advA: advA, targetA: target)),
             "41 0c 55 44 33 22 11 c0 13 71 da 7d 1a 00"),
            // 22 = ADV_NONCONN_IND, ChSel #2; 09 = Length 9; AdvA; AdvData 02 01 06
            (AdvertisingChannelPDU(pduType: .advNonconnInd, chSel: true, payload: .undirected(advA: advA, advData: [2, 1, 6])),
             "22 09 55 44 33 22 11 c0 02 01 06"),
            // 06 = ADV_SCAN_IND; 06 = Length 6 (AdvA only, empty AdvData)
            (AdvertisingChannelPDU(pduType: .advScanInd, payload: .undirected(advA: advA, advData: [])),
             "06 06 55 44 33 22 11 c0"),
            // 44 = SCAN_RSP, TxAdd random; 0a = Length 10; AdvA; ScanRspData 03 09 41 42 ("AB")
            (AdvertisingChannelPDU(pduType: .scanRsp, txAdd: true, payload: .scanResponse(advA: advA, scanRspData: [3, 9, 0x41, 0x42])),
             "44 0a 55 44 33 22 11 c0 03 09 41 42"),
        ]
        for (pdu, text) in cases {
            let expected = try octets(text)
            var w = ByteWriter()
            pdu.write(to: &w)
            #expect(w.bytes == expected, "\(pdu)")
            var r = ByteReader(expected)
            #expect(try AdvertisingChannelPDU(from: &r) == pdu)
            #expect(r.isAtEnd)
        }
    }

    // ADV_EXT_IND on a primary channel, hand-made:
    // 07                  PDU Type 0b0111 ADV_EXT_IND
    // 0f                  Length 15
    // 4d                  Extended Header Length 13, AdvMode 0b01 (connectable)
    // 19                  Extended Header Flags: AdvA, ADI, AuxPtr
    // 55 44 33 22 11 c0   AdvA C0:11:22:33:44:55
    // 2a 30               ADI: DID 0x02a, SID 3
    // 05 23 01            AuxPtr: channel 5, CA 0, units 30 us, offset 0x123 (291 -> 8730 us), PHY LE 1M
    // ee                  ACAD (the extended header's last octet)
    // 00                  AdvData (1 octet)
    @Test("ADV_EXT_IND common extended payload, field by field")
    func advExtInd() throws {
        let bytes = try octets("07 0f 4d 19 55 44 33 22 11 c0 2a 30 05 23 01 ee 00")
        var r = ByteReader(bytes)
        let pdu = try AdvertisingChannelPDU(from: &r)
        try r.expectEnd()
        #expect(pdu.pduType == .advExtInd)
        #expect(pdu.pduType.isExtended)
        guard case let .extended(payload) = pdu.payload else { Issue.record("not extended"); return }
        #expect(payload.advMode == .connectable)
        let header = try #require(payload.extendedHeader)
        #expect(header.flags == 0x19)
        #expect(header.length == 13)
        #expect(header.advA == BluetoothAddress("C0:11:22:33:44:55"))
        #expect(header.targetA == nil && header.cteInfo == nil && header.syncInfo == nil && header.txPower == nil)
        #expect(header.adi == 0x302A)
        let aux = try #require(header.auxPtr)
        #expect(aux.channelIndex == 5)
        #expect(aux.clockAccuracy == 0)
        #expect(aux.offsetUnitMicroseconds == 30)
        #expect(aux.auxOffset == 0x123)
        #expect(aux.auxPHY == 0)
        #expect(header.acad == [0xEE])
        #expect(payload.advData == [0x00])
        #expect(pdu.advA == BluetoothAddress("C0:11:22:33:44:55"))
        var w = ByteWriter()
        pdu.write(to: &w)
        #expect(w.bytes == bytes)
    }

    @Test("extended payloads: empty extended header, TargetA/CTEInfo/SyncInfo/TxPower, AUX_CONNECT_RSP round-trip")
    func extendedRoundTrips() throws {
        let full = ExtendedHeader(advA: BluetoothAddress(0xC011_2233_4455), targetA: BluetoothAddress(0x0102_0304_0506),
                                  cteInfo: 0x42, adi: 0x1001, auxPtr: AuxPointer(rawValue: 0xA0_0085),
                                  syncInfo: Array(0..<18), txPower: -4, reservedFlag: true, acad: [1, 2])
        let pdus = [
            AdvertisingChannelPDU(pduType: .advExtInd, payload: .extended(ExtendedAdvertisingPayload(advMode: .nonConnectableNonScannable, extendedHeader: nil, advData: [9, 9]))),
            AdvertisingChannelPDU(pduType: .advExtInd, txAdd: true, rxAdd: true, payload: .extended(ExtendedAdvertisingPayload(advMode: .scannable, extendedHeader: full))),
            AdvertisingChannelPDU(pduType: .auxConnectRsp, payload: .extended(ExtendedAdvertisingPayload(advMode: .nonConnectableNonScannable, extendedHeader: ExtendedHeader(advA: BluetoothAddress(1), targetA: BluetoothAddress(2))))),
        ]
        for pdu in pdus {
            var w = ByteWriter()
            pdu.write(to: &w)
            var r = ByteReader(w.bytes)
            let decoded = try AdvertisingChannelPDU(from: &r)
            #expect(decoded == pdu)
            var again = ByteWriter()
            decoded.write(to: &again)
            #expect(again.bytes == w.bytes)
        }
        #expect(full.flags == 0xFF)
        #expect(full.length == 1 + 6 + 6 + 1 + 2 + 3 + 18 + 1 + 2)
    }

    @Test("a reserved PDU type keeps its payload raw")
    func reservedType() throws {
        // 0f = PDU Type 0b1111 (reserved); 02 = Length 2; payload aa bb
        var r = ByteReader(try octets("0f 02 aa bb"))
        let pdu = try AdvertisingChannelPDU(from: &r)
        #expect(pdu.pduType.rawValue == 0x0F)
        #expect(pdu.payload == .reserved([0xAA, 0xBB]))
        #expect(pdu.description == "reserved PDU type 15, 2 octets")
    }

    @Test("Length that does not fit the PDU type is an invalid value at the Length octet")
    func badLengths() throws {
        let cases: [(String, String)] = [
            ("00 05 01 02 03 04 05", "ADV_IND needs 6...37 octets, Length is 5"),
            ("00 26" + String(repeating: " 00", count: 38), "ADV_IND needs 6...37 octets, Length is 38"),
            ("01 0b" + String(repeating: " 00", count: 11), "ADV_DIRECT_IND needs 12 octets, Length is 11"),
            ("03 0d" + String(repeating: " 00", count: 13), "SCAN_REQ needs 12 octets, Length is 13"),
            ("04 04 00 00 00 00", "SCAN_RSP needs 6...37 octets, Length is 4"),
            ("05 21" + String(repeating: " 00", count: 33), "CONNECT_IND needs 34 octets, Length is 33"),
        ]
        for (text, reason) in cases {
            var r = ByteReader(try octets(text))
            #expect(throws: BLEDecodingError.invalidValue(field: "Length", offset: 1, reason: reason)) {
                _ = try AdvertisingChannelPDU(from: &r)
            }
        }
    }

    @Test("extended payload errors name the field and offset")
    func badExtended() throws {
        // Length 0: no room for the Extended Header Length octet.
        var r = ByteReader(try octets("07 00"))
        #expect(throws: BLEDecodingError.invalidValue(field: "Length", offset: 2, reason: "an extended advertising payload needs at least 1 octet")) {
            _ = try AdvertisingChannelPDU(from: &r)
        }
        // Extended Header Length 5 with only 2 octets after it.
        r = ByteReader(try octets("07 03 05 01 00"))
        #expect(throws: BLEDecodingError.invalidValue(field: "Extended Header Length", offset: 2, reason: "5 octets but only 2 follow in the payload")) {
            _ = try AdvertisingChannelPDU(from: &r)
        }
        // Flags announce AdvA (6 octets) but the extended header is 4 octets long: AdvA at offset 4 has 3.
        r = ByteReader(try octets("07 05 04 01 aa bb cc"))
        #expect(throws: BLEDecodingError.truncated(field: "AdvA", offset: 4, needed: 6, available: 3)) {
            _ = try AdvertisingChannelPDU(from: &r)
        }
    }

    @Test("a CONNECT_IND record cut at every length names the missing field")
    func truncatedEverywhere() throws {
        let bytes = try octets(Self.connectInd)
        // The field that each prefix length cuts into, from the annotation above.
        func expectedField(_ n: Int) -> String {
            switch n {
            case 0: return "RF Channel"
            case 1: return "Signal Power"
            case 2: return "Noise Power"
            case 3: return "Access Address Offenses"
            case 4..<8: return "Reference Access Address"
            case 8..<10: return "Flags"
            case 10..<14: return "Access Address"
            case 14: return "PDU Type and flags"
            case 15: return "Length"
            case 16..<22: return "InitA"
            case 22..<28: return "AdvA"
            case 28..<32: return "AA"
            case 32..<35: return "CRCInit"
            case 35: return "WinSize"
            case 36..<38: return "WinOffset"
            case 38..<40: return "Interval"
            case 40..<42: return "Latency"
            case 42..<44: return "Timeout"
            case 44..<48: return "ChM"
            case 48: return "ChM"
            case 49: return "Hop and SCA"
            default: return "CRC"
            }
        }
        for n in 0..<bytes.count {
            do {
                _ = try LinkLayerRecord(decoding: bytes[0..<n], linkType: .bluetoothLELLWithPHDR)
                Issue.record("prefix of \(n) octets decoded")
            } catch {
                guard case let .truncated(field, _, _, _) = error else { Issue.record("\(n): \(error)"); continue }
                #expect(field == expectedField(n), "prefix \(n)")
            }
        }
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 53, count: 1)) {
            _ = try LinkLayerRecord(decoding: bytes + [0x00], linkType: .bluetoothLELLWithPHDR)
        }
    }

    @Test("PPI around a link type that is not the LE link layer is an invalid pph_dlt")
    func ppiOtherDLT() throws {
        // 00 00 08 00 = version 0, flags 0, pph_len 8; 01 00 00 00 = pph_dlt 1 (Ethernet)
        #expect(throws: BLEDecodingError.invalidValue(field: "pph_dlt", offset: 4, reason: "link type 1 is not an LE link-layer link type")) {
            _ = try LinkLayerRecord(decoding: try octets("00 00 08 00 01 00 00 00 d6 be 89 8e"), linkType: .ppi)
        }
        // pph_len 4 is shorter than the header itself.
        #expect(throws: BLEDecodingError.invalidValue(field: "pph_len", offset: 2, reason: "4 is shorter than the 8-octet header")) {
            _ = try LinkLayerRecord(decoding: try octets("00 00 04 00 fb 00 00 00"), linkType: .ppi)
        }
    }
}
