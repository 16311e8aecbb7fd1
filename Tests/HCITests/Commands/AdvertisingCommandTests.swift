import BLECore
import HCI
import Testing

/// Legacy advertising commands (built from Vol 4, Part E, 7.8.5...7.8.9: the captures use
/// extended advertising only).
@Suite("Legacy advertising commands")
struct AdvertisingCommandTests {
    static let parameters = hex("""
        a0 00                # Advertising_Interval_Min 0x00A0 = 100 ms
        f0 00                # Advertising_Interval_Max 0x00F0 = 150 ms
        00                   # Advertising_Type: ADV_IND
        01                   # Own_Address_Type: random
        00                   # Peer_Address_Type: public
        00 00 00 00 00 00    # Peer_Address 00:00:00:00:00:00 (undirected)
        07                   # Advertising_Channel_Map: 37, 38, 39
        00                   # Advertising_Filter_Policy: accept all
        """)

    @Test("HCI_LE_Set_Advertising_Parameters: intervals in 0.625 ms units")
    func leSetAdvertisingParameters() throws {
        let command = hex("06 20 0f") + Self.parameters   // Opcode 0x2006, 15 octets
        guard case .leSetAdvertisingParameters(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Advertising Parameters"); return }
        #expect(set.advertisingIntervalMin.rawValue == 0x00A0)
        #expect(set.advertisingIntervalMin.microseconds == 100_000)
        #expect(set.advertisingIntervalMax.description == "150 ms")
        #expect(set.advertisingType == .advInd)
        #expect(set.ownAddressType == .random)
        #expect(set.peerAddressType == .public)
        #expect(set.peerAddress == .zero)
        #expect(set.advertisingChannelMap == .all)
        #expect(set.advertisingFilterPolicy == .acceptAll)
        #expect(set.description.hasPrefix("LE Set Advertising Parameters advertising_interval_min=100 ms advertising_interval_max=150 ms advertising_type=ADV_IND"))
    }

    @Test("HCI_LE_Set_Advertising_Parameters round trip")
    func leSetAdvertisingParametersRoundTrip() throws {
        try expectRoundTrip(HCILESetAdvertisingParameters.self, Self.parameters)
        let built = HCILESetAdvertisingParameters(advertisingIntervalMin: .init(rawValue: 0xA0),
                                                  advertisingIntervalMax: .init(rawValue: 0xF0), ownAddressType: .random)
        try expectEncodes(built, to: Self.parameters)
    }

    static let advertisingData = hex("""
        0a                      # Advertising_Data_Length 10
        02 01 06                # Flags: LE General Discoverable, BR/EDR Not Supported
        06 09 4c 69 6e 75 78    # Complete Local Name "Linux"
        00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00   # 21 octets of padding to 31
        """)

    @Test("HCI_LE_Set_Advertising_Data: 31-octet field, significant part first")
    func leSetAdvertisingData() throws {
        let command = hex("08 20 20") + Self.advertisingData   // Opcode 0x2008, always 32 octets
        guard case .leSetAdvertisingData(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Advertising Data"); return }
        #expect(set.advertisingData == hex("02 01 06 06 09 4c 69 6e 75 78"))
        #expect(set.padding.isEmpty)
        #expect(set.description == "LE Set Advertising Data advertising_data_length=10 advertising_data=02010606094c696e7578")
        #expect(HCILESetAdvertisingData(advertisingData: hex("02 01 06 06 09 4c 69 6e 75 78")).encoded == Self.advertisingData)
        #expect(HCILESetAdvertisingData().encoded == [0] + Array(repeating: 0, count: 31))
    }

    @Test("HCI_LE_Set_Advertising_Data round trip, non-zero padding kept, bad lengths")
    func leSetAdvertisingDataRoundTrip() throws {
        try expectRoundTrip(HCILESetAdvertisingData.self, Self.advertisingData)
        // Padding that is not zero (a host reusing its buffer) comes back on encoding.
        var dirty = Self.advertisingData
        dirty[31] = 0xAA
        let decoded = try HCILESetAdvertisingData(decoding: dirty)
        #expect(decoded.padding == Array(repeating: 0, count: 20) + [0xAA])
        try expectRoundTrip(HCILESetAdvertisingData.self, dirty)
        // A full 31-octet payload has no padding.
        try expectRoundTrip(HCILESetAdvertisingData.self, [31] + Array(repeating: 0x11, count: 31))
        // Advertising_Data_Length above 31 is invalid, whatever follows.
        #expect(throws: BLEDecodingError.invalidValue(field: "Advertising_Data_Length", offset: 0,
                                                      reason: "32 exceeds the 31-octet field")) {
            _ = try HCILESetAdvertisingData(decoding: [32] + Array(repeating: 0, count: 31))
        }
        // A host that sends only the significant part (11 octets, not 32) is short of the field.
        #expect(throws: BLEDecodingError.truncated(field: "Advertising_Data", offset: 11, needed: 21, available: 0)) {
            _ = try HCILESetAdvertisingData(decoding: Array(Self.advertisingData.prefix(11)))
        }
    }

    static let scanResponseData = hex("""
        08                         # Scan_Response_Data_Length 8
        07 09 73 65 6e 73 6f 72    # Complete Local Name "sensor"
        00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00   # 23 octets of padding
        """)

    @Test("HCI_LE_Set_Scan_Response_Data")
    func leSetScanResponseData() throws {
        let command = hex("09 20 20") + Self.scanResponseData
        guard case .leSetScanResponseData(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Scan Response Data"); return }
        #expect(set.scanResponseData == hex("07 09 73 65 6e 73 6f 72"))
        #expect(set.padding.isEmpty)
        #expect(set.description == "LE Set Scan Response Data scan_response_data_length=8 scan_response_data=070973656e736f72")
    }

    @Test("HCI_LE_Set_Scan_Response_Data round trip and bad length")
    func leSetScanResponseDataRoundTrip() throws {
        try expectRoundTrip(HCILESetScanResponseData.self, Self.scanResponseData)
        #expect(throws: BLEDecodingError.invalidValue(field: "Scan_Response_Data_Length", offset: 0,
                                                      reason: "255 exceeds the 31-octet field")) {
            _ = try HCILESetScanResponseData(decoding: [0xFF] + Array(repeating: 0, count: 31))
        }
    }

    @Test("HCI_LE_Set_Advertising_Enable")
    func leSetAdvertisingEnable() throws {
        let command = hex("""
            0a 20   # Opcode 0x200A HCI_LE_Set_Advertising_Enable
            01      # Parameter_Total_Length 1
            01      # Advertising_Enable: start
            """)
        guard case .leSetAdvertisingEnable(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Advertising Enable"); return }
        #expect(set.advertisingEnable == 1)
        #expect(set == HCILESetAdvertisingEnable(enable: true))
        #expect(set.description == "LE Set Advertising Enable advertising_enable=1")
    }

    @Test("HCI_LE_Set_Advertising_Enable round trip")
    func leSetAdvertisingEnableRoundTrip() throws {
        try expectRoundTrip(HCILESetAdvertisingEnable.self, [0x01])
        try expectRoundTrip(HCILESetAdvertisingEnable.self, [0x00])
    }
}
