import BLECore
import HCI
import Testing

/// The events outside LE Meta, with bytes from the nexxtender captures where they have them.
@Suite("HCI events")
struct EventTests {
    @Test("Command Complete: fields, typed return parameters, description")
    func commandComplete() throws {
        // nexxtender cfa #35: LE Read Buffer Size [v1]
        let event = hex("""
            0e 07      # Event_Code Command Complete, Parameter_Total_Length 7
            01         # Num_HCI_Command_Packets 1
            02 20      # Command_Opcode 0x2002 LE Read Buffer Size [v1]
            00 fb 00 10   # Return_Parameters: Status Success, 251 octets, 16 packets
            """)
        guard case .commandComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Command Complete"); return }
        #expect(complete.numHCICommandPackets == 1)
        #expect(complete.commandOpcode == .leReadBufferSize)
        #expect(complete.returnParameters == hex("00 fb 00 10"))
        #expect(complete.description == "Command Complete LE Read Buffer Size [v1] num_hci_command_packets=1 status=Success le_acl_data_packet_length=251 total_num_le_acl_data_packets=16")
        #expect(throws: BLEDecodingError.invalidValue(field: "Command_Opcode", offset: 1, reason: "LE Read Buffer Size [v1] is not Reset")) {
            _ = try complete.result(as: HCIReset.self)
        }
        let built = HCIEvent.CommandComplete(command: HCILEReadBufferSize.self,
                                             returnParameters: .init(leACLDataPacketLength: 251, totalNumLEACLDataPackets: 16))
        #expect(built == complete)
        #expect(HCIEvent.commandComplete(built).encoded == event)
    }

    @Test("Command Complete round trip, No Operation, failures and malformed return parameters")
    func commandCompleteRoundTrip() throws {
        try expectRoundTrip(HCIEvent.CommandComplete.self, hex("01 02 20 00 fb 00 10"), endsWithRemainder: true)
        // A controller announcing it accepts commands: opcode 0x0000, no return parameters.
        let nop = try HCIEvent.CommandComplete(decoding: hex("01 00 00"))
        #expect(nop.commandOpcode == .noOperation)
        #expect(nop.returnParameters.isEmpty)
        #expect(nop.description == "Command Complete No Operation num_hci_command_packets=1")
        // nexxtender btsnoop #1153: LE Set Periodic Advertising Enable refused, Command Disallowed
        // (a command this package does not decode: return parameters in hexadecimal).
        let refused = try HCIEvent.CommandComplete(decoding: hex("01 40 20 0c"))
        #expect(refused.description == "Command Complete LE Set Periodic Advertising Enable num_hci_command_packets=1 return_parameters=0c")
        // A failed LE Read PHY with Status only.
        let failed = try HCIEvent.CommandComplete(decoding: hex("01 30 20 02"))
        #expect(try failed.result(as: HCILEReadPHY.self) == .failure(.unknownConnectionIdentifier, nil))
        #expect(failed.description == "Command Complete LE Read PHY num_hci_command_packets=1 status=Unknown Connection Identifier (0x02)")
        #expect(throws: HCIStatus.unknownConnectionIdentifier) { _ = try failed.result(as: HCILEReadPHY.self).get() }
        // Success with a return parameter missing: an error at event-parameter offsets.
        let short = try HCIEvent.CommandComplete(decoding: hex("01 02 20 00 fb 00"))
        #expect(throws: BLEDecodingError.truncated(field: "Total_Num_LE_ACL_Data_Packets", offset: 6, needed: 1, available: 0)) {
            _ = try short.result(as: HCILEReadBufferSize.self)
        }
        #expect(short.description == "Command Complete LE Read Buffer Size [v1] num_hci_command_packets=1 return_parameters=00fb00 (malformed: Total_Num_LE_ACL_Data_Packets at offset 3 needs 1 octet, 0 available)")
    }

    @Test("Command Status: pending and refused")
    func commandStatus() throws {
        // nexxtender btsnoop #1119: Disconnect pending
        let event = hex("""
            0f 04   # Event_Code Command Status, Parameter_Total_Length 4
            00      # Status: Success (pending)
            01      # Num_HCI_Command_Packets 1
            06 04   # Command_Opcode 0x0406 Disconnect
            """)
        guard case .commandStatus(let status) = try HCIEvent(decoding: event) else { Issue.record("not Command Status"); return }
        #expect(status.status == .success)
        #expect(status.numHCICommandPackets == 1)
        #expect(status.commandOpcode == .disconnect)
        #expect(status.description == "Command Status status=Success num_hci_command_packets=1 command_opcode=Disconnect")
    }

    @Test("Command Status round trip")
    func commandStatusRoundTrip() throws {
        try expectRoundTrip(HCIEvent.CommandStatus.self, hex("00 01 06 04"))
        try expectRoundTrip(HCIEvent.CommandStatus.self, hex("0c 01 0d 20"))
    }

    @Test("Disconnection Complete: Connection Failed to be Established")
    func disconnectionComplete() throws {
        // nexxtender btsnoop #570
        let event = hex("""
            05 04   # Event_Code Disconnection Complete, Parameter_Total_Length 4
            00      # Status: Success
            40 00   # Connection_Handle 0x0040
            3e      # Reason 0x3E Connection Failed to be Established
            """)
        guard case .disconnectionComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Disconnection Complete"); return }
        #expect(complete.status == .success)
        #expect(complete.connectionHandle == 0x0040)
        #expect(complete.reason == .connectionFailedToBeEstablished)
        #expect(complete.description == "Disconnection Complete status=Success connection_handle=0x0040 reason=Connection Failed to be Established / Synchronization Timeout (0x3E)")
    }

    @Test("Disconnection Complete round trip")
    func disconnectionCompleteRoundTrip() throws {
        try expectRoundTrip(HCIEvent.DisconnectionComplete.self, hex("00 40 00 3e"))
        try expectRoundTrip(HCIEvent.DisconnectionComplete.self, hex("00 40 00 16"))
    }

    @Test("Number Of Completed Packets")
    func numberOfCompletedPackets() throws {
        // nexxtender btsnoop #615
        let event = hex("""
            13 05   # Event_Code Number Of Completed Packets, Parameter_Total_Length 5
            01      # Num_Handles 1
            40 00   #   Connection_Handle[0] 0x0040
            01 00   #   Num_Completed_Packets[0] 1
            """)
        guard case .numberOfCompletedPackets(let completed) = try HCIEvent(decoding: event) else { Issue.record("not NOCP"); return }
        #expect(completed.entries == [.init(connectionHandle: 0x0040, numCompletedPackets: 1)])
        #expect(completed.description == "Number Of Completed Packets num_handles=1 handles=[{connection_handle=0x0040 num_completed_packets=1}]")
    }

    @Test("Number Of Completed Packets round trip; elements interleave; Num_Handles that overruns")
    func numberOfCompletedPacketsRoundTrip() throws {
        try expectRoundTrip(HCIEvent.NumberOfCompletedPackets.self, hex("01 40 00 01 00"))
        // Two handles: handle, count, handle, count (Vol 4, Part E, 5.2).
        let two = try HCIEvent.NumberOfCompletedPackets(decoding: hex("02 40 00 03 00 41 00 01 00"))
        #expect(two.entries == [.init(connectionHandle: 0x40, numCompletedPackets: 3), .init(connectionHandle: 0x41, numCompletedPackets: 1)])
        try expectRoundTrip(HCIEvent.NumberOfCompletedPackets.self, hex("02 40 00 03 00 41 00 01 00"))
        #expect(throws: BLEDecodingError.truncated(field: "Connection_Handle[1]", offset: 7, needed: 2, available: 0)) {
            _ = try HCIEvent(decoding: hex("13 05 02 40 00 03 00"))
        }
    }

    @Test("Encryption Change [v1]: on")
    func encryptionChange() throws {
        // nexxtender btsnoop #1008
        let event = hex("""
            08 04   # Event_Code Encryption Change [v1], Parameter_Total_Length 4
            00      # Status: Success
            40 00   # Connection_Handle 0x0040
            01      # Encryption_Enabled: on (AES-CCM on LE)
            """)
        guard case .encryptionChange(let change) = try HCIEvent(decoding: event) else { Issue.record("not Encryption Change"); return }
        #expect(change.status == .success)
        #expect(change.connectionHandle == 0x0040)
        #expect(change.encryptionEnabled == .on)
        #expect(change.description == "Encryption Change [v1] status=Success connection_handle=0x0040 encryption_enabled=on")
    }

    @Test("Encryption Change [v1] round trip")
    func encryptionChangeRoundTrip() throws {
        try expectRoundTrip(HCIEvent.EncryptionChange.self, hex("00 40 00 01"))
        try expectRoundTrip(HCIEvent.EncryptionChange.self, hex("06 40 00 00"))
    }

    @Test("Encryption Change [v2]: with the key size")
    func encryptionChangeV2() throws {
        // Built from Vol 4, Part E, 7.7.8.
        let event = hex("""
            59 05   # Event_Code Encryption Change [v2], Parameter_Total_Length 5
            00      # Status: Success
            40 00   # Connection_Handle 0x0040
            01      # Encryption_Enabled: on
            10      # Encryption_Key_Size 16 octets
            """)
        guard case .encryptionChangeV2(let change) = try HCIEvent(decoding: event) else { Issue.record("not Encryption Change v2"); return }
        #expect(change.status == .success)
        #expect(change.connectionHandle == 0x0040)
        #expect(change.encryptionEnabled == .on)
        #expect(change.encryptionKeySize == 16)
        #expect(change.description == "Encryption Change [v2] status=Success connection_handle=0x0040 encryption_enabled=on encryption_key_size=16")
    }

    @Test("Encryption Change [v2] round trip")
    func encryptionChangeV2RoundTrip() throws {
        try expectRoundTrip(HCIEvent.EncryptionChangeV2.self, hex("00 40 00 01 10"))
        var built = HCIEvent.EncryptionChangeV2()
        built.connectionHandle = 0x41
        built.encryptionEnabled = .on
        built.encryptionKeySize = 7
        try expectEncodes(built, to: hex("00 41 00 01 07"))
    }

    @Test("Hardware Error")
    func hardwareError() throws {
        let event = hex("""
            10 01   # Event_Code Hardware Error, Parameter_Total_Length 1
            05      # Hardware_Code 0x05 (vendor-defined)
            """)
        guard case .hardwareError(let error) = try HCIEvent(decoding: event) else { Issue.record("not Hardware Error"); return }
        #expect(error.hardwareCode == 0x05)
        #expect(error.description == "Hardware Error hardware_code=0x05")
    }

    @Test("Hardware Error round trip")
    func hardwareErrorRoundTrip() throws {
        try expectRoundTrip(HCIEvent.HardwareError.self, [0x05])
    }

    @Test("vendor and other unknown events are kept whole")
    func unknownEvents() throws {
        // nexxtender btsnoop: a Broadcom vendor event (0xFF)
        let vendor = hex("ff 05 00 00 10 0a 03")
        let event = try HCIEvent(decoding: vendor)
        #expect(event == .unknown(HCIEventPacket(code: .vendorSpecific, parameters: hex("00 00 10 0a 03"))))
        #expect(event.code == .vendorSpecific)
        #expect(event.encoded == vendor)
        #expect(event.description == "Vendor Specific parameters=0000100a03")
        // Read Remote Version Information Complete: named, not decoded.
        let other = try HCIEvent(decoding: hex("0c 08 00 40 00 0b 0f 00 01 00"))
        #expect(other.code == .readRemoteVersionInformationComplete)
        #expect(other.encoded == hex("0c 08 00 40 00 0b 0f 00 01 00"))
        #expect(HCIEventCode(rawValue: 0x42).description == "Event 0x42")
    }

    @Test("Parameter_Total_Length mismatches and short parameters, at packet offsets")
    func malformedPackets() {
        // Length 4 but 3 octets of parameters.
        #expect(throws: BLEDecodingError.truncated(field: "Parameters", offset: 2, needed: 4, available: 3)) {
            _ = try HCIEvent(decoding: hex("05 04 00 40 00"))
        }
        // Length 3 but 4 octets of parameters.
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 5, count: 1)) {
            _ = try HCIEvent(decoding: hex("05 03 00 40 00 13"))
        }
        // A consistent length that is too short for the event: Reason missing at offset 5.
        #expect(throws: BLEDecodingError.truncated(field: "Reason", offset: 5, needed: 1, available: 0)) {
            _ = try HCIEvent(decoding: hex("05 03 00 40 00"))
        }
        // A consistent length that is too long for the event.
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 6, count: 1)) {
            _ = try HCIEvent(decoding: hex("05 05 00 40 00 13 00"))
        }
        #expect(throws: BLEDecodingError.truncated(field: "Event_Code", offset: 0, needed: 1, available: 0)) {
            _ = try HCIEventPacket(decoding: [])
        }
        #expect(throws: BLEDecodingError.truncated(field: "Parameter_Total_Length", offset: 1, needed: 1, available: 0)) {
            _ = try HCIEventPacket(decoding: [0x0E])
        }
    }
}
