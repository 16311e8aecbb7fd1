import BLECore
import HCI
import Testing

/// Controller set-up commands, with bytes from the Android snoop captures in
/// /work/shared/captures (Broadcom and Qualcomm controllers).
@Suite("Controller commands")
struct ControllerCommandTests {
    @Test("HCI_Reset and its Command Complete")
    func reset() throws {
        // nexxtender btsnoop #1: Sent Reset
        let command = hex("""
            03 0c   # Opcode 0x0C03 HCI_Reset
            00      # Parameter_Total_Length 0
            """)
        guard case .reset(let reset) = try HCICommandValue(decoding: command) else { Issue.record("not Reset"); return }
        #expect(reset == HCIReset())
        #expect(reset.packet.encoded == command)
        #expect(reset.description == "Reset")

        // #2: Rcvd Command Complete (Reset)
        let event = hex("""
            0e 04   # Command Complete, 4 octets
            01      # Num_HCI_Command_Packets 1
            03 0c   # Command_Opcode HCI_Reset
            00      # Status: Success
            """)
        guard case .commandComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Command Complete"); return }
        let result = try complete.result(as: HCIReset.self)
        #expect(result == .success(HCIStatusReturnParameters(status: .success)))
        #expect(result.status == .success)
        #expect(try result.get().status == .success)
    }

    @Test("HCI_Reset round trip")
    func resetRoundTrip() throws {
        try expectRoundTrip(HCIReset.self, [])
        try expectRoundTrip(HCIStatusReturnParameters.self, [0x00])
    }

    @Test("HCI_Set_Event_Mask from a Broadcom controller's start-up")
    func setEventMask() throws {
        // nexxtender btsnoop #3
        let command = hex("""
            01 0c                     # Opcode 0x0C01 HCI_Set_Event_Mask
            08                        # Parameter_Total_Length 8
            ff ff ff ff ff ff bf 3d   # Event_Mask 0x3DBFFFFFFFFFFFFF
            """)
        guard case .setEventMask(let set) = try HCICommandValue(decoding: command) else { Issue.record("not Set Event Mask"); return }
        #expect(set.eventMask.rawValue == 0x3DBF_FFFF_FFFF_FFFF)
        #expect(set.eventMask.contains(.disconnectionComplete))
        #expect(set.eventMask.contains(.encryptionChange))
        #expect(set.eventMask.contains(.leMeta))
        #expect(set.eventMask.contains(.encryptionKeyRefreshComplete))
        #expect(HCIEventMask(enabling: .leMeta).rawValue == 1 << 61)
        #expect(HCIEventMask.resetDefault.rawValue == 0x0000_1FFF_FFFF_FFFF)
    }

    @Test("HCI_Set_Event_Mask round trip")
    func setEventMaskRoundTrip() throws {
        try expectRoundTrip(HCISetEventMask.self, hex("ff ff ff ff ff ff bf 3d"))
        try expectEncodes(HCISetEventMask(eventMask: [.disconnectionComplete, .leMeta]), to: hex("10 00 00 00 00 00 00 20"))
    }

    @Test("HCI_Read_Local_Version_Information return parameters from two controllers")
    func readLocalVersionInformation() throws {
        #expect(try HCICommandValue(decoding: hex("01 10 00")) == .readLocalVersionInformation(HCIReadLocalVersionInformation()))

        // nexxtender btsnoop #10 (Broadcom)
        let broadcom = hex("""
            0e 0c      # Command Complete, 12 octets
            01         # Num_HCI_Command_Packets 1
            01 10      # Command_Opcode HCI_Read_Local_Version_Information
            00         # Status: Success
            0b         # HCI_Version 0x0B (Core v5.2)
            cb 20      # HCI_Subversion 0x20CB
            0b         # LMP_Version 0x0B (Core v5.2)
            0f 00      # Company_Identifier 0x000F (Broadcom)
            01 00      # LMP_Subversion 0x0001
            """)
        guard case .commandComplete(let complete) = try HCIEvent(decoding: broadcom) else { Issue.record("not Command Complete"); return }
        let version = try complete.result(as: HCIReadLocalVersionInformation.self).get()
        #expect(version.status == .success)
        #expect(version.hciVersion == 0x0B)
        #expect(version.hciSubversion == 0x20CB)
        #expect(version.lmpVersion == 0x0B)
        #expect(version.companyIdentifier == 0x000F)
        #expect(version.lmpSubversion == 0x0001)

        // nexxtender cfa #13 (Qualcomm)
        let qualcomm = hex("0e 0c 01 01 10 00 0a 00 00 0a 1d 00 be 02")
        guard case .commandComplete(let other) = try HCIEvent(decoding: qualcomm) else { Issue.record("not Command Complete"); return }
        let v2 = try other.result(as: HCIReadLocalVersionInformation.self).get()
        #expect(v2.hciVersion == 0x0A)
        #expect(v2.companyIdentifier == 0x001D)
        #expect(v2.lmpSubversion == 0x02BE)
    }

    @Test("HCI_Read_Local_Version_Information round trip")
    func readLocalVersionInformationRoundTrip() throws {
        try expectRoundTrip(HCIReadLocalVersionInformation.self, [])
        try expectRoundTrip(HCIReadLocalVersionInformation.ReturnParameters.self, hex("00 0b cb 20 0b 0f 00 01 00"))
    }

    static let broadcomSupportedCommands = hex("""
        ff ff ff 03 cc ff ef ff ff ff fc 1f f2 0f e8 fe 3f f7 8f ff 1c 00 04 00 61 f7 ff ff 7f f8 ff ff
        ff ff ff ff ff ff ff e7 e0 ff ff ff ff ad 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        """)

    @Test("HCI_Read_Local_Supported_Commands: the 64-octet mask and its bits")
    func readLocalSupportedCommands() throws {
        #expect(try HCICommandValue(decoding: hex("02 10 00")) == .readLocalSupportedCommands(HCIReadLocalSupportedCommands()))

        // nexxtender btsnoop #12: Command Complete (0e 44 01 02 10), then Status 00 and the mask
        let event = hex("0e 44 01 02 10 00") + Self.broadcomSupportedCommands
        guard case .commandComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Command Complete"); return }
        let result = try complete.result(as: HCIReadLocalSupportedCommands.self).get()
        #expect(result.status == .success)
        #expect(result.supportedCommands.octets == Self.broadcomSupportedCommands)
        // Octet 0 bit 5: HCI_Disconnect; octet 5 bits 6 and 7: Set Event Mask, Reset.
        #expect(result.supportedCommands.supports(octet: 0, bit: 5))
        #expect(result.supportedCommands.supports(.disconnect) == true)
        #expect(result.supportedCommands.supports(.reset) == true)
        // Octet 36 (0xff) bit 2: LE Set Extended Advertising Parameters; octet 37 (0xff) bit 5:
        // LE Set Extended Scan Parameters.
        #expect(result.supportedCommands.supports(.leSetExtendedAdvertisingParameters) == true)
        #expect(result.supportedCommands.supports(.leSetExtendedScanParameters) == true)
        // Octet 41 (0xff) bit 5: LE Read Buffer Size [v2].
        #expect(result.supportedCommands.supports(.leReadBufferSizeV2) == true)
        // Octet 45 is 0xad = 1010_1101: bit 0 set, bit 1 clear.
        #expect(result.supportedCommands.supports(octet: 45, bit: 0))
        #expect(!result.supportedCommands.supports(octet: 45, bit: 1))
        // Octets past 45 are zero; positions outside the mask are false, unknown opcodes nil.
        #expect(!result.supportedCommands.supports(octet: 50, bit: 0))
        #expect(!result.supportedCommands.supports(octet: 64, bit: 0))
        #expect(!result.supportedCommands.supports(octet: 0, bit: 8))
        #expect(result.supportedCommands.supports(HCIOpcode(rawValue: 0xFC17)) == nil)
        let position = try #require(HCISupportedCommands.position(of: .leReadBufferSizeV2))
        #expect(position.octet == 41)
        #expect(position.bit == 5)
    }

    @Test("HCI_Read_Local_Supported_Commands round trip")
    func readLocalSupportedCommandsRoundTrip() throws {
        try expectRoundTrip(HCIReadLocalSupportedCommands.ReturnParameters.self, [0x00] + Self.broadcomSupportedCommands)
        #expect(HCISupportedCommands(octets: [0xFF]).octets.count == 64)
    }

    @Test("HCI_Read_Local_Supported_Features: LMP features page 0")
    func readLocalSupportedFeatures() throws {
        #expect(try HCICommandValue(decoding: hex("03 10 00")) == .readLocalSupportedFeatures(HCIReadLocalSupportedFeatures()))
        // An LE-only controller (built from Vol 2, Part C, 3.3): Encryption, BR/EDR Not
        // Supported and LE Supported (Controller).
        let event = hex("""
            0e 0c                     # Command Complete, 12 octets
            01 03 10                  # Num_HCI_Command_Packets 1, HCI_Read_Local_Supported_Features
            00                        # Status: Success
            04 00 00 00 60 00 00 00   # LMP_Features: bit 2, bit 37, bit 38
            """)
        guard case .commandComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Command Complete"); return }
        let features = try complete.result(as: HCIReadLocalSupportedFeatures.self).get()
        #expect(features.status == .success)
        #expect(features.lmpFeatures == [.encryption, .brEdrNotSupported, .leSupportedController])
        #expect(features.lmpFeatures.description == "Encryption, BR/EDR Not Supported, LE Supported (Controller)")
    }

    @Test("HCI_Read_Local_Supported_Features round trip")
    func readLocalSupportedFeaturesRoundTrip() throws {
        try expectRoundTrip(HCIReadLocalSupportedFeatures.self, [])
        try expectRoundTrip(HCIReadLocalSupportedFeatures.ReturnParameters.self, hex("00 04 00 00 00 60 00 00 00"))
    }

    @Test("HCI_Read_BD_ADDR: the address travels least significant octet first")
    func readBDADDR() throws {
        #expect(try HCICommandValue(decoding: hex("09 10 00")) == .readBDADDR(HCIReadBDADDR()))
        // nexxtender btsnoop #62
        let event = hex("""
            0e 0a                # Command Complete, 10 octets
            01 09 10             # Num_HCI_Command_Packets 1, HCI_Read_BD_ADDR
            00                   # Status: Success
            d7 66 dc 5b e5 dc    # BD_ADDR DC:E5:5B:DC:66:D7
            """)
        guard case .commandComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Command Complete"); return }
        let result = try complete.result(as: HCIReadBDADDR.self).get()
        #expect(result.status == .success)
        #expect(result.bdAddr == BluetoothAddress("DC:E5:5B:DC:66:D7"))
        #expect(complete.description == "Command Complete Read BD_ADDR num_hci_command_packets=1 status=Success bd_addr=DC:E5:5B:DC:66:D7")
    }

    @Test("HCI_Read_BD_ADDR round trip")
    func readBDADDRRoundTrip() throws {
        try expectRoundTrip(HCIReadBDADDR.self, [])
        try expectRoundTrip(HCIReadBDADDR.ReturnParameters.self, hex("00 d7 66 dc 5b e5 dc"))
    }
}
