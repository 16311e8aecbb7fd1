import BLECore
import HCI
import Host
import Testing
@testable import VirtualRadio

@Suite("VirtualController: flow control from the controller to the host (Core v5.4, Vol 4, Part E, 4.2, 7.3.38-7.3.40)", .timeLimit(.minutes(1)))
struct HostFlowControlTests {
    /// Two host buffers on the central's side, declared and turned on before connecting.
    static func twoBuffers(_ central: TestHost) async throws {
        #expect(try await central.command(HCIHostBufferSize(hostACLDataPacketLength: 251, hostTotalNumACLDataPackets: 2)).status == .success)
        #expect(try await central.command(HCISetControllerToHostFlowControl(flowControlEnable: HCISetControllerToHostFlowControl.aclOnly)).status == .success)
    }

    static func returnBuffers(_ count: UInt16, of pair: ConnectedPair) async throws {
        let command = HCIHostNumberOfCompletedPackets(entries: [.init(connectionHandle: pair.centralHandle, hostNumCompletedPackets: count)])
        try await pair.central.port.send(.command(command.packet))
    }

    @Test("the host gets no more ACL packets than its buffers until it returns them; the rest wait in order, none lost")
    func deliveryWaitsForHostBuffers() async throws {
        var peripheralConfiguration = configuration(2)
        peripheralConfiguration.totalNumACLDataPackets = 8
        let pair = try await ConnectedPair.make(peripheralConfiguration: peripheralConfiguration, beforeConnecting: Self.twoBuffers)
        for n in 0..<6 { try await pair.peripheral.send(acl(pair.peripheralHandle, [1, 0, 4, 0, UInt8(n)])) }
        await pair.radio.advance(by: .milliseconds(200))
        await pair.settle()
        #expect(pair.central.acl.map { $0.data.last } == [0, 1], "two buffers: two packets")
        #expect(pair.peripheralController.aclBuffersInUse == 4, "the rest wait in the peer's controller")

        try await Self.returnBuffers(1, of: pair)
        await pair.radio.advance(by: .milliseconds(200))
        await pair.settle()
        #expect(pair.central.acl.map { $0.data.last } == [0, 1, 2])

        try await Self.returnBuffers(2, of: pair)
        await pair.radio.advance(by: .milliseconds(200))
        try await Self.returnBuffers(2, of: pair)
        await pair.radio.advance(by: .milliseconds(200))
        await pair.settle()
        #expect(pair.central.acl.map { $0.data.last } == [0, 1, 2, 3, 4, 5])
        #expect(pair.peripheral.events.compactMap(\.disconnection).isEmpty, "a link waiting for the host's buffers is heard, not timed out")
        #expect(pair.centralController.violations.isEmpty)
    }

    @Test("Host Number Of Completed Packets takes no command credit and gets no answer; malformed, Invalid HCI Command Parameters")
    func completedPacketsCommandIsUnanswered() async throws {
        let pair = try await ConnectedPair.make(beforeConnecting: Self.twoBuffers)
        try await pair.peripheral.send(acl(pair.peripheralHandle, [1, 0, 4, 0, 9]))
        await pair.radio.advance(by: .milliseconds(100))
        await pair.settle()
        pair.central.clear()
        try await Self.returnBuffers(1, of: pair)
        await pair.settle()
        #expect(pair.central.packets.isEmpty, "no event answers it")
        // Num_Handles 2 with one entry: malformed.
        let malformed = HCICommandPacket(opcode: .hostNumberOfCompletedPackets, parameters: [2, 0x40, 0x00, 1, 0])
        #expect(try await pair.central.raw(malformed).status == .invalidHCICommandParameters)
    }

    @Test("returning more buffers than a handle holds is recorded as a violation")
    func returningTooManyIsAViolation() async throws {
        let pair = try await ConnectedPair.make(beforeConnecting: Self.twoBuffers)
        try await pair.peripheral.send(acl(pair.peripheralHandle, [1, 0, 4, 0, 9]))
        await pair.radio.advance(by: .milliseconds(100))
        try await Self.returnBuffers(3, of: pair)
        await pair.settle()
        #expect(pair.centralController.violations.map(\.kind) == [.hostReturnedTooMany(handle: pair.centralHandle, returned: 3, held: 1)])
    }

    @Test("a disconnection frees the host's buffers of its link")
    func disconnectionFreesHostBuffers() async throws {
        let pair = try await ConnectedPair.make(beforeConnecting: Self.twoBuffers)
        for n in 0..<2 { try await pair.peripheral.send(acl(pair.peripheralHandle, [1, 0, 4, 0, UInt8(n)])) }
        await pair.radio.advance(by: .milliseconds(100))
        await pair.settle()
        #expect(pair.central.acl.count == 2)
        try await pair.central.command(HCIDisconnect(connectionHandle: pair.centralHandle, reason: .remoteUserTerminatedConnection))
        await pair.radio.advance(by: .milliseconds(100))
        await pair.settle()
        #expect(pair.centralController.core.withWorld { world in world.controllers[0].hostBuffersInUse.isEmpty })
    }

    @Test("flow control and host buffers change only without connections; a host shorter than 251 octets is refused")
    func settingsAreChecked() async throws {
        let pair = try await ConnectedPair.make(beforeConnecting: Self.twoBuffers)
        #expect(try await pair.central.command(HCISetControllerToHostFlowControl(flowControlEnable: 0)).status == .commandDisallowed)
        #expect(try await pair.central.command(HCIHostBufferSize(hostACLDataPacketLength: 251, hostTotalNumACLDataPackets: 8)).status == .commandDisallowed)
        let radio = VirtualRadio(timing: .manual)
        let host = TestHost(radio.makeController(configuration: configuration(1)))
        try await host.bringUp()
        #expect(try await host.command(HCIHostBufferSize(hostACLDataPacketLength: 27, hostTotalNumACLDataPackets: 8)).status == .invalidHCICommandParameters)
        #expect(try await host.command(HCISetControllerToHostFlowControl(flowControlEnable: 1)).status == .commandDisallowed,
                "no buffers declared")
        #expect(try await host.command(HCISetControllerToHostFlowControl(flowControlEnable: 4)).status == .invalidHCICommandParameters)
    }
}
