import BLECore
import HCI
import Testing

/// LE controller set-up commands, with bytes from the nexxtender captures where they have them.
@Suite("LE set-up commands")
struct LESetupCommandTests {
    @Test("HCI_LE_Set_Event_Mask from the Broadcom start-up")
    func leSetEventMask() throws {
        // nexxtender btsnoop #23
        let command = hex("""
            01 20                     # Opcode 0x2001 HCI_LE_Set_Event_Mask
            08                        # Parameter_Total_Length 8
            7f fe 02 4d 03 00 00 00   # LE_Event_Mask 0x000000034D02FE7F
            """)
        guard case .leSetEventMask(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Event Mask"); return }
        #expect(set.leEventMask.rawValue == 0x0000_0003_4D02_FE7F)
        #expect(set.leEventMask.contains(.connectionComplete))            // bit 0
        #expect(set.leEventMask.contains(.dataLengthChange))              // bit 6
        #expect(set.leEventMask.contains(.enhancedConnectionComplete))    // bit 9
        #expect(set.leEventMask.contains(.extendedAdvertisingReport))     // bit 12
        #expect(!set.leEventMask.contains(.channelSelectionAlgorithm))    // bit 19 clear
        #expect(!set.leEventMask.contains(.enhancedConnectionCompleteV2)) // bit 40 clear
        #expect(LEEventMask.resetDefault == [.connectionComplete, .advertisingReport, .connectionUpdateComplete,
                                             .readRemoteFeaturesComplete, .longTermKeyRequest])
    }

    @Test("HCI_LE_Set_Event_Mask round trip")
    func leSetEventMaskRoundTrip() throws {
        try expectRoundTrip(HCILESetEventMask.self, hex("7f fe 02 4d 03 00 00 00"))
    }

    @Test("HCI_LE_Read_Buffer_Size [v1]: 16 buffers of 251 octets")
    func leReadBufferSize() throws {
        #expect(try HCICommandValue(decoding: hex("02 20 00")) == .leReadBufferSize(HCILEReadBufferSize()))
        // nexxtender cfa #35
        let event = hex("""
            0e 07      # Command Complete, 7 octets
            01 02 20   # Num_HCI_Command_Packets 1, HCI_LE_Read_Buffer_Size [v1]
            00         # Status: Success
            fb 00      # LE_ACL_Data_Packet_Length 251
            10         # Total_Num_LE_ACL_Data_Packets 16
            """)
        guard case .commandComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Command Complete"); return }
        let size = try complete.result(as: HCILEReadBufferSize.self).get()
        #expect(size.status == .success)
        #expect(size.leACLDataPacketLength == 251)
        #expect(size.totalNumLEACLDataPackets == 16)
    }

    @Test("HCI_LE_Read_Buffer_Size [v1] round trip")
    func leReadBufferSizeRoundTrip() throws {
        try expectRoundTrip(HCILEReadBufferSize.self, [])
        try expectRoundTrip(HCILEReadBufferSize.ReturnParameters.self, hex("00 fb 00 10"))
    }

    @Test("HCI_LE_Read_Buffer_Size [v2]: ACL and ISO buffers")
    func leReadBufferSizeV2() throws {
        #expect(try HCICommandValue(decoding: hex("60 20 00")) == .leReadBufferSizeV2(HCILEReadBufferSizeV2()))
        // nexxtender btsnoop #30
        let event = hex("""
            0e 0a      # Command Complete, 10 octets
            01 60 20   # Num_HCI_Command_Packets 1, HCI_LE_Read_Buffer_Size [v2]
            00         # Status: Success
            fb 00      # LE_ACL_Data_Packet_Length 251
            0f         # Total_Num_LE_ACL_Data_Packets 15
            fd 03      # ISO_Data_Packet_Length 1021
            18         # Total_Num_ISO_Data_Packets 24
            """)
        guard case .commandComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Command Complete"); return }
        let size = try complete.result(as: HCILEReadBufferSizeV2.self).get()
        #expect(size.status == .success)
        #expect(size.leACLDataPacketLength == 251)
        #expect(size.totalNumLEACLDataPackets == 15)
        #expect(size.isoDataPacketLength == 1021)
        #expect(size.totalNumISODataPackets == 24)
    }

    @Test("HCI_LE_Read_Buffer_Size [v2] round trip")
    func leReadBufferSizeV2RoundTrip() throws {
        try expectRoundTrip(HCILEReadBufferSizeV2.self, [])
        try expectRoundTrip(HCILEReadBufferSizeV2.ReturnParameters.self, hex("00 fb 00 0f fd 03 18"))
    }

    @Test("HCI_LE_Read_Local_Supported_Features: the features a host picks commands from")
    func leReadLocalSupportedFeatures() throws {
        #expect(try HCICommandValue(decoding: hex("03 20 00")) == .leReadLocalSupportedFeatures(HCILEReadLocalSupportedFeatures()))
        // nexxtender btsnoop #14 (Broadcom)
        let event = hex("""
            0e 0c                     # Command Complete, 12 octets
            01 03 20                  # Num_HCI_Command_Packets 1, HCI_LE_Read_Local_Supported_Features
            00                        # Status: Success
            ef f9 01 1f 0e 00 00 00   # LE_Features 0x0000000E1F01F9EF
            """)
        guard case .commandComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Command Complete"); return }
        let features = try complete.result(as: HCILEReadLocalSupportedFeatures.self).get()
        #expect(features.status == .success)
        #expect(features.leFeatures.rawValue == 0x0000_000E_1F01_F9EF)
        #expect(features.leFeatures.contains(.leEncryption))
        #expect(features.leFeatures.contains(.leDataPacketLengthExtension))
        #expect(features.leFeatures.contains(.llPrivacy))
        #expect(features.leFeatures.contains(.le2MPHY))
        #expect(features.leFeatures.contains(.leCodedPHY))
        #expect(features.leFeatures.contains(.leExtendedAdvertising))
        #expect(!features.leFeatures.contains(.lePing))   // bit 4 clear in 0xEF
        // The Qualcomm controller of the cfa capture (0x08007DFF): extended advertising too, but
        // bit 9 (Stable Modulation Index - Transmitter) clear, and bit 27 set.
        let qualcomm = try HCILEReadLocalSupportedFeatures.ReturnParameters(decoding: hex("00 ff 7d 00 08 00 00 00 00"))
        #expect(qualcomm.leFeatures.contains(.leExtendedAdvertising))
        #expect(!qualcomm.leFeatures.contains(.stableModulationIndexTransmitter))
        #expect(qualcomm.leFeatures.contains(.remotePublicKeyValidation))
    }

    @Test("HCI_LE_Read_Local_Supported_Features round trip")
    func leReadLocalSupportedFeaturesRoundTrip() throws {
        try expectRoundTrip(HCILEReadLocalSupportedFeatures.self, [])
        try expectRoundTrip(HCILEReadLocalSupportedFeatures.ReturnParameters.self, hex("00 ef f9 01 1f 0e 00 00 00"))
    }

    @Test("HCI_LE_Set_Random_Address with a resolvable private address")
    func leSetRandomAddress() throws {
        // nexxtender btsnoop #83
        let command = hex("""
            05 20               # Opcode 0x2005 HCI_LE_Set_Random_Address
            06                  # Parameter_Total_Length 6
            2e f0 35 bd 25 61   # Random_Address 61:25:BD:35:F0:2E (resolvable private)
            """)
        guard case .leSetRandomAddress(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Random Address"); return }
        #expect(set.randomAddress == BluetoothAddress("61:25:BD:35:F0:2E"))
        #expect(set.randomAddress.randomAddressKind == .resolvablePrivate)
        #expect(set.description == "LE Set Random Address random_address=61:25:BD:35:F0:2E")
        // #84: its Command Complete
        guard case .commandComplete(let complete) = try HCIEvent(decoding: hex("0e 04 01 05 20 00")) else { Issue.record("not Command Complete"); return }
        #expect(try complete.result(as: HCILESetRandomAddress.self) == .success(.init(status: .success)))
    }

    @Test("HCI_LE_Set_Random_Address round trip")
    func leSetRandomAddressRoundTrip() throws {
        try expectRoundTrip(HCILESetRandomAddress.self, hex("2e f0 35 bd 25 61"))
    }
}
