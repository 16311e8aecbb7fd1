import BLECore
import HCI
import Host
import Testing

@Suite("LEControllerCapabilities: one command family per controller", .timeLimit(.minutes(1)))
struct LEControllerCapabilitiesTests {
    /// Command Complete for HCI_Read_Local_Supported_Commands with `commands`:
    /// Num_HCI_Command_Packets 1, Command_Opcode 0x1002, Status 0x00, Supported_Commands (64 octets).
    func supportedCommandsComplete(_ commands: HCISupportedCommands) -> String {
        "04 0e 44 01 02 10 00 " + Hex.encode(commands.octets, separator: " ")
    }

    @Test("a Bluetooth 4.2 controller: legacy commands, 31 octets, no Max_Advertising_Data_Length read")
    func legacyController() async throws {
        let commands = supportedCommands([.leSetAdvertisingParameters, .leSetAdvertisingData, .leSetScanEnable])
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 02 10 00"),                           // Read Local Supported Commands
            .inject(h4: supportedCommandsComplete(commands)),
            .expect(h4: "01 03 20 00"),                           // LE Read Local Supported Features
            .inject(h4: "04 0e 0c 01 03 20 00 01 00 00 00 00 00 00 00"),   // LE_Features: LE Encryption
            .expect(h4: "01 02 20 00"),                           // LE Read Buffer Size
            .inject(h4: "04 0e 07 01 02 20 00 1b00 0f"),          // 27 octets, 15 packets
        ])
        let flow = patientFlow(transport)
        let capabilities = try await LEControllerCapabilities.read(from: flow)
        #expect(capabilities.commandFamily == .legacy)
        #expect(capabilities.leFeatures == .leEncryption)
        #expect(capabilities.supportedCommands == commands)
        #expect(capabilities.leACLDataPacketLength == 27)
        #expect(capabilities.totalNumLEACLDataPackets == 15)
        #expect(capabilities.maximumAdvertisingDataLength == 31)
        #expect(capabilities.description == "legacy advertising and scanning, advertising data up to 31 octets, LE ACL 15 × 27 octets")
        expectScriptPlayed(transport)
    }

    @Test("a Bluetooth 5 controller: extended commands, Max_Advertising_Data_Length read")
    func extendedController() async throws {
        let commands = supportedCommands(LECommandFamily.extendedCommands + [.leSetScanEnable])
        // Octet 36 bits 2...6 (LE Set Extended Advertising Parameters ... LE Read Maximum
        // Advertising Data Length) and octet 37 bits 5, 6 (LE Set Extended Scan Parameters, Enable).
        #expect(commands.octets[36] == 0x7C)
        #expect(commands.octets[37] == 0x60)
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 02 10 00"),
            .inject(h4: supportedCommandsComplete(commands)),
            .expect(h4: "01 03 20 00"),
            .inject(h4: "04 0e 0c 01 03 20 00 01 10 00 00 00 00 00 00"),   // LE Encryption, LE Extended Advertising
            .expect(h4: "01 02 20 00"),
            .inject(h4: "04 0e 07 01 02 20 00 fb00 0a"),          // 251 octets, 10 packets
            .expect(h4: "01 3a 20 00"),                           // LE Read Maximum Advertising Data Length
            .inject(h4: "04 0e 06 01 3a 20 00 7206"),             // 1650 octets
        ])
        let flow = patientFlow(transport)
        let capabilities = try await LEControllerCapabilities.read(from: flow)
        #expect(capabilities.commandFamily == .extended)
        #expect(capabilities.maximumAdvertisingDataLength == 1650)
        #expect(capabilities.leACLDataPacketLength == 251)
        let forced = capabilities.withLegacyCommands()
        #expect(forced.commandFamily == .legacy)
        #expect(forced.maximumAdvertisingDataLength == 31)
        expectScriptPlayed(transport)
    }

    @Test("Max_Advertising_Data_Length answered Unknown HCI Command (BlueZ 5.66's emulator): 31 octets; another error still fails")
    func unknownMaximumLength() async throws {
        let commands = supportedCommands(LECommandFamily.extendedCommands)
        func start() throws -> [ScriptedHCITransport.Step] {
            try [
                .expect(h4: "01 02 10 00"),
                .inject(h4: supportedCommandsComplete(commands)),
                .expect(h4: "01 03 20 00"),
                .inject(h4: "04 0e 0c 01 03 20 00 01 10 00 00 00 00 00 00"),
                .expect(h4: "01 02 20 00"),
                .inject(h4: "04 0e 07 01 02 20 00 fb00 0a"),
                .expect(h4: "01 3a 20 00"),
            ]
        }
        let unknown = ScriptedHCITransport(script: try start() + [.inject(h4: "04 0f 04 01 01 3a 20")])   // Command Status: Unknown HCI Command
        let capabilities = try await LEControllerCapabilities.read(from: patientFlow(unknown))
        #expect(capabilities.commandFamily == .extended)
        #expect(capabilities.maximumAdvertisingDataLength == 31)
        expectScriptPlayed(unknown)

        let failing = ScriptedHCITransport(script: try start() + [.inject(h4: "04 0e 06 01 3a 20 03 0000")])  // Hardware Failure
        await #expect(throws: HCICommandError.self) { _ = try await LEControllerCapabilities.read(from: patientFlow(failing)) }
    }

    @Test("the feature bit without the commands, or the commands without the bit, is legacy")
    func partialSupport() {
        let all = supportedCommands(LECommandFamily.extendedCommands)
        let noScan = supportedCommands([.leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData,
                                        .leSetExtendedScanResponseData, .leSetExtendedAdvertisingEnable,
                                        .leReadMaximumAdvertisingDataLength])
        #expect(LECommandFamily.choose(features: [.leExtendedAdvertising], commands: all) == .extended)
        #expect(LECommandFamily.choose(features: [.leExtendedAdvertising], commands: noScan) == .legacy)
        #expect(LECommandFamily.choose(features: [.leEncryption], commands: all) == .legacy)
    }

    @Test("a failed read throws the command's error")
    func failedRead() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 02 10 00"),
            .inject(h4: "04 0e 04 01 02 10 03"),                  // Status 0x03 Hardware Failure
        ])
        let flow = patientFlow(transport)
        let error = await #expect(throws: HCICommandError.self) { try await LEControllerCapabilities.read(from: flow) }
        #expect(error == .status(.hardwareFailure, opcode: .readLocalSupportedCommands))
    }
}
