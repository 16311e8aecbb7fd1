import BLECore
import HCI
import Testing

/// LE Meta subevents about connections.
@Suite("LE Meta connection subevents")
struct LEConnectionEventTests {
    static let connectionComplete = hex("""
        00                   # Status: Success
        40 00                # Connection_Handle 0x0040
        01                   # Role: peripheral
        01                   # Peer_Address_Type: random
        c3 a2 11 22 33 f0    # Peer_Address F0:33:22:11:A2:C3
        18 00                # Connection_Interval 0x0018 = 30 ms
        00 00                # Peripheral_Latency 0
        48 00                # Supervision_Timeout 0x0048 = 720 ms
        05                   # Central_Clock_Accuracy: 50 ppm
        """)

    @Test("LE Connection Complete: role, interval, latency, timeout with units")
    func connectionComplete() throws {
        // Built from Vol 4, Part E, 7.7.65.1 (the captured controller sends the enhanced event).
        let event = hex("3e 13 01") + Self.connectionComplete   // LE Meta, 19 octets, subevent 0x01
        guard case .leMeta(.connectionComplete(let complete)) = try HCIEvent(decoding: event) else { Issue.record("not LE Connection Complete"); return }
        #expect(complete.status == .success)
        #expect(complete.connectionHandle == 0x0040)
        #expect(complete.role == .peripheral)
        #expect(complete.peerAddressType == .random)
        #expect(complete.peerAddress == BluetoothAddress("F0:33:22:11:A2:C3"))
        #expect(complete.connectionInterval.rawValue == 0x0018)
        #expect(complete.connectionInterval.duration == .milliseconds(30))
        #expect(complete.peripheralLatency == 0)
        #expect(complete.supervisionTimeout.description == "720 ms")
        #expect(complete.centralClockAccuracy.partsPerMillion == 50)
        #expect(complete.description == "LE Connection Complete status=Success connection_handle=0x0040 role=peripheral peer_address_type=random peer_address=F0:33:22:11:A2:C3 connection_interval=30 ms peripheral_latency=0 supervision_timeout=720 ms central_clock_accuracy=50 ppm")
        #expect(HCIEvent.leMeta(.connectionComplete(complete)).encoded == event)
    }

    @Test("LE Connection Complete round trip")
    func connectionCompleteRoundTrip() throws {
        try expectRoundTrip(LEMetaEvent.ConnectionComplete.self, Self.connectionComplete)
    }

    @Test("LE Connection Update Complete: 45 ms")
    func connectionUpdateComplete() throws {
        // nexxtender btsnoop #726
        let event = hex("""
            3e 0a   # LE Meta, Parameter_Total_Length 10
            03      # Subevent_Code LE Connection Update Complete
            00      # Status: Success
            40 00   # Connection_Handle 0x0040
            24 00   # Connection_Interval 0x0024 = 45 ms
            00 00   # Peripheral_Latency 0
            f4 01   # Supervision_Timeout 0x01F4 = 5000 ms
            """)
        guard case .leMeta(.connectionUpdateComplete(let update)) = try HCIEvent(decoding: event) else { Issue.record("not LE Connection Update Complete"); return }
        #expect(update.status == .success)
        #expect(update.connectionHandle == 0x0040)
        #expect(update.connectionInterval.description == "45 ms")
        #expect(update.peripheralLatency == 0)
        #expect(update.supervisionTimeout.microseconds == 5_000_000)
    }

    @Test("LE Connection Update Complete round trip")
    func connectionUpdateCompleteRoundTrip() throws {
        try expectRoundTrip(LEMetaEvent.ConnectionUpdateComplete.self, hex("00 40 00 24 00 00 00 f4 01"))
    }

    @Test("LE Read Remote Features Complete, including a failed read")
    func readRemoteFeaturesComplete() throws {
        // nexxtender btsnoop #606
        let event = hex("""
            3e 0c                     # LE Meta, Parameter_Total_Length 12
            04                        # Subevent_Code LE Read Remote Features Complete
            00                        # Status: Success
            40 00                     # Connection_Handle 0x0040
            09 00 00 00 00 00 00 00   # LE_Features: LE Encryption, Peripheral-initiated Features Exchange
            """)
        guard case .leMeta(.readRemoteFeaturesComplete(let features)) = try HCIEvent(decoding: event) else { Issue.record("not LE Read Remote Features Complete"); return }
        #expect(features.status == .success)
        #expect(features.connectionHandle == 0x0040)
        #expect(features.leFeatures == [.leEncryption, .peripheralInitiatedFeaturesExchange])

        // #568: the read failed with Connection Failed to be Established; the features octets are
        // still there (0xEF), not meaningful, and kept.
        guard case .leMeta(.readRemoteFeaturesComplete(let failed)) = try HCIEvent(decoding: hex("3e 0c 04 3e 40 00 ef 00 00 00 00 00 00 00")) else { Issue.record("not LE Read Remote Features Complete"); return }
        #expect(failed.status == .connectionFailedToBeEstablished)
        #expect(failed.leFeatures.rawValue == 0xEF)
    }

    @Test("LE Read Remote Features Complete round trip")
    func readRemoteFeaturesCompleteRoundTrip() throws {
        try expectRoundTrip(LEMetaEvent.ReadRemoteFeaturesComplete.self, hex("00 40 00 09 00 00 00 00 00 00 00"))
    }

    @Test("LE Long Term Key Request: Random_Number and Encrypted_Diversifier")
    func longTermKeyRequest() throws {
        // Built from Vol 4, Part E, 7.7.65.5.
        let event = hex("""
            3e 0d                     # LE Meta, Parameter_Total_Length 13
            05                        # Subevent_Code LE Long Term Key Request
            40 00                     # Connection_Handle 0x0040
            88 77 66 55 44 33 22 11   # Random_Number 0x1122334455667788
            34 12                     # Encrypted_Diversifier 0x1234
            """)
        guard case .leMeta(.longTermKeyRequest(let request)) = try HCIEvent(decoding: event) else { Issue.record("not LE Long Term Key Request"); return }
        #expect(request.connectionHandle == 0x0040)
        #expect(request.randomNumber == 0x1122_3344_5566_7788)
        #expect(request.encryptedDiversifier == 0x1234)
        #expect(request.description == "LE Long Term Key Request connection_handle=0x0040 random_number=0x1122334455667788 encrypted_diversifier=0x1234")
    }

    @Test("LE Long Term Key Request round trip")
    func longTermKeyRequestRoundTrip() throws {
        try expectRoundTrip(LEMetaEvent.LongTermKeyRequest.self, hex("40 00 88 77 66 55 44 33 22 11 34 12"))
    }

    @Test("LE Data Length Change: octets and µs")
    func dataLengthChange() throws {
        // nexxtender btsnoop #242
        let event = hex("""
            3e 0b   # LE Meta, Parameter_Total_Length 11
            07      # Subevent_Code LE Data Length Change
            02 00   # Connection_Handle 0x0002
            1b 00   # Max_TX_Octets 27
            48 01   # Max_TX_Time 328 µs
            2d 00   # Max_RX_Octets 45
            d8 01   # Max_RX_Time 472 µs
            """)
        guard case .leMeta(.dataLengthChange(let change)) = try HCIEvent(decoding: event) else { Issue.record("not LE Data Length Change"); return }
        #expect(change.connectionHandle == 0x0002)
        #expect(change.maxTXOctets == 27)
        #expect(change.maxTXTime.description == "328 µs")
        #expect(change.maxRXOctets == 45)
        #expect(change.maxRXTime.microseconds == 472)
    }

    @Test("LE Data Length Change round trip")
    func dataLengthChangeRoundTrip() throws {
        try expectRoundTrip(LEMetaEvent.DataLengthChange.self, hex("02 00 1b 00 48 01 2d 00 d8 01"))
    }

    static let enhanced = hex("""
        00                   # Status: Success
        02 00                # Connection_Handle 0x0002
        00                   # Role: central
        00                   # Peer_Address_Type: public
        91 22 7f b3 46 b4    # Peer_Address B4:46:B3:7F:22:91
        00 00 00 00 00 00    # Local_Resolvable_Private_Address: none
        00 00 00 00 00 00    # Peer_Resolvable_Private_Address: none
        24 00                # Connection_Interval 0x0024 = 45 ms
        00 00                # Peripheral_Latency 0
        f4 01                # Supervision_Timeout 0x01F4 = 5000 ms
        00                   # Central_Clock_Accuracy: 500 ppm
        """)

    @Test("LE Enhanced Connection Complete [v1]")
    func enhancedConnectionComplete() throws {
        // nexxtender cfa #207 (the charger as peripheral, its public address)
        let event = hex("3e 1f 0a") + Self.enhanced
        guard case .leMeta(.enhancedConnectionComplete(let complete)) = try HCIEvent(decoding: event) else { Issue.record("not LE Enhanced Connection Complete"); return }
        #expect(complete.status == .success)
        #expect(complete.connectionHandle == 0x0002)
        #expect(complete.role == .central)
        #expect(complete.peerAddressType == .public)
        #expect(complete.peerAddress == BluetoothAddress("B4:46:B3:7F:22:91"))
        #expect(complete.localResolvablePrivateAddress == .zero)
        #expect(complete.peerResolvablePrivateAddress == .zero)
        #expect(complete.connectionInterval.description == "45 ms")
        #expect(complete.peripheralLatency == 0)
        #expect(complete.supervisionTimeout.description == "5000 ms")
        #expect(complete.centralClockAccuracy.description == "500 ppm")

        // nexxtender btsnoop #269: the connection attempt was cancelled (Unknown Connection Identifier).
        guard case .leMeta(.enhancedConnectionComplete(let cancelled)) = try HCIEvent(decoding: hex("3e 1f 0a 02 40 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 24 00 00 00 f4 01 00")) else { Issue.record("not LE Enhanced Connection Complete"); return }
        #expect(cancelled.status == .unknownConnectionIdentifier)
    }

    @Test("LE Enhanced Connection Complete [v1] round trip")
    func enhancedConnectionCompleteRoundTrip() throws {
        try expectRoundTrip(LEMetaEvent.EnhancedConnectionComplete.self, Self.enhanced)
    }

    static let enhancedV2 = hex("""
        00                   # Status: Success
        41 00                # Connection_Handle 0x0041
        01                   # Role: peripheral
        02                   # Peer_Address_Type: public identity (resolved)
        91 22 7f b3 46 b4    # Peer_Address B4:46:B3:7F:22:91 (identity)
        2e f0 35 bd 25 61    # Local_Resolvable_Private_Address 61:25:BD:35:F0:2E
        6f 00 60 8c b7 69    # Peer_Resolvable_Private_Address 69:B7:8C:60:00:6F
        18 00                # Connection_Interval 30 ms
        04 00                # Peripheral_Latency 4
        c8 00                # Supervision_Timeout 2000 ms
        01                   # Central_Clock_Accuracy: 250 ppm
        00                   # Advertising_Handle 0
        ff ff                # Sync_Handle 0xFFFF: none
        """)

    @Test("LE Enhanced Connection Complete [v2]: advertising and sync handles")
    func enhancedConnectionCompleteV2() throws {
        // Built from Vol 4, Part E, 7.7.65.10.
        let event = hex("3e 22 29") + Self.enhancedV2   // LE Meta, 34 octets, subevent 0x29
        guard case .leMeta(.enhancedConnectionCompleteV2(let complete)) = try HCIEvent(decoding: event) else { Issue.record("not LE Enhanced Connection Complete v2"); return }
        #expect(complete.status == .success)
        #expect(complete.connectionHandle == 0x0041)
        #expect(complete.role == .peripheral)
        #expect(complete.peerAddressType == .publicIdentity)
        #expect(complete.peerAddress == BluetoothAddress("B4:46:B3:7F:22:91"))
        #expect(complete.localResolvablePrivateAddress == BluetoothAddress("61:25:BD:35:F0:2E"))
        #expect(complete.peerResolvablePrivateAddress == BluetoothAddress("69:B7:8C:60:00:6F"))
        #expect(complete.connectionInterval.description == "30 ms")
        #expect(complete.peripheralLatency == 4)
        #expect(complete.supervisionTimeout.description == "2000 ms")
        #expect(complete.centralClockAccuracy.partsPerMillion == 250)
        #expect(complete.advertisingHandle == 0)
        #expect(complete.syncHandle == 0xFFFF)
    }

    @Test("LE Enhanced Connection Complete [v2] round trip")
    func enhancedConnectionCompleteV2RoundTrip() throws {
        try expectRoundTrip(LEMetaEvent.EnhancedConnectionCompleteV2.self, Self.enhancedV2)
    }

    @Test("LE PHY Update Complete: LE 2M")
    func phyUpdateComplete() throws {
        // Built from Vol 4, Part E, 7.7.65.12.
        let event = hex("""
            3e 06   # LE Meta, Parameter_Total_Length 6
            0c      # Subevent_Code LE PHY Update Complete
            00      # Status: Success
            02 00   # Connection_Handle 0x0002
            02      # TX_PHY: LE 2M
            02      # RX_PHY: LE 2M
            """)
        guard case .leMeta(.phyUpdateComplete(let update)) = try HCIEvent(decoding: event) else { Issue.record("not LE PHY Update Complete"); return }
        #expect(update.status == .success)
        #expect(update.connectionHandle == 0x0002)
        #expect(update.txPHY == .le2M)
        #expect(update.rxPHY == .le2M)
        #expect(update.description == "LE PHY Update Complete status=Success connection_handle=0x0002 tx_phy=LE 2M rx_phy=LE 2M")
    }

    @Test("LE PHY Update Complete round trip")
    func phyUpdateCompleteRoundTrip() throws {
        try expectRoundTrip(LEMetaEvent.PHYUpdateComplete.self, hex("00 02 00 02 02"))
    }

    @Test("LE Channel Selection Algorithm")
    func channelSelectionAlgorithm() throws {
        // nexxtender btsnoop #211
        let event = hex("""
            3e 04   # LE Meta, Parameter_Total_Length 4
            14      # Subevent_Code LE Channel Selection Algorithm
            02 00   # Connection_Handle 0x0002
            00      # Channel_Selection_Algorithm: #1
            """)
        guard case .leMeta(.channelSelectionAlgorithm(let selection)) = try HCIEvent(decoding: event) else { Issue.record("not LE Channel Selection Algorithm"); return }
        #expect(selection.connectionHandle == 0x0002)
        #expect(selection.channelSelectionAlgorithm == .algorithm1)
    }

    @Test("LE Channel Selection Algorithm round trip")
    func channelSelectionAlgorithmRoundTrip() throws {
        try expectRoundTrip(LEMetaEvent.ChannelSelectionAlgorithm.self, hex("02 00 00"))
    }

    @Test("unknown LE subevents are kept; an empty LE Meta is an error")
    func unknownSubevent() throws {
        // LE Scan Timeout (0x11) has no parameters and no decoder here.
        let event = try HCIEvent(decoding: hex("3e 01 11"))
        #expect(event == .leMeta(.unknown(subevent: LEMetaSubeventCode(rawValue: 0x11), parameters: [])))
        #expect(event.encoded == hex("3e 01 11"))
        #expect(event.description == "LE Scan Timeout")
        let other = try HCIEvent(decoding: hex("3e 03 7f 01 02"))
        #expect(other.description == "LE subevent 0x7F parameters=0102")
        #expect(other.encoded == hex("3e 03 7f 01 02"))
        #expect(throws: BLEDecodingError.truncated(field: "Subevent_Code", offset: 2, needed: 1, available: 0)) {
            _ = try HCIEvent(decoding: hex("3e 00"))
        }
        // A subevent's errors count from the event packet: PHY Update Complete without RX_PHY.
        #expect(throws: BLEDecodingError.truncated(field: "RX_PHY", offset: 7, needed: 1, available: 0)) {
            _ = try HCIEvent(decoding: hex("3e 05 0c 00 02 00 02"))
        }
    }
}
