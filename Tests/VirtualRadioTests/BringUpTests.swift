import BLECore
import HCI
import Host
import Testing
import VirtualRadio

@Suite("VirtualController bring-up, masks, reset and unknown commands (Core v5.4, Vol 4, Part E, 7.3, 7.4, 7.8)",
       .timeLimit(.minutes(1)))
struct BringUpTests {
    @Test("bring-up answers through HCICommandFlow: version, features, BD_ADDR, buffers, one command credit")
    func bringUpAnswers() async throws {
        let radio = VirtualRadio(timing: .manual)
        let controller = radio.makeController(configuration: configuration(1))
        let flow = HCICommandFlow(transport: controller.attach(), clock: radio.clock)
        try await flow.send(HCIReset())
        let version = try await flow.send(HCIReadLocalVersionInformation())
        #expect(version.hciVersion == 0x0D)
        #expect(version.companyIdentifier == 0xFFFF)
        let features = try await flow.send(HCIReadLocalSupportedFeatures())
        #expect(features.lmpFeatures.contains(.leSupportedController))
        let leFeatures = try await flow.send(HCILEReadLocalSupportedFeatures())
        #expect(leFeatures.leFeatures.contains(.leExtendedAdvertising))
        #expect(leFeatures.leFeatures.contains(.leDataPacketLengthExtension))
        #expect(!leFeatures.leFeatures.contains(.leEncryption), "encryption is not implemented, so not claimed")
        let bdAddr = try await flow.send(HCIReadBDADDR())
        #expect(bdAddr.bdAddr == address("C0:00:00:00:00:01"))
        let buffers = try await flow.send(HCILEReadBufferSizeV2())
        #expect(buffers.leACLDataPacketLength == 27)
        #expect(buffers.totalNumLEACLDataPackets == 4)
        let v1 = try await flow.send(HCILEReadBufferSize())
        #expect(v1.leACLDataPacketLength == 27)
        let maximum = try await flow.send(HCILEReadMaximumAdvertisingDataLength())
        #expect(maximum.maxAdvertisingDataLength == 1650)
        let capabilities = try await LEControllerCapabilities.read(from: flow)
        #expect(capabilities.commandFamily == .extended)
        #expect(await flow.commandCredits == 1)
        await flow.close()
    }

    @Test("Supported_Commands lists exactly the commands answered with something other than Unknown HCI Command")
    func supportedCommandsAreExact() async throws {
        for extended in [true, false] {
            let radio = VirtualRadio(timing: .manual)
            var config = configuration(1, extended: extended)
            config.supportsReadBufferSizeV2 = extended
            let host = TestHost(radio.makeController(configuration: config))
            let supported = try await host.command(HCIReadLocalSupportedCommands()).parameters(HCIReadLocalSupportedCommands.self)
            let known: [HCIOpcode] = (0...0xFFFF).compactMap { raw in
                let opcode = HCIOpcode(rawValue: UInt16(raw))
                return HCISupportedCommands.position(of: opcode) != nil && HCICommandValue.commandType(for: opcode) != nil ? opcode : nil
            }
            // HCI_Host_Number_Of_Completed_Packets is answered only when malformed (7.3.40);
            // HostFlowControlTests checks it.
            for opcode in known where opcode != .hostNumberOfCompletedPackets {
                // Fresh controller state for each probe, so no command depends on an earlier one.
                try await host.command(HCIReset())
                let type = try #require(HCICommandValue.commandType(for: opcode))
                let answer = try await host.raw(HCICommandPacket(opcode: opcode, parameters: zeroParameters(type)))
                let claimed = supported.supportedCommands.supports(opcode) == true
                #expect(claimed == (answer.status != .unknownHCICommand), "\(opcode) extended=\(extended): \(answer)")
            }
            #expect(supported.supportedCommands.supports(.leSetExtendedAdvertisingParameters) == extended)
            #expect(supported.supportedCommands.supports(.leReadBufferSizeV2) == extended)
            #expect(supported.supportedCommands.supports(.leLongTermKeyRequestReply) == false)
            #expect(supported.supportedCommands.supports(.hostNumberOfCompletedPackets) == true)
            let features = try await host.command(HCILEReadLocalSupportedFeatures()).parameters(HCILEReadLocalSupportedFeatures.self)
            #expect(features.leFeatures.contains(.leExtendedAdvertising) == extended)
        }
    }

    private func zeroParameters(_ type: any HCICommand.Type) -> [UInt8] {
        func encode<C: HCICommand>(_: C.Type) -> [UInt8] { C().encoded }
        return encode(type)
    }

    @Test("without a public address: BD_ADDR 00:00:00:00:00:00, own address public refused, a static random address works")
    func noPublicAddress() async throws {
        let radio = VirtualRadio(timing: .manual)
        let host = TestHost(radio.makeController(configuration: VirtualControllerConfiguration(publicAddress: nil)))
        try await host.bringUp()
        let bdAddr = try await host.command(HCIReadBDADDR()).parameters(HCIReadBDADDR.self)
        #expect(bdAddr.bdAddr == .zero)
        try await host.command(advertisingParameters())
        #expect(try await host.command(HCILESetAdvertisingEnable(enable: true)).status == .invalidHCICommandParameters)
        try await host.command(advertisingParameters(own: .random))
        #expect(try await host.command(HCILESetAdvertisingEnable(enable: true)).status == .invalidHCICommandParameters,
                "random without LE Set Random Address")
        #expect(try await host.command(HCILESetRandomAddress(randomAddress: address("C1:23:45:67:89:AB"))).status == .success)
        #expect(try await host.command(HCILESetAdvertisingEnable(enable: true)).status == .success)
        #expect(try await host.command(HCILESetRandomAddress(randomAddress: address("C1:23:45:67:89:AC"))).status == .commandDisallowed,
                "not while advertising (7.8.4)")
    }

    @Test("shared buffers: LE Read Buffer Size returns 0, HCI Read Buffer Size the length and count")
    func sharedBuffers() async throws {
        let radio = VirtualRadio(timing: .manual)
        var config = configuration(1)
        config.sharesBuffersWithBREDR = true
        config.aclDataPacketLength = 64
        config.totalNumACLDataPackets = 8
        let host = TestHost(radio.makeController(configuration: config))
        let le = try await host.command(HCILEReadBufferSize()).parameters(HCILEReadBufferSize.self)
        #expect(le.leACLDataPacketLength == 0)
        #expect(le.totalNumLEACLDataPackets == 0)
        let shared = try await host.command(HCIReadBufferSize()).parameters(HCIReadBufferSize.self)
        #expect(shared.aclDataPacketLength == 64)
        #expect(shared.totalNumACLDataPackets == 8)
    }

    @Test("masked events are not sent; HCI Reset restores the default masks (7.3.1, 7.8.1)")
    func masks() async throws {
        let radio = VirtualRadio(timing: .manual)
        let controller = radio.makeController(configuration: configuration(1))
        let host = TestHost(controller)
        try await host.command(HCIReset())
        controller.injectHardwareError(code: 0x42)              // Hardware Error is in the default mask
        try await host.command(HCISetEventMask(eventMask: []))
        controller.injectHardwareError(code: 0x43)              // now masked
        try await host.command(HCIReset())
        controller.injectHardwareError(code: 0x44)              // default again
        await host.settle()
        let codes = host.events.compactMap { event -> UInt8? in
            if case .hardwareError(let error) = event { return error.hardwareCode } else { return nil }
        }
        #expect(codes == [0x42, 0x44])
    }

    @Test("unknown, vendor, unimplemented and malformed commands are all answered, with the right event")
    func unknownCommands() async throws {
        let radio = VirtualRadio(timing: .manual)
        let host = TestHost(radio.makeController(configuration: configuration(1, extended: false)))
        // Vendor opcode: Command Complete, Unknown HCI Command.
        let vendor = try await host.raw(HCICommandPacket(opcode: HCIOpcode(rawValue: 0xFC50), parameters: [1, 2, 3]))
        #expect(vendor == .complete([0x01], credits: 1))
        // LE Enable Encryption, an asynchronous command this controller lacks: Command Status 0x01.
        let encryption = try await host.raw(HCICommandPacket(opcode: .leEnableEncryption, parameters: Array(repeating: 0, count: 28)))
        #expect(encryption == .status(.unknownHCICommand, credits: 1))
        // LE Long Term Key Request Reply is decoded by the HCI target but not implemented.
        let ltk = try await host.command(HCILELongTermKeyRequestReply(connectionHandle: 1, longTermKey: Array(repeating: 0, count: 16)))
        #expect(ltk.status == .unknownHCICommand)
        // Extended commands on a legacy-only controller: unknown.
        let extended = try await host.command(HCILESetExtendedScanEnable(enable: 1, filterDuplicates: 0))
        #expect(extended == .complete([0x01], credits: 1))
        // Malformed: LE Set Scan Enable with one parameter octet; Disconnect with two.
        let scan = try await host.raw(HCICommandPacket(opcode: .leSetScanEnable, parameters: [0x01]))
        #expect(scan == .complete([0x12], credits: 1))
        let disconnect = try await host.raw(HCICommandPacket(opcode: .disconnect, parameters: [0x40, 0x00]))
        #expect(disconnect == .status(.invalidHCICommandParameters, credits: 1))
        // Out-of-range values: LE Set Scan Enable with enable 2.
        #expect(try await host.command(HCILESetScanEnable(leScanEnable: 2, filterDuplicates: 0)).status == .invalidHCICommandParameters)
    }

    @Test("legacy and extended commands are never mixed between resets: Command Disallowed")
    func noMixing() async throws {
        let radio = VirtualRadio(timing: .manual)
        let host = TestHost(radio.makeController(configuration: configuration(1)))
        try await host.bringUp()
        try await host.command(HCILESetScanParameters(leScanType: .passive, leScanInterval: .init(rawValue: 16),
                                                      leScanWindow: .init(rawValue: 16), ownAddressType: .public))
        let extended = try await host.command(HCILESetExtendedScanEnable(enable: 1, filterDuplicates: 0))
        #expect(extended.status == .commandDisallowed)
        let create = try await host.command(HCILEExtendedCreateConnection(
            peerAddressType: .public, peerAddress: address("C0:00:00:00:00:02"), initiatingPHYs: .le1M,
            phyParameters: [.init(scanInterval: .init(rawValue: 16), scanWindow: .init(rawValue: 16),
                                  connectionParameters: connectionParameters())]))
        #expect(create == .status(.commandDisallowed, credits: 1))
        try await host.command(HCIReset())
        #expect(try await host.command(HCILESetExtendedScanEnable(enable: 0, filterDuplicates: 0)).status == .success)
        #expect(try await host.command(HCILESetScanEnable(enable: false)).status == .commandDisallowed)
    }
}
