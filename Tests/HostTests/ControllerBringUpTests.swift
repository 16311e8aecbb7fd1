import ATT
import BLECore
import HCI
import Host
import Testing

/// Host mode's controller bring-up (Core v5.4, Vol 4, Part E, 7.3-7.8), against scripted
/// controllers: the order of the commands, the fallbacks, and the errors that name the command.
@Suite("Controller bring-up")
struct ControllerBringUpTests {
    static let version = HCIReadLocalVersionInformation.ReturnParameters(hciVersion: 13, hciSubversion: 1, lmpVersion: 13,
                                                                         companyIdentifier: 0x05F1, lmpSubversion: 2)
    static let leController = LMPFeatures.leSupportedController.union(.brEdrNotSupported)
    static let publicAddress = BluetoothAddress("00:1B:DC:07:32:F4")!

    static func expect<C: HCICommand>(_ command: C) -> ScriptedHCITransport.Step { .expect(.command(command.packet)) }
    static func answer<C: HCICommand>(_ command: C.Type, _ parameters: C.ReturnParameters) -> ScriptedHCITransport.Step {
        .inject(.event(HCIEvent.CommandComplete(command: command, returnParameters: parameters).packet))
    }
    static func answer<C: HCICommand>(_ command: C.Type, status: HCIStatus) -> ScriptedHCITransport.Step {
        .inject(.event(HCIEvent.CommandComplete(numHCICommandPackets: 1, commandOpcode: C.opcode, returnParameters: [status.rawValue]).packet))
    }

    /// The steps up to and including HCI_Read_Local_Supported_Features.
    static func identity(commands: HCISupportedCommands, lmp: LMPFeatures = leController) -> [ScriptedHCITransport.Step] {
        [expect(HCIReset()), answer(HCIReset.self, HCIStatusReturnParameters(status: .success)),
         expect(HCIReadLocalVersionInformation()), answer(HCIReadLocalVersionInformation.self, version),
         expect(HCIReadLocalSupportedCommands()),
         answer(HCIReadLocalSupportedCommands.self, .init(supportedCommands: commands)),
         expect(HCIReadLocalSupportedFeatures()), answer(HCIReadLocalSupportedFeatures.self, .init(lmpFeatures: lmp))]
    }

    @Test("a legacy controller with a public address: every command in order, masks for the legacy reports")
    func legacyPublic() async throws {
        let transport = ScriptedHCITransport(script: Self.identity(commands: supportedCommands([])) + [
            Self.expect(HCILEReadLocalSupportedFeatures()), Self.answer(HCILEReadLocalSupportedFeatures.self, .init(leFeatures: [.leEncryption])),
            Self.expect(HCIReadBDADDR()), Self.answer(HCIReadBDADDR.self, .init(bdAddr: Self.publicAddress)),
            Self.expect(HCILEReadBufferSize()),
            Self.answer(HCILEReadBufferSize.self, .init(leACLDataPacketLength: 27, totalNumLEACLDataPackets: 8)),
            Self.expect(HCISetEventMask(eventMask: [.disconnectionComplete, .hardwareError, .dataBufferOverflow, .leMeta])),
            Self.answer(HCISetEventMask.self, HCIStatusReturnParameters(status: .success)),
            Self.expect(HCILESetEventMask(leEventMask: [.connectionComplete, .enhancedConnectionComplete, .connectionUpdateComplete,
                                                         .dataLengthChange, .phyUpdateComplete, .advertisingReport])),
            Self.answer(HCILESetEventMask.self, HCIStatusReturnParameters(status: .success)),
        ])
        let controller = try await ControllerBringUp.run(on: patientFlow(transport))
        expectScriptPlayed(transport)
        #expect(controller.address == Self.publicAddress)
        #expect(controller.publicAddress == Self.publicAddress)
        #expect(controller.ownAddressType == .public)
        #expect(controller.aclBuffers == ACLBufferSize(length: 27, count: 8, source: .leV1))
        #expect(controller.capabilities.commandFamily == .legacy)
        #expect(controller.version.companyIdentifier == 0x05F1)
        #expect(controller.description == "00:1B:DC:07:32:F4 (public), HCI version 13, manufacturer 0x5F1, legacy advertising and scanning, ACL 8 × 27 octets (LE Read Buffer Size [v1])")
    }

    @Test("an extended controller without a public address gets a static random address; v2 buffers when listed")
    func extendedRandom() async throws {
        let commands = supportedCommands(LECommandFamily.extendedCommands + [.leReadBufferSizeV2])
        let features: LEFeatures = [.leEncryption, .leExtendedAdvertising]
        let chosen = BluetoothAddress("C3:11:22:33:44:55")!
        let transport = ScriptedHCITransport(script: Self.identity(commands: commands) + [
            Self.expect(HCILEReadLocalSupportedFeatures()), Self.answer(HCILEReadLocalSupportedFeatures.self, .init(leFeatures: features)),
            Self.expect(HCILEReadMaximumAdvertisingDataLength()),
            Self.answer(HCILEReadMaximumAdvertisingDataLength.self, .init(maxAdvertisingDataLength: 251)),
            Self.expect(HCIReadBDADDR()), Self.answer(HCIReadBDADDR.self, .init(bdAddr: .zero)),
            Self.expect(HCILEReadBufferSizeV2()),
            Self.answer(HCILEReadBufferSizeV2.self, .init(leACLDataPacketLength: 251, totalNumLEACLDataPackets: 4,
                                                          isoDataPacketLength: 0, totalNumISODataPackets: 0)),
            Self.expect(HCISetEventMask(eventMask: ControllerBringUp.eventMask)),
            Self.answer(HCISetEventMask.self, HCIStatusReturnParameters(status: .success)),
            Self.expect(HCILESetEventMask(leEventMask: [.connectionComplete, .enhancedConnectionComplete, .connectionUpdateComplete,
                                                         .dataLengthChange, .phyUpdateComplete, .extendedAdvertisingReport,
                                                         LEEventMask(enabling: .advertisingSetTerminated)])),
            Self.answer(HCILESetEventMask.self, HCIStatusReturnParameters(status: .success)),
            Self.expect(HCILESetRandomAddress(randomAddress: chosen)),
            Self.answer(HCILESetRandomAddress.self, HCIStatusReturnParameters(status: .success)),
        ])
        let controller = try await ControllerBringUp.run(on: patientFlow(transport), staticRandomAddress: chosen)
        expectScriptPlayed(transport)
        #expect(controller.publicAddress == nil)
        #expect(controller.address == chosen)
        #expect(controller.ownAddressType == .random)
        #expect(controller.aclBuffers == ACLBufferSize(length: 251, count: 4, source: .leV2))
        #expect(controller.capabilities.commandFamily == .extended)
        #expect(controller.capabilities.maximumAdvertisingDataLength == 251)
    }

    @Test("a stored address that is not static random is replaced by a new static random one")
    func invalidStoredAddressReplaced() async throws {
        let transport = ScriptedHCITransport(script: Self.identity(commands: supportedCommands([])) + [
            Self.expect(HCILEReadLocalSupportedFeatures()), Self.answer(HCILEReadLocalSupportedFeatures.self, .init(leFeatures: [])),
            Self.expect(HCIReadBDADDR()), Self.answer(HCIReadBDADDR.self, .init(bdAddr: .zero)),
            Self.expect(HCILEReadBufferSize()),
            Self.answer(HCILEReadBufferSize.self, .init(leACLDataPacketLength: 27, totalNumLEACLDataPackets: 2)),
            Self.expect(HCISetEventMask(eventMask: ControllerBringUp.eventMask)),
            Self.answer(HCISetEventMask.self, HCIStatusReturnParameters(status: .success)),
            Self.expect(HCILESetEventMask(leEventMask: ControllerBringUp.leEventMask(for: .legacy))),
            Self.answer(HCILESetEventMask.self, HCIStatusReturnParameters(status: .success)),
        ])
        let flow = patientFlow(transport)
        let bringUp = Task { try await ControllerBringUp.run(on: flow, staticRandomAddress: BluetoothAddress("00:11:22:33:44:55")!) }
        await transport.waitForSent(10)   // the script's nine, then LE Set Random Address
        guard case .command(let command) = transport.sent.last, let set = try? HCILESetRandomAddress(packet: command) else {
            Issue.record("no LE Set Random Address: \(transport.sent.last.map(String.init(describing:)) ?? "nothing")")
            return
        }
        #expect(set.randomAddress.isValidStaticRandom)
        transport.inject(.event(HCIEvent.CommandComplete(command: HCILESetRandomAddress.self,
                                                         returnParameters: HCIStatusReturnParameters(status: .success)).packet))
        #expect(try await bringUp.value.address == set.randomAddress)
    }

    @Test("shared buffers: a zero LE length falls back to HCI_Read_Buffer_Size")
    func sharedBuffers() async throws {
        let transport = ScriptedHCITransport(script: Self.identity(commands: supportedCommands([])) + [
            Self.expect(HCILEReadLocalSupportedFeatures()), Self.answer(HCILEReadLocalSupportedFeatures.self, .init(leFeatures: [])),
            Self.expect(HCIReadBDADDR()), Self.answer(HCIReadBDADDR.self, .init(bdAddr: Self.publicAddress)),
            Self.expect(HCILEReadBufferSize()),
            Self.answer(HCILEReadBufferSize.self, .init(leACLDataPacketLength: 0, totalNumLEACLDataPackets: 0)),
            Self.expect(HCIReadBufferSize()),
            Self.answer(HCIReadBufferSize.self, .init(aclDataPacketLength: 1021, totalNumACLDataPackets: 6)),
            Self.expect(HCISetEventMask(eventMask: ControllerBringUp.eventMask)),
            Self.answer(HCISetEventMask.self, HCIStatusReturnParameters(status: .success)),
            Self.expect(HCILESetEventMask(leEventMask: ControllerBringUp.leEventMask(for: .legacy))),
            Self.answer(HCILESetEventMask.self, HCIStatusReturnParameters(status: .success)),
        ])
        let controller = try await ControllerBringUp.run(on: patientFlow(transport))
        expectScriptPlayed(transport)
        #expect(controller.aclBuffers == ACLBufferSize(length: 1021, count: 6, source: .shared))
    }

    @Test("no usable ACL buffers is an error that says so")
    func noBuffers() async throws {
        let transport = ScriptedHCITransport(script: Self.identity(commands: supportedCommands([])) + [
            Self.expect(HCILEReadLocalSupportedFeatures()), Self.answer(HCILEReadLocalSupportedFeatures.self, .init(leFeatures: [])),
            Self.expect(HCIReadBDADDR()), Self.answer(HCIReadBDADDR.self, .init(bdAddr: Self.publicAddress)),
            Self.expect(HCILEReadBufferSize()),
            Self.answer(HCILEReadBufferSize.self, .init(leACLDataPacketLength: 0, totalNumLEACLDataPackets: 0)),
            Self.expect(HCIReadBufferSize()),
            Self.answer(HCIReadBufferSize.self, .init(aclDataPacketLength: 0, totalNumACLDataPackets: 0)),
        ])
        let error = await #expect(throws: ControllerBringUpError.self) { try await ControllerBringUp.run(on: patientFlow(transport)) }
        #expect(error == .noACLBuffers(length: 0, count: 0))
        #expect(error?.description == "controller bring-up: the controller gives no usable ACL buffers (0 × 0 octets; LE needs at least 1 × 27)")
    }

    @Test("a BR/EDR-only controller is refused before any LE command")
    func noLE() async throws {
        let transport = ScriptedHCITransport(script: Self.identity(commands: supportedCommands([]), lmp: [.encryption]))
        let error = await #expect(throws: ControllerBringUpError.self) { try await ControllerBringUp.run(on: patientFlow(transport)) }
        #expect(error == .leNotSupported)
        expectScriptPlayed(transport)
    }

    @Test("a command answered with an error ends the bring-up, naming the command and the status")
    func errorNamesCommand() async throws {
        let transport = ScriptedHCITransport(script: [
            Self.expect(HCIReset()), Self.answer(HCIReset.self, status: .hardwareFailure),
        ])
        let error = await #expect(throws: ControllerBringUpError.self) { try await ControllerBringUp.run(on: patientFlow(transport)) }
        #expect(error == .command(.status(.hardwareFailure, opcode: .reset)))
        #expect(error?.description == "controller bring-up: Reset failed: Hardware Failure (0x03)")
    }

    @Test("a command nobody answers ends the bring-up with a timeout naming the command")
    func timeoutNamesCommand() async throws {
        let transport = ScriptedHCITransport(script: Self.identity(commands: supportedCommands([])) + [
            Self.expect(HCILEReadLocalSupportedFeatures()),
        ])
        let clock = TestClock()
        let flow = HCICommandFlow(transport: transport, clock: clock, commandTimeout: .seconds(2))
        let bringUp = Task { try await ControllerBringUp.run(on: flow) }
        await transport.waitForSent(5)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        let error = await #expect(throws: ControllerBringUpError.self) { try await bringUp.value }
        #expect(error == .command(.timeout(opcode: .leReadLocalSupportedFeatures, after: .seconds(2))))
        #expect(error?.description == "controller bring-up: LE Read Local Supported Features: no Command Complete or Command Status within 2.0 seconds")
    }
}
