import BLECore
import HCI
import Host
import Testing
import VirtualRadio

@Suite("VirtualRadio link layer: supervision timeout, connection update, data length, PHY, RSSI, faults (Core v5.4, Vol 6, Part B, 4.5, 5.1)",
       .timeLimit(.minutes(1)))
struct LinkLayerTests {
    @Test("out of range: both sides get Disconnection Complete 0x08 at the supervision timeout, not before")
    func supervisionTimeout() async throws {
        let pair = try await ConnectedPair.make(parameters: connectionParameters(interval: 24, timeout: 50))   // 500 ms
        pair.peripheralController.setInRange(false)
        await pair.radio.advance(by: .milliseconds(450))
        await pair.settle()
        #expect(pair.central.events.compactMap(\.disconnection).isEmpty)
        await pair.radio.advance(by: .milliseconds(100))
        await pair.settle()
        #expect(pair.central.events.compactMap(\.disconnection).map(\.reason) == [.connectionTimeout])
        #expect(pair.peripheral.events.compactMap(\.disconnection).map(\.reason) == [.connectionTimeout])
        #expect(pair.central.events.compactMap(\.disconnection).first?.connectionHandle == pair.centralHandle)
    }

    @Test("back in range before the timeout: the link carries on and queued data arrives")
    func backInRange() async throws {
        let pair = try await ConnectedPair.make(parameters: connectionParameters(interval: 24, timeout: 50))
        pair.peripheralController.setInRange(false)
        try await pair.central.send(acl(pair.centralHandle, [4, 0, 4, 0, 9, 9, 9, 9]))
        await pair.radio.advance(by: .milliseconds(300))
        await pair.settle()
        #expect(pair.peripheral.acl.isEmpty)
        pair.peripheralController.setInRange(true)
        await pair.radio.advance(by: .milliseconds(600))
        await pair.settle()
        #expect(pair.peripheral.acl.map(\.data) == [[4, 0, 4, 0, 9, 9, 9, 9]])
        #expect(pair.central.events.compactMap(\.disconnection).isEmpty)
        #expect(pair.peripheral.events.compactMap(\.disconnection).isEmpty)
    }

    @Test("two controllers that stop hearing each other time out; a third pair is unaffected")
    func pairHearing() async throws {
        let pair = try await ConnectedPair.make(parameters: connectionParameters(interval: 24, timeout: 20))
        let third = pair.radio.makeController(configuration: configuration(3))
        pair.radio.setHearing(false, between: pair.centralController, and: pair.peripheralController)
        await pair.radio.advance(by: .milliseconds(250))
        await pair.settle()
        #expect(pair.central.events.compactMap(\.disconnection).map(\.reason) == [.connectionTimeout])
        #expect(third.connectionHandles.isEmpty)
    }

    @Test("LE Connection Update from the central: Command Status, then LE Connection Update Complete on both sides at the instant")
    func connectionUpdate() async throws {
        let pair = try await ConnectedPair.make(parameters: connectionParameters(interval: 24, timeout: 200))
        #expect(try await pair.peripheral.command(HCILEConnectionUpdate(connectionHandle: pair.peripheralHandle,
                                                                        connectionParameters: connectionParameters(interval: 40)))
                == .status(.unsupportedRemoteFeature, credits: 1))
        #expect(try await pair.central.command(HCILEConnectionUpdate(connectionHandle: pair.centralHandle,
                                                                     connectionParameters: connectionParameters(interval: 40, timeout: 10)))
                == .status(.invalidHCICommandParameters, credits: 1), "timeout shorter than (1 + latency) * interval * 2")
        #expect(try await pair.central.command(HCILEConnectionUpdate(connectionHandle: pair.centralHandle,
                                                                     connectionParameters: connectionParameters(interval: 40, timeout: 300, latency: 1)))
                == .status(.success, credits: 1))
        let start = pair.radio.now
        await pair.radio.advance(by: .milliseconds(100))
        await pair.settle()
        #expect(pair.central.leEvents.isEmpty, "the instant is 6 events (180 ms) after the update PDU")
        await pair.radio.advance(by: .milliseconds(200))
        await pair.settle()
        for (host, handle) in [(pair.central, pair.centralHandle), (pair.peripheral, pair.peripheralHandle)] {
            let updates = host.leEvents.compactMap { event -> LEMetaEvent.ConnectionUpdateComplete? in
                if case .connectionUpdateComplete(let e) = event { return e } else { return nil }
            }
            #expect(updates == [LEMetaEvent.ConnectionUpdateComplete(connectionHandle: handle, connectionInterval: .init(rawValue: 40),
                                                                      peripheralLatency: 1, supervisionTimeout: .init(rawValue: 300))])
        }
        #expect(pair.radio.now - start == .milliseconds(300))
        // Idle for several supervision timeouts: the link stays up (idle events are not lost events).
        await pair.radio.advance(by: .seconds(10))
        await pair.settle()
        #expect(pair.central.events.compactMap(\.disconnection).isEmpty)
        #expect(pair.peripheral.events.compactMap(\.disconnection).isEmpty)
        // Data now flows at the new interval (50 ms).
        try await pair.central.send(acl(pair.centralHandle, [4, 0, 4, 0, 1, 2, 3, 4]))
        await pair.radio.advance(by: .milliseconds(51))
        await pair.settle()
        #expect(pair.peripheral.acl.count == 1)
    }

    @Test("LE Set Data Length: Data Length Change on both sides, then link-layer PDUs of up to 251 octets")
    func dataLength() async throws {
        var centralConfiguration = configuration(1)
        centralConfiguration.aclDataPacketLength = 251
        let pair = try await ConnectedPair.make(centralConfiguration: centralConfiguration)
        // Before: a 100-octet HCI packet crosses as 27-octet PDUs, each its own ACL packet at the peer.
        try await pair.central.send(acl(pair.centralHandle, [96, 0, 4, 0] + Array(repeating: 7, count: 96)))
        await pair.radio.advance(by: .milliseconds(31))
        await pair.settle()
        #expect(pair.peripheral.acl.map(\.data.count) == [27, 27, 27, 19])
        #expect(pair.peripheral.acl.map(\.packetBoundary) == [.firstFlushable, .continuing, .continuing, .continuing])
        #expect(pair.central.events.flatMap(\.completedPackets).map(\.numCompletedPackets) == [1], "one HCI packet completed")
        pair.peripheral.clear()
        let answer = try await pair.central.command(HCILESetDataLength(connectionHandle: pair.centralHandle, txOctets: 251,
                                                                       txTime: .init(rawValue: 2120)))
        #expect(try answer.parameters(HCILESetDataLength.self) == HCIConnectionHandleReturnParameters(connectionHandle: pair.centralHandle))
        #expect(try await pair.central.command(HCILESetDataLength(connectionHandle: pair.centralHandle, txOctets: 300,
                                                                  txTime: .init(rawValue: 2120))).status == .invalidHCICommandParameters)
        await pair.radio.advance(by: .milliseconds(31))
        await pair.settle()
        let centralChange = pair.central.leEvents.compactMap { e -> LEMetaEvent.DataLengthChange? in
            if case .dataLengthChange(let c) = e { return c } else { return nil } }
        let peripheralChange = pair.peripheral.leEvents.compactMap { e -> LEMetaEvent.DataLengthChange? in
            if case .dataLengthChange(let c) = e { return c } else { return nil } }
        #expect(centralChange.map { [$0.maxTXOctets, $0.maxRXOctets] } == [[251, 27]])
        #expect(peripheralChange.map { [$0.maxTXOctets, $0.maxRXOctets] } == [[27, 251]])
        #expect(centralChange.first?.maxTXTime.rawValue == 2120 && peripheralChange.first?.maxRXTime.rawValue == 2120)
        pair.peripheral.clear()
        try await pair.central.send(acl(pair.centralHandle, [96, 0, 4, 0] + Array(repeating: 8, count: 96)))
        await pair.radio.advance(by: .milliseconds(31))
        await pair.settle()
        #expect(pair.peripheral.acl.map(\.data.count) == [100])
    }

    @Test("a suggested default data length starts each new connection's length update; Read Maximum Data Length says 251")
    func suggestedDataLength() async throws {
        let radio = VirtualRadio(timing: .manual)
        let central = TestHost(radio.makeController(configuration: configuration(1)))
        let peripheral = TestHost(radio.makeController(configuration: configuration(2)))
        try await central.bringUp()
        try await peripheral.bringUp()
        let maximum = try await central.command(HCILEReadMaximumDataLength()).parameters(HCILEReadMaximumDataLength.self)
        #expect(maximum == HCILEReadMaximumDataLength.ReturnParameters(supportedMaxTXOctets: 251, supportedMaxTXTime: .init(rawValue: 2120),
                                                                       supportedMaxRXOctets: 251, supportedMaxRXTime: .init(rawValue: 2120)))
        #expect(try await central.command(HCILEWriteSuggestedDefaultDataLength(suggestedMaxTXOctets: 26, suggestedMaxTXTime: .init(rawValue: 328))).status
                == .invalidHCICommandParameters)
        #expect(try await central.command(HCILEWriteSuggestedDefaultDataLength(suggestedMaxTXOctets: 251, suggestedMaxTXTime: .init(rawValue: 2120))).status
                == .success)
        let suggested = try await central.command(HCILEReadSuggestedDefaultDataLength()).parameters(HCILEReadSuggestedDefaultDataLength.self)
        #expect(suggested.suggestedMaxTXOctets == 251 && suggested.suggestedMaxTXTime.rawValue == 2120)
        try await peripheral.command(advertisingParameters())
        try await peripheral.command(HCILESetAdvertisingEnable(enable: true))
        try await central.command(createConnection(to: address("C0:00:00:00:00:02")))
        await radio.advance(by: .milliseconds(100))
        await central.settle()
        await peripheral.settle()
        #expect(central.leEvents.map(\.subeventCode) == [.connectionComplete, .dataLengthChange])
        #expect(peripheral.leEvents.map(\.subeventCode) == [.connectionComplete, .dataLengthChange])
        // HCI Reset restores the default of 27 octets.
        try await central.command(HCIReset())
        let reset = try await central.command(HCILEReadSuggestedDefaultDataLength()).parameters(HCILEReadSuggestedDefaultDataLength.self)
        #expect(reset.suggestedMaxTXOctets == 27 && reset.suggestedMaxTXTime.rawValue == 328)
        // LE Set Default PHY: checked like LE Set PHY.
        #expect(try await central.command(HCILESetDefaultPHY(txPHYs: [], rxPHYs: .le1M)).status == .invalidHCICommandParameters)
        #expect(try await central.command(HCILESetDefaultPHY(txPHYs: .leCoded, rxPHYs: .leCoded)).status == .unsupportedFeatureOrParameterValue)
        #expect(try await central.command(HCILESetDefaultPHY(txPHYs: [.le1M, .le2M], rxPHYs: .le2M)).status == .success)
    }

    @Test("LE Set PHY: Command Status, LE PHY Update Complete on both sides, LE Read PHY agrees; coded only is refused")
    func phy() async throws {
        let pair = try await ConnectedPair.make()
        let before = try await pair.central.command(HCILEReadPHY(connectionHandle: pair.centralHandle)).parameters(HCILEReadPHY.self)
        #expect(before.txPHY == .le1M && before.rxPHY == .le1M)
        #expect(try await pair.central.command(HCILESetPHY(connectionHandle: pair.centralHandle, txPHYs: .leCoded, rxPHYs: .leCoded))
                == .status(.unsupportedFeatureOrParameterValue, credits: 1))
        #expect(try await pair.central.command(HCILESetPHY(connectionHandle: pair.centralHandle, txPHYs: .le2M, rxPHYs: .le2M))
                == .status(.success, credits: 1))
        await pair.radio.advance(by: .milliseconds(250))
        await pair.settle()
        for (host, handle) in [(pair.central, pair.centralHandle), (pair.peripheral, pair.peripheralHandle)] {
            let updates = host.leEvents.compactMap { e -> LEMetaEvent.PHYUpdateComplete? in
                if case .phyUpdateComplete(let u) = e { return u } else { return nil } }
            #expect(updates == [LEMetaEvent.PHYUpdateComplete(connectionHandle: handle, txPHY: .le2M, rxPHY: .le2M)])
        }
        let after = try await pair.peripheral.command(HCILEReadPHY(connectionHandle: pair.peripheralHandle)).parameters(HCILEReadPHY.self)
        #expect(after.txPHY == .le2M && after.rxPHY == .le2M)
        #expect(try await pair.central.command(HCILEReadPHY(connectionHandle: 0x0EEE)).status == .unknownConnectionIdentifier)
    }

    @Test("Read RSSI gives the pair's level with ±3 dBm jitter; unknown handles get 0x02")
    func rssi() async throws {
        let pair = try await ConnectedPair.make()
        pair.radio.setRSSI(-80, between: pair.centralController, and: pair.peripheralController)
        for _ in 0..<20 {
            let reading = try await pair.central.command(HCIReadRSSI(handle: pair.centralHandle)).parameters(HCIReadRSSI.self)
            #expect(reading.handle == pair.centralHandle)
            #expect((-83 ... -77).contains(reading.rssi))
        }
        let unknown = try await pair.central.command(HCIReadRSSI(handle: 0x0EEE))
        #expect(unknown.status == .unknownConnectionIdentifier)
    }

    @Test("LE Read Remote Features: Command Status, then the peer's LE features")
    func remoteFeatures() async throws {
        var peripheralConfiguration = configuration(2, extended: false)
        peripheralConfiguration.supportsReadBufferSizeV2 = false
        let pair = try await ConnectedPair.make(peripheralConfiguration: peripheralConfiguration)
        #expect(try await pair.central.command(HCILEReadRemoteFeatures(connectionHandle: pair.centralHandle)) == .status(.success, credits: 1))
        await pair.radio.advance(by: .milliseconds(31))
        await pair.settle()
        guard case .readRemoteFeaturesComplete(let complete) = pair.central.leEvents.first else {
            Issue.record("no Read Remote Features Complete: \(pair.central.leEvents)")
            return
        }
        #expect(complete.connectionHandle == pair.centralHandle)
        #expect(complete.leFeatures == peripheralConfiguration.leFeatures)
        #expect(!complete.leFeatures.contains(.leExtendedAdvertising))
    }

    @Test("dropped PDUs: the link layer retransmits, so every octet arrives once and in order, only later")
    func drops() async throws {
        let pair = try await ConnectedPair.make(seed: 42, parameters: connectionParameters(interval: 6, timeout: 300))
        pair.peripheralController.setFaults(VirtualFaults(packetDropRate: 0.4))
        pair.centralController.setFaults(VirtualFaults(packetDropRate: 0.4))
        var sent: [UInt8] = []
        var received: [UInt8] = []
        for round in 0..<30 {
            let payload = (0..<23).map { UInt8(truncatingIfNeeded: round * 23 + $0) }
            for packet in l2capFragments(pair.centralHandle, payload: payload) {
                // Wait for a free buffer, as a host would, by Number Of Completed Packets.
                while pair.centralController.aclBuffersInUse >= 4 { await pair.radio.advance(by: .milliseconds(8)) }
                try await pair.central.send(packet)
            }
            sent += [23, 0, 4, 0] + payload
            await pair.radio.advance(by: .milliseconds(8))
        }
        await pair.radio.advance(by: .seconds(1))
        await pair.settle()
        received = pair.peripheral.acl.flatMap(\.data)
        #expect(received == sent)
        #expect(pair.centralController.violations.isEmpty)
        #expect(pair.central.events.compactMap(\.disconnection).isEmpty)
    }

    @Test("HCI latency fault delays every packet to the host, in order")
    func hciLatency() async throws {
        let radio = VirtualRadio(timing: .manual)
        let controller = radio.makeController(configuration: configuration(1))
        let host = TestHost(controller)
        controller.setFaults(VirtualFaults(hciLatency: .milliseconds(5)))
        try await host.send(.command(HCIReset().packet))
        try await host.send(.command(HCIReadBDADDR().packet))
        await host.settle()
        #expect(host.events.isEmpty)
        await radio.advance(by: .milliseconds(5))
        await host.settle()
        #expect(host.events.compactMap { event -> HCIOpcode? in
            if case .commandComplete(let c) = event { return c.commandOpcode } else { return nil } } == [.reset, .readBDADDR])
        // Lowering the latency does not let a later answer overtake one still held back.
        controller.setFaults(VirtualFaults(hciLatency: .milliseconds(5)))
        try await host.send(.command(HCIReadLocalVersionInformation().packet))
        controller.setFaults(VirtualFaults())
        try await host.send(.command(HCILEReadBufferSize().packet))
        await radio.advance(by: .milliseconds(5))
        await host.settle()
        #expect(host.events.compactMap { event -> HCIOpcode? in
            if case .commandComplete(let c) = event { return c.commandOpcode } else { return nil } }
            == [.reset, .readBDADDR, .readLocalVersionInformation, .leReadBufferSize])
    }

    @Test("a crash drops the controller's state: its host hears Hardware Error, the peer times out")
    func crash() async throws {
        let pair = try await ConnectedPair.make(parameters: connectionParameters(interval: 24, timeout: 30))
        pair.peripheralController.crash(hardwareErrorCode: 0x0F)
        await pair.radio.advance(by: .milliseconds(400))
        await pair.settle()
        #expect(pair.peripheral.events.compactMap { e -> UInt8? in
            if case .hardwareError(let h) = e { return h.hardwareCode } else { return nil } } == [0x0F])
        #expect(pair.central.events.compactMap(\.disconnection).map(\.reason) == [.connectionTimeout])
        #expect(pair.peripheral.events.compactMap(\.disconnection).isEmpty)
        #expect(pair.peripheralController.connectionHandles.isEmpty)
    }
}
