import BLECore
import HCI
import Testing

/// Extended advertising commands, from the Android phone's own advertising set in the
/// nexxtender btsnoop capture.
@Suite("Extended advertising commands")
struct ExtendedAdvertisingCommandTests {
    static let parameters = hex("""
        00                   # Advertising_Handle 0
        13 00                # Advertising_Event_Properties 0x0013: connectable, scannable, legacy
        a0 00 00             # Primary_Advertising_Interval_Min 0x0000A0 = 100 ms
        d2 00 00             # Primary_Advertising_Interval_Max 0x0000D2 = 131.25 ms
        07                   # Primary_Advertising_Channel_Map: 37, 38, 39
        01                   # Own_Address_Type: random
        00                   # Peer_Address_Type: public
        00 00 00 00 00 00    # Peer_Address (not directed)
        00                   # Advertising_Filter_Policy: accept all
        01                   # Advertising_TX_Power: 1 dBm
        01                   # Primary_Advertising_PHY: LE 1M
        00                   # Secondary_Advertising_Max_Skip 0
        01                   # Secondary_Advertising_PHY: LE 1M
        00                   # Advertising_SID 0
        00                   # Scan_Request_Notification_Enable: off
        """)

    @Test("HCI_LE_Set_Extended_Advertising_Parameters [v1]: 24-bit intervals")
    func leSetExtendedAdvertisingParameters() throws {
        // nexxtender btsnoop #229
        let command = hex("36 20 19") + Self.parameters   // Opcode 0x2036, 25 octets
        guard case .leSetExtendedAdvertisingParameters(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Extended Advertising Parameters"); return }
        #expect(set.advertisingHandle == 0)
        #expect(set.advertisingEventProperties == .legacyAdvInd)
        #expect(set.primaryAdvertisingIntervalMin.rawValue == 0xA0)
        #expect(set.primaryAdvertisingIntervalMin.description == "100 ms")
        #expect(set.primaryAdvertisingIntervalMax.microseconds == 131_250)
        #expect(set.primaryAdvertisingChannelMap == .all)
        #expect(set.ownAddressType == .random)
        #expect(set.peerAddressType == .public)
        #expect(set.peerAddress == .zero)
        #expect(set.advertisingFilterPolicy == .acceptAll)
        #expect(set.advertisingTXPower == 1)
        #expect(set.primaryAdvertisingPHY == .le1M)
        #expect(set.secondaryAdvertisingMaxSkip == 0)
        #expect(set.secondaryAdvertisingPHY == .le1M)
        #expect(set.advertisingSID == 0)
        #expect(set.scanRequestNotificationEnable == 0)

        // #230: Command Complete with Selected_TX_Power
        let event = hex("""
            0e 05      # Command Complete, 5 octets
            01 36 20   # Num_HCI_Command_Packets 1, LE Set Extended Advertising Parameters
            00         # Status: Success
            01         # Selected_TX_Power 1 dBm
            """)
        guard case .commandComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Command Complete"); return }
        let result = try complete.result(as: HCILESetExtendedAdvertisingParameters.self).get()
        #expect(result.status == .success)
        #expect(result.selectedTXPower == 1)
        #expect(complete.description == "Command Complete LE Set Extended Advertising Parameters [v1] num_hci_command_packets=1 status=Success selected_tx_power=1 dBm")
    }

    @Test("HCI_LE_Set_Extended_Advertising_Parameters round trip; the interval's high octet")
    func leSetExtendedAdvertisingParametersRoundTrip() throws {
        try expectRoundTrip(HCILESetExtendedAdvertisingParameters.self, Self.parameters)
        try expectRoundTrip(HCILESetExtendedAdvertisingParameters.ReturnParameters.self, hex("00 01"))
        // An interval above 16 bits (0x010000 = 40.96 s) keeps its third octet.
        var long = Self.parameters
        long[5] = 0x01
        let set = try HCILESetExtendedAdvertisingParameters(decoding: long)
        #expect(set.primaryAdvertisingIntervalMin.rawValue == 0x0100A0)
        #expect(set.encoded == long)
        #expect(LEExtendedAdvertisingInterval(rawValue: 0x1_FF_FF_FF).rawValue == 0xFF_FF_FF)
    }

    static let advertisingData = hex("""
        00          # Advertising_Handle 0
        03          # Operation: complete
        01          # Fragment_Preference: should not fragment
        1d          # Advertising_Data_Length 29
        02 01 02    # Flags: LE General Discoverable
        19 16 f1 fc 04 75 b8 ee 6a b4 86 c8 f5 63 06 57 aa a0 12 5d 4c 7c 07 4c 45 ce   # Service Data, UUID 0xFCF1
        """)

    @Test("HCI_LE_Set_Extended_Advertising_Data")
    func leSetExtendedAdvertisingData() throws {
        // nexxtender btsnoop #235
        let command = hex("37 20 21") + Self.advertisingData
        guard case .leSetExtendedAdvertisingData(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Extended Advertising Data"); return }
        #expect(set.advertisingHandle == 0)
        #expect(set.operation == .complete)
        #expect(set.fragmentPreference == .shouldNotFragment)
        #expect(set.advertisingData.count == 29)
        #expect(set.advertisingData.prefix(3) == [0x02, 0x01, 0x02])
        #expect(set.advertisingData[4] == 0x16)
    }

    @Test("HCI_LE_Set_Extended_Advertising_Data round trip")
    func leSetExtendedAdvertisingDataRoundTrip() throws {
        try expectRoundTrip(HCILESetExtendedAdvertisingData.self, Self.advertisingData)
        // Data_Length larger than the data present.
        #expect(throws: BLEDecodingError.truncated(field: "Advertising_Data", offset: 4, needed: 29, available: 3)) {
            _ = try HCILESetExtendedAdvertisingData(decoding: Array(Self.advertisingData.prefix(7)))
        }
    }

    @Test("HCI_LE_Set_Extended_Scan_Response_Data: an empty scan response")
    func leSetExtendedScanResponseData() throws {
        // nexxtender btsnoop #233
        let command = hex("""
            38 20   # Opcode 0x2038 HCI_LE_Set_Extended_Scan_Response_Data
            04      # Parameter_Total_Length 4
            00      # Advertising_Handle 0
            03      # Operation: complete
            01      # Fragment_Preference: should not fragment
            00      # Scan_Response_Data_Length 0
            """)
        guard case .leSetExtendedScanResponseData(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Extended Scan Response Data"); return }
        #expect(set.advertisingHandle == 0)
        #expect(set.operation == .complete)
        #expect(set.fragmentPreference == .shouldNotFragment)
        #expect(set.scanResponseData.isEmpty)
        #expect(set.description == "LE Set Extended Scan Response Data advertising_handle=0x00 operation=complete fragment_preference=should not fragment scan_response_data_length=0 scan_response_data=(none)")
    }

    @Test("HCI_LE_Set_Extended_Scan_Response_Data round trip")
    func leSetExtendedScanResponseDataRoundTrip() throws {
        try expectRoundTrip(HCILESetExtendedScanResponseData.self, hex("00 03 01 00"))
        try expectRoundTrip(HCILESetExtendedScanResponseData.self, hex("01 01 00 03 02 0a 08"))
    }

    @Test("HCI_LE_Set_Extended_Advertising_Enable: the sets array")
    func leSetExtendedAdvertisingEnable() throws {
        // nexxtender btsnoop #237
        let command = hex("""
            39 20   # Opcode 0x2039 HCI_LE_Set_Extended_Advertising_Enable
            06      # Parameter_Total_Length 6
            01      # Enable: start
            01      # Num_Sets 1
            00      #   Advertising_Handle[0] 0
            00 00   #   Duration[0] 0: until disabled
            00      #   Max_Extended_Advertising_Events[0] 0: no limit
            """)
        guard case .leSetExtendedAdvertisingEnable(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Extended Advertising Enable"); return }
        #expect(set.enable == 1)
        #expect(set.sets == [.init(advertisingHandle: 0)])

        let two = try HCILESetExtendedAdvertisingEnable(decoding: hex("""
            01      # Enable: start
            02      # Num_Sets 2
            00      #   Advertising_Handle[0] 0
            f4 01   #   Duration[0] 0x01F4 = 5000 ms
            00      #   Max_Extended_Advertising_Events[0] 0
            01      #   Advertising_Handle[1] 1
            00 00   #   Duration[1] 0
            0a      #   Max_Extended_Advertising_Events[1] 10
            """))
        #expect(two.sets.count == 2)
        #expect(two.sets[0].duration.description == "5000 ms")
        #expect(two.sets[1].advertisingHandle == 1)
        #expect(two.sets[1].maxExtendedAdvertisingEvents == 10)
    }

    @Test("HCI_LE_Set_Extended_Advertising_Enable round trip; Num_Sets that overruns")
    func leSetExtendedAdvertisingEnableRoundTrip() throws {
        try expectRoundTrip(HCILESetExtendedAdvertisingEnable.self, hex("01 01 00 00 00 00"))
        try expectRoundTrip(HCILESetExtendedAdvertisingEnable.self, hex("01 02 00 f4 01 00 01 00 00 0a"))
        try expectRoundTrip(HCILESetExtendedAdvertisingEnable.self, hex("00 00"))   // disable every set
        #expect(throws: BLEDecodingError.truncated(field: "Advertising_Handle[1]", offset: 6, needed: 1, available: 0)) {
            _ = try HCILESetExtendedAdvertisingEnable(decoding: hex("01 02 00 00 00 00"))
        }
    }

    @Test("HCI_LE_Read_Maximum_Advertising_Data_Length: 1650 octets")
    func leReadMaximumAdvertisingDataLength() throws {
        #expect(try HCICommandValue(decoding: hex("3a 20 00")) == .leReadMaximumAdvertisingDataLength(.init()))
        // nexxtender btsnoop #46
        let event = hex("""
            0e 06      # Command Complete, 6 octets
            01 3a 20   # Num_HCI_Command_Packets 1, LE Read Maximum Advertising Data Length
            00         # Status: Success
            72 06      # Max_Advertising_Data_Length 0x0672 = 1650
            """)
        guard case .commandComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Command Complete"); return }
        let result = try complete.result(as: HCILEReadMaximumAdvertisingDataLength.self).get()
        #expect(result.status == .success)
        #expect(result.maxAdvertisingDataLength == 1650)
    }

    @Test("HCI_LE_Read_Maximum_Advertising_Data_Length round trip")
    func leReadMaximumAdvertisingDataLengthRoundTrip() throws {
        try expectRoundTrip(HCILEReadMaximumAdvertisingDataLength.self, [])
        try expectRoundTrip(HCILEReadMaximumAdvertisingDataLength.ReturnParameters.self, hex("00 72 06"))
    }
}
