import Testing
import BLECore
@testable import Capture

@Suite("LE link layer: data physical channel PDUs, CRC, pseudo-header")
struct LinkLayerDataTests {
    // crackle_lesc…pcapng frame 59 (Wireshark's decode):
    // 16 00 c9 00         RF Channel 22 (2446 MHz), Signal 0 dBm, Noise -55 dBm, Offenses 0
    // 00 00 00 00         Reference Access Address 0 (not valid)
    // 27 00               Flags 0x0027: dewhitened, signal/noise valid, offenses valid
    // 27 4a 65 50         Access Address 0x50654a27 (the connection's)
    // 06                  LLID 0b10 (L2CAP start), NESN 1, SN 0, MD 0, CP 0
    // 07                  Length 7
    // 03 00 04 00         L2CAP Length 3, CID 0x0004 (ATT)
    // 02 05 02            ATT Exchange MTU Request, Client Rx MTU 517
    // 67 46 04            CRC 0xe66220 (CRCInit 0x2ed45d from the CONNECT_IND)
    static let mtuRequest = "16 00 c9 00 00 00 00 00 27 00 27 4a 65 50 06 07 03 00 04 00 02 05 02 67 46 04"

    @Test("an L2CAP start fragment, field by field")
    func l2capStart() throws {
        let bytes = try octets(Self.mtuRequest)
        let record = try LinkLayerRecord(decoding: bytes, linkType: .bluetoothLELLWithPHDR)
        let header = try #require(record.pseudoHeader)
        #expect(header.rfChannel == 22)
        #expect(header.frequencyMHz == 2446)
        #expect(header.channelIndex == 20)
        #expect(header.flags.rawValue == 0x0027)
        #expect(!header.flags.isReferenceAccessAddressValid)
        #expect(record.accessAddress == 0x5065_4A27)
        guard case let .data(pdu) = record.pdu else { Issue.record("not a data PDU"); return }
        #expect(pdu.llid == .start)
        #expect(pdu.nesn == 1)
        #expect(pdu.sn == 0)
        #expect(!pdu.md)
        #expect(!pdu.cp && pdu.cteInfo == nil)
        #expect(pdu.rfu == 0)
        #expect(pdu.payload == [0x03, 0x00, 0x04, 0x00, 0x02, 0x05, 0x02])
        #expect(pdu.content == .l2capStart([0x03, 0x00, 0x04, 0x00, 0x02, 0x05, 0x02]))
        #expect(pdu.controlOpcode == nil)
        #expect(record.crc == 0xE6_6220)
        #expect(record.isCRCValid(crcInit: 0x2E_D45D))
        #expect(!record.isCRCValid(crcInit: LinkLayerCRC.advertisingCRCInit))
        #expect(record.description == "AA 0x50654a27 L2CAP start, 7 octets, NESN 1 SN 0")
        #expect(record.encoded == bytes)
    }

    // crackle_legacy…pcap frame 577, the payload of its PPI record (LINKTYPE 251 layout):
    // 94 93 9a af         Access Address 0xaf9a9394
    // 0f                  LLID 0b11 (LL Control), NESN 1, SN 1, MD 0
    // 17                  Length 23
    // 03                  Opcode LL_ENC_REQ
    // 00 00 00 00 00 00 00 00   Rand 0
    // 00 00                     EDIV 0
    // 87 5f b2 7e 3d 01 6b 9f   SKDm 0x9f6b013d7eb25f87
    // ea 6e c7 cc               IVm 0xccc76eea
    // 6b 77 87            CRC 0xd6eee1
    static let encReq = """
        94 93 9a af 0f 17 03
        00 00 00 00 00 00 00 00  00 00  87 5f b2 7e 3d 01 6b 9f  ea 6e c7 cc
        6b 77 87
        """

    @Test("an LL Control PDU: opcode, name and CtrData")
    func encReq() throws {
        let bytes = try octets(Self.encReq)
        let record = try LinkLayerRecord(decoding: bytes, linkType: .bluetoothLELL)
        #expect(record.pseudoHeader == nil && record.ppi == nil)
        #expect(record.accessAddress == 0xAF9A_9394)
        guard case let .data(pdu) = record.pdu else { Issue.record("not a data PDU"); return }
        #expect(pdu.llid == .control)
        #expect(pdu.nesn == 1 && pdu.sn == 1 && !pdu.md)
        #expect(pdu.controlOpcode == .encReq)
        #expect(pdu.controlOpcode?.name == "LL_ENC_REQ")
        guard case let .control(opcode, ctrData) = pdu.content else { Issue.record("not control"); return }
        #expect(opcode == .encReq)
        #expect(ctrData == Array(bytes[7..<29]))
        #expect(record.crc == 0xD6_EEE1)
        #expect(pdu.description == "LL_ENC_REQ, CtrData 22 octets, NESN 1 SN 1")
        #expect(record.encoded == bytes)
    }

    @Test("empty PDU, continuation, reserved LLID, CTEInfo and MD round-trip through their octets")
    func otherDataPDUs() throws {
        let cases: [(DataChannelPDU, String)] = [
            // 01 = LLID 0b01, NESN 0, SN 0; 00 = Length 0
            (DataChannelPDU(llid: .continuation, payload: []), "01 00"),
            // 1d = LLID 0b01, NESN 1, SN 1, MD; 02 = Length 2; fragment aa bb
            (DataChannelPDU(llid: .continuation, nesn: 1, sn: 1, md: true, payload: [0xAA, 0xBB]), "1d 02 aa bb"),
            // 00 = LLID 0b00 (reserved); 01 = Length 1; ff
            (DataChannelPDU(llid: .reserved, payload: [0xFF]), "00 01 ff"),
            // e3 = LLID 0b11, CP, RFU 0b11; 01 = Length 1; 94 = CTEInfo; 13 = LL_PING_RSP
            (DataChannelPDU(llid: .control, rfu: 0b11, cteInfo: 0x94, payload: [0x13]), "e3 01 94 13"),
        ]
        for (pdu, text) in cases {
            let expected = try octets(text)
            var w = ByteWriter()
            pdu.write(to: &w)
            #expect(w.bytes == expected, "\(pdu)")
            var r = ByteReader(expected)
            #expect(try DataChannelPDU(from: &r) == pdu)
            #expect(r.isAtEnd)
        }
        #expect(cases[0].0.content == .empty)
        #expect(cases[0].0.description == "Empty PDU, NESN 0 SN 0")
        #expect(cases[1].0.content == .l2capContinuation([0xAA, 0xBB]))
        #expect(cases[2].0.content == .reserved([0xFF]))
        #expect(cases[3].0.cp)
        #expect(cases[3].0.controlOpcode == .pingRsp)
    }

    @Test("LL Control PDU with Length 0, truncated payload, CTEInfo and CRC")
    func malformedData() throws {
        var r = ByteReader(try octets("03 00"))
        #expect(throws: BLEDecodingError.invalidValue(field: "Length", offset: 1, reason: "an LL Control PDU needs an Opcode, Length is 0")) {
            _ = try DataChannelPDU(from: &r)
        }
        r = ByteReader(try octets("02 05 01 02"))
        #expect(throws: BLEDecodingError.truncated(field: "Payload", offset: 2, needed: 5, available: 2)) {
            _ = try DataChannelPDU(from: &r)
        }
        r = ByteReader(try octets("22 01"))
        #expect(throws: BLEDecodingError.truncated(field: "CTEInfo", offset: 2, needed: 1, available: 0)) {
            _ = try DataChannelPDU(from: &r)
        }
        // A Length one too long eats the first CRC octet: the CRC is then short.
        #expect(throws: BLEDecodingError.truncated(field: "CRC", offset: 10, needed: 3, available: 2)) {
            _ = try LinkLayerRecord(decoding: try octets("94 93 9a af 02 04 01 00 04 00 6b 77"), linkType: .bluetoothLELL)
        }
    }

    @Test("a pseudo-header PDU type overrides the access address")
    func pseudoHeaderPDUType() throws {
        // 27 00 c9 00 00 00 00 00 = RF 39, noise -55; 80 00 = Flags 0x0080: PDU type 1 (auxiliary advertising)
        // 78 56 34 12 = AA 0x12345678 (not the advertising AA)
        // 07 02 00 aa = ADV_EXT_IND, Length 2, no extended header, AdvData aa; CRC 00 00 00 (not checked)
        let aux = try LinkLayerRecord(decoding: try octets("27 00 c9 00 00 00 00 00 80 00 78 56 34 12 07 02 00 aa 00 00 00"),
                                      linkType: .bluetoothLELLWithPHDR)
        #expect(aux.pseudoHeader?.flags.pduType == .auxiliaryAdvertising)
        #expect(aux.pseudoHeader?.channelIndex == 39)
        guard case let .advertising(pdu) = aux.pdu else { Issue.record("not advertising"); return }
        #expect(pdu.payload == .extended(ExtendedAdvertisingPayload(advMode: .nonConnectableNonScannable, extendedHeader: nil, advData: [0xAA])))

        // Flags 0x0200: PDU type 4 (CIS, Central to Peripheral): kept raw.
        let cis = try LinkLayerRecord(decoding: try octets("05 00 00 00 00 00 00 00 00 02 78 56 34 12 02 01 ee 00 00 00"),
                                      linkType: .bluetoothLELLWithPHDR)
        #expect(cis.pseudoHeader?.flags.pduType == .cisCentralToPeripheral)
        #expect(cis.pdu == .isochronous(headerBits: 0x02, payload: [0xEE]))

        // Flags 0x0180: PDU type 3 (data, Peripheral to Central) on the advertising access address.
        let data = try LinkLayerRecord(decoding: try octets("05 00 00 00 00 00 00 00 80 01 d6 be 89 8e 01 00 00 00 00"),
                                       linkType: .bluetoothLELLWithPHDR)
        #expect(data.pdu == .data(DataChannelPDU(llid: .continuation, payload: [])))
    }

    @Test("pseudo-header flags and channel mapping")
    func flagsAndChannels() {
        // 0xBFFF: bits 0...13 set (PDU type 7), PHY bits 14...15 = 0b10 (LE Coded).
        let flags = LELLPseudoHeader.Flags(rawValue: 0xBFFF)
        #expect(flags.isDewhitened && flags.isSignalPowerValid && flags.isNoisePowerValid && flags.isDecrypted)
        #expect(flags.isReferenceAccessAddressValid && flags.isAccessAddressOffensesValid && flags.isChannelAliased)
        #expect(flags.pduType.rawValue == 7)
        #expect(flags.isCRCChecked && flags.isCRCValid && flags.isMICChecked && flags.isMICValid)
        #expect(flags.phy == 2)
        // RF channel -> channel index (Core v5.4, Vol 6, Part B, 1.4.1).
        let expected: [(UInt8, UInt8?)] = [(0, 37), (1, 0), (11, 10), (12, 38), (13, 11), (38, 36), (39, 39), (40, nil)]
        for (rf, index) in expected {
            #expect(LELLPseudoHeader(rfChannel: rf, flags: flags).channelIndex == index, "RF channel \(rf)")
        }
    }

    @Test("CRC octets and register values convert both ways; computing matches Wireshark's values")
    func crc() {
        // c6 3c 96 in a capture is the register 0x633c69 (each octet bit-reversed).
        #expect(LinkLayerCRC.registerValue(captureOctets: 0xC6, 0x3C, 0x96) == 0x63_3C69)
        #expect(LinkLayerCRC.captureOctets(registerValue: 0x63_3C69) == [0xC6, 0x3C, 0x96])
        // ADV_IND 00 09 e8dd6ee5c578 020105 -> 0x633c69 (Wireshark: "CRC: 0x633c69").
        #expect(LinkLayerCRC.compute([0x00, 0x09, 0xE8, 0xDD, 0x6E, 0xE5, 0xC5, 0x78, 0x02, 0x01, 0x05],
                                     crcInit: LinkLayerCRC.advertisingCRCInit) == 0x63_3C69)
        // LL_VERSION_IND 0b 06 0c 08 0f 00 07 66 with CRCInit 0x2ed45d -> 0xb6e7df (frame 48).
        #expect(LinkLayerCRC.compute([0x0B, 0x06, 0x0C, 0x08, 0x0F, 0x00, 0x07, 0x66], crcInit: 0x2E_D45D) == 0xB6_E7DF)
        // A record built without a CRC gets the computed one.
        let built = LinkLayerRecord(accessAddress: LinkLayerRecord.advertisingAccessAddress,
                                    pdu: .advertising(AdvertisingChannelPDU(pduType: .advInd, payload: .undirected(advA: BluetoothAddress(0x78C5_E56E_DDE8), advData: [2, 1, 5]))))
        #expect(built.crc == 0x63_3C69)
    }

    @Test("LL control opcode names cover v5.4 and keep unknown values raw")
    func opcodeNames() {
        #expect(LLControlOpcode.connectionUpdateInd.description == "LL_CONNECTION_UPDATE_IND")
        #expect(LLControlOpcode.periodicSyncWRInd.description == "LL_PERIODIC_SYNC_WR_IND")
        #expect(LLControlOpcode(rawValue: 0x2B).name == nil)
        #expect(LLControlOpcode(rawValue: 0x71).description == "LL control opcode 0x71")
    }
}
