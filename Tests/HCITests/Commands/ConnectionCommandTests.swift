import BLECore
import HCI
import Testing

/// Commands that create, change and end connections.
@Suite("Connection commands")
struct ConnectionCommandTests {
    static let createConnection = hex("""
        60 00                # LE_Scan_Interval 0x0060 = 60 ms
        30 00                # LE_Scan_Window 0x0030 = 30 ms
        00                   # Initiator_Filter_Policy: peer address
        01                   # Peer_Address_Type: random
        c3 a2 11 22 33 f0    # Peer_Address F0:33:22:11:A2:C3 (static)
        00                   # Own_Address_Type: public
        18 00                # Connection_Interval_Min 0x0018 = 30 ms
        28 00                # Connection_Interval_Max 0x0028 = 50 ms
        00 00                # Max_Latency 0
        2a 00                # Supervision_Timeout 0x002A = 420 ms
        00 00                # Min_CE_Length 0
        00 00                # Max_CE_Length 0
        """)

    @Test("HCI_LE_Create_Connection: units of 0.625 ms, 1.25 ms and 10 ms")
    func leCreateConnection() throws {
        // Built from Vol 4, Part E, 7.8.12 (the captures' phone uses the extended command).
        let command = hex("0d 20 19") + Self.createConnection   // Opcode 0x200D, 25 octets
        guard case .leCreateConnection(let create) = try HCICommandValue(decoding: command) else { Issue.record("not LE Create Connection"); return }
        #expect(create.leScanInterval.description == "60 ms")
        #expect(create.leScanWindow.rawValue == 0x30)
        #expect(create.initiatorFilterPolicy == .peerAddress)
        #expect(create.peerAddressType == .random)
        #expect(create.peerAddress == BluetoothAddress("F0:33:22:11:A2:C3"))
        #expect(create.ownAddressType == .public)
        #expect(create.connectionParameters.connectionIntervalMin.microseconds == 30_000)
        #expect(create.connectionParameters.connectionIntervalMax.description == "50 ms")
        #expect(create.connectionParameters.maxLatency == 0)
        #expect(create.connectionParameters.supervisionTimeout.description == "420 ms")
        #expect(create.connectionParameters.minCELength.rawValue == 0)
        #expect(create.connectionParameters.maxCELength.rawValue == 0)
        #expect(HCILECreateConnection.completion == .commandStatus)
        #expect(create.description == "LE Create Connection le_scan_interval=60 ms le_scan_window=30 ms initiator_filter_policy=peer address peer_address_type=random peer_address=F0:33:22:11:A2:C3 own_address_type=public connection_interval_min=30 ms connection_interval_max=50 ms max_latency=0 supervision_timeout=420 ms min_ce_length=0 ms max_ce_length=0 ms")
    }

    @Test("HCI_LE_Create_Connection round trip")
    func leCreateConnectionRoundTrip() throws {
        try expectRoundTrip(HCILECreateConnection.self, Self.createConnection)
        let built = HCILECreateConnection(
            leScanInterval: .init(rawValue: 0x60), leScanWindow: .init(rawValue: 0x30), peerAddressType: .random,
            peerAddress: BluetoothAddress("F0:33:22:11:A2:C3")!,
            connectionParameters: .init(connectionIntervalMin: LEConnectionInterval(milliseconds: 30)!,
                                        connectionIntervalMax: LEConnectionInterval(milliseconds: 50)!,
                                        supervisionTimeout: LESupervisionTimeout(milliseconds: 420)!))
        try expectEncodes(built, to: Self.createConnection)
    }

    static let extendedCreateConnection = hex("""
        01                   # Initiator_Filter_Policy: filter accept list
        01                   # Own_Address_Type: random
        00                   # Peer_Address_Type: public
        00 00 00 00 00 00    # Peer_Address (ignored with the filter accept list)
        07                   # Initiating_PHYs: LE 1M, LE 2M, LE Coded
        60 00 30 00          #   [0] LE 1M: Scan_Interval 60 ms, Scan_Window 30 ms
        18 00 28 00          #       Connection_Interval_Min 30 ms, _Max 50 ms
        00 00 f4 01          #       Max_Latency 0, Supervision_Timeout 0x01F4 = 5000 ms
        00 00 00 00          #       Min_CE_Length 0, Max_CE_Length 0
        60 00 18 00          #   [1] LE 2M: Scan_Interval 60 ms, Scan_Window 15 ms
        18 00 28 00 00 00 f4 01 00 00 00 00
        60 00 18 00          #   [2] LE Coded: Scan_Interval 60 ms, Scan_Window 15 ms
        18 00 28 00 00 00 f4 01 00 00 00 00
        """)

    @Test("HCI_LE_Extended_Create_Connection [v1]: one parameter set per initiating PHY")
    func leExtendedCreateConnection() throws {
        // nexxtender cfa #276
        let command = hex("43 20 3a") + Self.extendedCreateConnection   // Opcode 0x2043, 58 octets
        guard case .leExtendedCreateConnection(let create) = try HCICommandValue(decoding: command) else { Issue.record("not LE Extended Create Connection"); return }
        #expect(create.initiatorFilterPolicy == .filterAcceptList)
        #expect(create.ownAddressType == .random)
        #expect(create.peerAddressType == .public)
        #expect(create.peerAddress == .zero)
        #expect(create.initiatingPHYs == [.le1M, .le2M, .leCoded])
        #expect(create.phyParameters.count == 3)
        #expect(create.parameters(for: .le1M)?.scanWindow.description == "30 ms")
        #expect(create.parameters(for: .le2M)?.scanWindow.description == "15 ms")
        #expect(create.parameters(for: .leCoded)?.scanInterval.description == "60 ms")
        let le1M = try #require(create.parameters(for: .le1M))
        #expect(le1M.connectionParameters.connectionIntervalMin.description == "30 ms")
        #expect(le1M.connectionParameters.connectionIntervalMax.description == "50 ms")
        #expect(le1M.connectionParameters.maxLatency == 0)
        #expect(le1M.connectionParameters.supervisionTimeout.description == "5000 ms")
        #expect(HCILEExtendedCreateConnection.completion == .commandStatus)

        // cfa #277: its Command Status
        guard case .commandStatus(let status) = try HCIEvent(decoding: hex("""
            0f 04   # Command Status, 4 octets
            00      # Status: Success (pending)
            01      # Num_HCI_Command_Packets 1
            43 20   # Command_Opcode LE Extended Create Connection
            """)) else { Issue.record("not Command Status"); return }
        #expect(status.status == .success)
        #expect(status.numHCICommandPackets == 1)
        #expect(status.commandOpcode == .leExtendedCreateConnection)
    }

    @Test("HCI_LE_Extended_Create_Connection round trip; PHY sets that overrun")
    func leExtendedCreateConnectionRoundTrip() throws {
        try expectRoundTrip(HCILEExtendedCreateConnection.self, Self.extendedCreateConnection)
        // Initiating_PHYs 0x07 but only the LE 1M set present.
        #expect(throws: BLEDecodingError.truncated(field: "Scan_Interval[1]", offset: 26, needed: 2, available: 0)) {
            _ = try HCILEExtendedCreateConnection(decoding: Array(Self.extendedCreateConnection.prefix(26)))
        }
    }

    @Test("HCI_LE_Create_Connection_Cancel")
    func leCreateConnectionCancel() throws {
        // nexxtender btsnoop #267 and #268
        #expect(try HCICommandValue(decoding: hex("0e 20 00")) == .leCreateConnectionCancel(HCILECreateConnectionCancel()))
        guard case .commandComplete(let complete) = try HCIEvent(decoding: hex("0e 04 01 0e 20 00")) else { Issue.record("not Command Complete"); return }
        #expect(try complete.result(as: HCILECreateConnectionCancel.self) == .success(.init(status: .success)))
        // Refused when nothing is pending: Command Disallowed, Status only.
        let refused = try HCILECreateConnectionCancel.result(fromReturnParameters: [0x0C])
        #expect(refused == .failure(.commandDisallowed, HCIStatusReturnParameters(status: .commandDisallowed)))
    }

    @Test("HCI_LE_Create_Connection_Cancel round trip")
    func leCreateConnectionCancelRoundTrip() throws {
        try expectRoundTrip(HCILECreateConnectionCancel.self, [])
    }

    @Test("HCI_Disconnect with Remote User Terminated Connection")
    func disconnect() throws {
        // nexxtender btsnoop #1118
        let command = hex("""
            06 04   # Opcode 0x0406 HCI_Disconnect
            03      # Parameter_Total_Length 3
            40 00   # Connection_Handle 0x0040
            13      # Reason 0x13 Remote User Terminated Connection
            """)
        guard case .disconnect(let disconnect) = try HCICommandValue(decoding: command) else { Issue.record("not Disconnect"); return }
        #expect(disconnect.connectionHandle == 0x0040)
        #expect(disconnect.reason == .remoteUserTerminatedConnection)
        #expect(disconnect.description == "Disconnect connection_handle=0x0040 reason=Remote User Terminated Connection (0x13)")
        #expect(HCIDisconnect.completion == .commandStatus)
    }

    @Test("HCI_Disconnect round trip")
    func disconnectRoundTrip() throws {
        try expectRoundTrip(HCIDisconnect.self, hex("40 00 13"))
        try expectEncodes(HCIDisconnect(connectionHandle: 0x0040), to: hex("40 00 13"))
    }

    @Test("HCI_LE_Connection_Update to 45 ms")
    func leConnectionUpdate() throws {
        // nexxtender btsnoop #723
        let command = hex("""
            13 20         # Opcode 0x2013 HCI_LE_Connection_Update
            0e            # Parameter_Total_Length 14
            40 00         # Connection_Handle 0x0040
            24 00 24 00   # Connection_Interval_Min, _Max 0x0024 = 45 ms
            00 00         # Max_Latency 0
            f4 01         # Supervision_Timeout 0x01F4 = 5000 ms
            00 00 00 00   # Min_CE_Length, Max_CE_Length 0
            """)
        guard case .leConnectionUpdate(let update) = try HCICommandValue(decoding: command) else { Issue.record("not LE Connection Update"); return }
        #expect(update.connectionHandle == 0x0040)
        #expect(update.connectionParameters.connectionIntervalMin.description == "45 ms")
        #expect(update.connectionParameters.connectionIntervalMax.rawValue == 0x24)
        #expect(update.connectionParameters.maxLatency == 0)
        #expect(update.connectionParameters.supervisionTimeout.microseconds == 5_000_000)
        #expect(update.connectionParameters.minCELength.rawValue == 0)
        #expect(update.connectionParameters.maxCELength.rawValue == 0)
        #expect(HCILEConnectionUpdate.completion == .commandStatus)
    }

    @Test("HCI_LE_Connection_Update round trip")
    func leConnectionUpdateRoundTrip() throws {
        try expectRoundTrip(HCILEConnectionUpdate.self, hex("40 00 24 00 24 00 00 00 f4 01 00 00 00 00"))
    }

    @Test("HCI_LE_Set_Data_Length and its Connection_Handle return parameter")
    func leSetDataLength() throws {
        // nexxtender cfa #305 and #306
        let command = hex("""
            22 20   # Opcode 0x2022 HCI_LE_Set_Data_Length
            06      # Parameter_Total_Length 6
            02 00   # Connection_Handle 0x0002
            77 00   # TX_Octets 119
            90 42   # TX_Time 0x4290 = 17040 µs
            """)
        guard case .leSetDataLength(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set Data Length"); return }
        #expect(set.connectionHandle == 0x0002)
        #expect(set.txOctets == 119)
        #expect(set.txTime.rawValue == 17040)
        #expect(set.txTime.description == "17040 µs")

        let event = hex("""
            0e 06      # Command Complete, 6 octets
            01 22 20   # Num_HCI_Command_Packets 1, LE Set Data Length
            00         # Status: Success
            02 00      # Connection_Handle 0x0002
            """)
        guard case .commandComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Command Complete"); return }
        let result = try complete.result(as: HCILESetDataLength.self).get()
        #expect(result.status == .success)
        #expect(result.connectionHandle == 0x0002)
    }

    @Test("HCI_LE_Set_Data_Length round trip")
    func leSetDataLengthRoundTrip() throws {
        try expectRoundTrip(HCILESetDataLength.self, hex("02 00 77 00 90 42"))
        try expectRoundTrip(HCIConnectionHandleReturnParameters.self, hex("00 02 00"))
    }

    @Test("HCI_LE_Read_PHY: LE 2M both ways")
    func leReadPHY() throws {
        // Built from Vol 4, Part E, 7.8.47.
        let command = hex("""
            30 20   # Opcode 0x2030 HCI_LE_Read_PHY
            02      # Parameter_Total_Length 2
            02 00   # Connection_Handle 0x0002
            """)
        guard case .leReadPHY(let read) = try HCICommandValue(decoding: command) else { Issue.record("not LE Read PHY"); return }
        #expect(read.connectionHandle == 0x0002)

        let event = hex("""
            0e 08      # Command Complete, 8 octets
            01 30 20   # Num_HCI_Command_Packets 1, LE Read PHY
            00         # Status: Success
            02 00      # Connection_Handle 0x0002
            02         # TX_PHY: LE 2M
            02         # RX_PHY: LE 2M
            """)
        guard case .commandComplete(let complete) = try HCIEvent(decoding: event) else { Issue.record("not Command Complete"); return }
        let result = try complete.result(as: HCILEReadPHY.self).get()
        #expect(result.status == .success)
        #expect(result.connectionHandle == 0x0002)
        #expect(result.txPHY == .le2M)
        #expect(result.rxPHY == .le2M)
    }

    @Test("HCI_LE_Read_PHY round trip; an error with Status only")
    func leReadPHYRoundTrip() throws {
        try expectRoundTrip(HCILEReadPHY.self, hex("02 00"))
        try expectRoundTrip(HCILEReadPHY.ReturnParameters.self, hex("00 02 00 02 02"))
        // Unknown Connection Identifier with only the Status octet: a failure, not a decoding error.
        #expect(try HCILEReadPHY.result(fromReturnParameters: [0x02]) == .failure(.unknownConnectionIdentifier, nil))
        // The same error with every return parameter present keeps them.
        let full = try HCILEReadPHY.result(fromReturnParameters: hex("02 05 00 01 01"))
        #expect(full == .failure(.unknownConnectionIdentifier, .init(status: .unknownConnectionIdentifier, connectionHandle: 5, txPHY: .le1M, rxPHY: .le1M)))
        // Success needs every return parameter.
        #expect(throws: BLEDecodingError.truncated(field: "TX_PHY", offset: 3, needed: 1, available: 0)) {
            _ = try HCILEReadPHY.result(fromReturnParameters: hex("00 02 00"))
        }
        #expect(throws: BLEDecodingError.truncated(field: "Status", offset: 0, needed: 1, available: 0)) {
            _ = try HCILEReadPHY.result(fromReturnParameters: [])
        }
    }

    @Test("HCI_LE_Set_PHY: prefer LE 2M")
    func leSetPHY() throws {
        // Built from Vol 4, Part E, 7.8.49.
        let command = hex("""
            32 20   # Opcode 0x2032 HCI_LE_Set_PHY
            07      # Parameter_Total_Length 7
            02 00   # Connection_Handle 0x0002
            00      # All_PHYs: preferences given for both directions
            02      # TX_PHYs: LE 2M
            02      # RX_PHYs: LE 2M
            00 00   # PHY_Options: no preferred coding
            """)
        guard case .leSetPHY(let set) = try HCICommandValue(decoding: command) else { Issue.record("not LE Set PHY"); return }
        #expect(set.connectionHandle == 0x0002)
        #expect(set.allPHYs == [])
        #expect(set.txPHYs == .le2M)
        #expect(set.rxPHYs == .le2M)
        #expect(set.phyOptions == .noPreference)
        #expect(HCILESetPHY.completion == .commandStatus)
        #expect(set.description == "LE Set PHY connection_handle=0x0002 all_phys=none tx_phys=LE 2M rx_phys=LE 2M phy_options=no preferred coding")
    }

    @Test("HCI_LE_Set_PHY round trip")
    func leSetPHYRoundTrip() throws {
        try expectRoundTrip(HCILESetPHY.self, hex("02 00 00 02 02 00 00"))
        try expectRoundTrip(HCILESetPHY.self, hex("02 00 03 05 05 02 00"))
    }

    static let longTermKey = hex("""
        40 00                                              # Connection_Handle 0x0040
        15 0a 76 c1 17 71 79 9b 77 24 92 fe c0 bc f9 51    # Long_Term_Key
        """)

    @Test("HCI_LE_Long_Term_Key_Request_Reply")
    func leLongTermKeyRequestReply() throws {
        // Built from Vol 4, Part E, 7.8.25 (the captured phone is the central, which uses
        // LE Enable Encryption instead).
        let command = hex("1a 20 12") + Self.longTermKey
        guard case .leLongTermKeyRequestReply(let reply) = try HCICommandValue(decoding: command) else { Issue.record("not LTK Request Reply"); return }
        #expect(reply.connectionHandle == 0x0040)
        #expect(reply.longTermKey == hex("15 0a 76 c1 17 71 79 9b 77 24 92 fe c0 bc f9 51"))

        guard case .commandComplete(let complete) = try HCIEvent(decoding: hex("0e 06 01 1a 20 00 40 00")) else { Issue.record("not Command Complete"); return }
        let result = try complete.result(as: HCILELongTermKeyRequestReply.self).get()
        #expect(result.status == .success)
        #expect(result.connectionHandle == 0x0040)
    }

    @Test("HCI_LE_Long_Term_Key_Request_Reply round trip")
    func leLongTermKeyRequestReplyRoundTrip() throws {
        try expectRoundTrip(HCILELongTermKeyRequestReply.self, Self.longTermKey)
        try expectRoundTrip(HCILELongTermKeyRequestReply.ReturnParameters.self, hex("00 40 00"))
    }
}
