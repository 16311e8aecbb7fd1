import Glibc
import HCI
import Host
import Testing
@testable import LinuxBluetooth
import VirtualRadio

/// ``HCITransportBridge`` between an H4 stream and a virtual controller's port, both
/// ``HCIDirectTransport``s: packets cross on the thread that has them, and what either side had
/// queued before the bridge began still comes first, in order.
@Suite("HCITransportBridge: the direct path between an H4 stream and a virtual controller", .timeLimit(.minutes(1)))
struct DirectBridgeTests {
    @Test("packets queued on both sides before the bridge began come first, then the rest, in order; the counts add up")
    func backlogThenDirectInOrder() async throws {
        var fds: [Int32] = [0, 0]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        try #require(socketpair(AF_UNIX, type, 0, &fds) == 0)
        let host = try H4StreamTransport(adopting: fds[0], name: "test host")
        let bridgeSide = try H4StreamTransport(adopting: fds[1], name: "bridge side")
        let radio = VirtualRadio(timing: .manual)
        let controller = radio.makeController()
        let port = controller.attach()

        // Before the bridge: an event waits in the port's stream, ten commands in the H4 side's.
        controller.injectHardwareError(code: 0x07)
        let opcodes: [HCIOpcode] = (0..<20).map { $0 % 2 == 0 ? .readLocalVersionInformation : .readBDADDR }
        for opcode in opcodes.prefix(10) { try await host.send(.command(HCICommandPacket(opcode: opcode, parameters: []))) }
        while bridgeSide.yieldedCount < 10 { await Task.yield() }

        let bridge = Task { await HCITransportBridge.run(host: bridgeSide, controller: port) }
        for opcode in opcodes.suffix(10) { try await host.send(.command(HCICommandPacket(opcode: opcode, parameters: []))) }

        var answered: [HCIOpcode] = []
        var sawHardwareErrorFirst = false
        for await packet in host.packets {
            guard case .event(let event) = packet else { continue }
            switch try HCIEvent(packet: event) {
            case .hardwareError(let error): sawHardwareErrorFirst = answered.isEmpty && error.hardwareCode == 0x07
            case .commandComplete(let complete): answered.append(complete.commandOpcode)
            default: continue
            }
            if answered.count == opcodes.count { break }
        }
        #expect(sawHardwareErrorFirst, "the port's backlog goes first")
        #expect(answered == opcodes, "every command answered, in the order sent")
        await host.close()
        let counts = await bridge.value
        #expect(counts.hostToController == 20)
        #expect(counts.controllerToHost == 21)
        radio.shutDown()
    }
}
