import BLECore
import HCI
import Testing

/// Legacy and extended scanning commands.
@Suite("Scanning commands")
struct ScanningCommandTests {
    @Test("HCI_LE_Set_Scan_Parameters: active scanning every 10 ms")
    func leSetScanParameters() throws {
        // As `hcitool lescan` sends it (built from Vol 4, Part E, 7.8.10).
        let command = hex("""
            0b 20   # Opcode 0x200B HCI_LE_Set_Scan_Parameters
            07      # Parameter_Total_Length 7
            01      # LE_Scan_Type: active
            10 00   # LE_Scan_Interval 0x0010 = 10 ms
            10 00   # LE_Scan_Window 0x0010 = 10 ms
            00      # Own_Address_Type: public
            00      # Scanning_Filter_Policy: basic unfiltered
            """)
        guard case .leSetScanParameters(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Scan Parameters"); return }
        #expect(set.leScanType == .active)
        #expect(set.leScanInterval.rawValue == 0x0010)
        #expect(set.leScanInterval.microseconds == 10_000)
        #expect(set.leScanWindow.description == "10 ms")
        #expect(set.ownAddressType == .public)
        #expect(set.scanningFilterPolicy == .basicUnfiltered)
        #expect(set.description == "LE Set Scan Parameters le_scan_type=active le_scan_interval=10 ms le_scan_window=10 ms own_address_type=public scanning_filter_policy=basic unfiltered")
    }

    @Test("HCI_LE_Set_Scan_Parameters round trip")
    func leSetScanParametersRoundTrip() throws {
        try expectRoundTrip(HCILESetScanParameters.self, hex("01 10 00 10 00 00 00"))
        let built = HCILESetScanParameters(leScanType: .passive, leScanInterval: LESlotDuration(milliseconds: 60)!,
                                           leScanWindow: LESlotDuration(milliseconds: 30)!, ownAddressType: .random)
        try expectEncodes(built, to: hex("00 60 00 30 00 01 00"))
    }

    @Test("HCI_LE_Set_Scan_Enable: the description a capture decoder prints")
    func leSetScanEnable() throws {
        let command = hex("""
            0c 20   # Opcode 0x200C HCI_LE_Set_Scan_Enable
            02      # Parameter_Total_Length 2
            01      # LE_Scan_Enable: start
            00      # Filter_Duplicates: off
            """)
        guard case .leSetScanEnable(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Scan Enable"); return }
        #expect(set.leScanEnable == 1)
        #expect(set.filterDuplicates == 0)
        #expect(set == HCILESetScanEnable(enable: true))
        #expect(set.description == "LE Set Scan Enable le_scan_enable=1 filter_duplicates=0")
        #expect(set.packet.encoded == command)
    }

    @Test("HCI_LE_Set_Scan_Enable round trip")
    func leSetScanEnableRoundTrip() throws {
        try expectRoundTrip(HCILESetScanEnable.self, hex("01 00"))
        try expectRoundTrip(HCILESetScanEnable.self, hex("00 01"))
    }

    @Test("HCI_LE_Set_Extended_Scan_Parameters: one PHY, 3 s interval")
    func leSetExtendedScanParameters() throws {
        // nexxtender btsnoop #189
        let command = hex("""
            41 20   # Opcode 0x2041 HCI_LE_Set_Extended_Scan_Parameters
            08      # Parameter_Total_Length 8
            01      # Own_Address_Type: random
            00      # Scanning_Filter_Policy: basic unfiltered
            01      # Scanning_PHYs: LE 1M
            01      #   Scan_Type[0]: active
            c0 12   #   Scan_Interval[0] 0x12C0 = 3000 ms
            c0 12   #   Scan_Window[0] 0x12C0 = 3000 ms
            """)
        guard case .leSetExtendedScanParameters(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Extended Scan Parameters"); return }
        #expect(set.ownAddressType == .random)
        #expect(set.scanningFilterPolicy == .basicUnfiltered)
        #expect(set.scanningPHYs == .le1M)
        #expect(set.phyParameters.count == 1)
        #expect(set.phyParameters[0].scanType == .active)
        #expect(set.phyParameters[0].scanInterval.rawValue == 0x12C0)
        #expect(set.phyParameters[0].scanWindow.description == "3000 ms")
        #expect(set.parameters(for: .le1M) == set.phyParameters[0])
        #expect(set.parameters(for: .leCoded) == nil)
    }

    @Test("HCI_LE_Set_Extended_Scan_Parameters with LE 1M and LE Coded")
    func leSetExtendedScanParametersTwoPHYs() throws {
        let parameters = hex("""
            00      # Own_Address_Type: public
            00      # Scanning_Filter_Policy: basic unfiltered
            05      # Scanning_PHYs: LE 1M, LE Coded
            00      #   Scan_Type[0] (LE 1M): passive
            12 00   #   Scan_Interval[0] 11.25 ms
            12 00   #   Scan_Window[0] 11.25 ms
            01      #   Scan_Type[1] (LE Coded): active
            36 00   #   Scan_Interval[1] 33.75 ms
            12 00   #   Scan_Window[1] 11.25 ms
            """)
        let set = try HCILESetExtendedScanParameters(decoding: parameters)
        #expect(set.scanningPHYs == [.le1M, .leCoded])
        #expect(set.parameters(for: .le1M)?.scanType == .passive)
        #expect(set.parameters(for: .leCoded)?.scanType == .active)
        #expect(set.parameters(for: .leCoded)?.scanInterval.description == "33.75 ms")
        let built = HCILESetExtendedScanParameters(
            ownAddressType: .public,
            le1M: .init(scanType: .passive, scanInterval: .init(rawValue: 0x12), scanWindow: .init(rawValue: 0x12)),
            leCoded: .init(scanType: .active, scanInterval: .init(rawValue: 0x36), scanWindow: .init(rawValue: 0x12)))
        try expectEncodes(built, to: parameters)
    }

    @Test("HCI_LE_Set_Extended_Scan_Parameters round trip and a PHY set that is missing")
    func leSetExtendedScanParametersRoundTrip() throws {
        try expectRoundTrip(HCILESetExtendedScanParameters.self, hex("01 00 01 01 c0 12 c0 12"))
        try expectRoundTrip(HCILESetExtendedScanParameters.self, hex("00 00 05 00 12 00 12 00 01 36 00 12 00"))
        // Two PHY bits but one set: the second set's first field is missing.
        #expect(throws: BLEDecodingError.truncated(field: "Scan_Type[1]", offset: 8, needed: 1, available: 0)) {
            _ = try HCILESetExtendedScanParameters(decoding: hex("00 00 05 00 12 00 12 00"))
        }
    }

    @Test("HCI_LE_Set_Extended_Scan_Enable: start, no duplicates filter, until disabled")
    func leSetExtendedScanEnable() throws {
        // nexxtender btsnoop #191
        let command = hex("""
            42 20   # Opcode 0x2042 HCI_LE_Set_Extended_Scan_Enable
            06      # Parameter_Total_Length 6
            01      # Enable: start
            00      # Filter_Duplicates: off
            00 00   # Duration 0: until disabled
            00 00   # Period 0: scan once
            """)
        guard case .leSetExtendedScanEnable(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Extended Scan Enable"); return }
        #expect(set.enable == 1)
        #expect(set.filterDuplicates == 0)
        #expect(set.duration.rawValue == 0)
        #expect(set.period.rawValue == 0)

        // Periodic scanning (built): 5 s every 2.56 s periods, duplicates reset each period.
        let periodic = try HCILESetExtendedScanEnable(decoding: hex("""
            01      # Enable: start
            02      # Filter_Duplicates: on, reset each period
            f4 01   # Duration 0x01F4 = 5000 ms (10 ms units)
            02 00   # Period 0x0002 = 2560 ms (1.28 s units)
            """))
        #expect(periodic.filterDuplicates == 2)
        #expect(periodic.duration.description == "5000 ms")
        #expect(periodic.period.microseconds == 2_560_000)
    }

    @Test("HCI_LE_Set_Extended_Scan_Enable round trip")
    func leSetExtendedScanEnableRoundTrip() throws {
        try expectRoundTrip(HCILESetExtendedScanEnable.self, hex("01 00 00 00 00 00"))
        try expectRoundTrip(HCILESetExtendedScanEnable.self, hex("01 02 f4 01 02 00"))
    }
}
