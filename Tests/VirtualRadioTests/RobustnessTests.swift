import BLECore
import HCI
import Host
import Testing
import VirtualRadio

@Suite("VirtualController robustness: seeded random commands and ACL from hosts", .timeLimit(.minutes(1)))
struct RobustnessTests {
    @Test("3000 seeded random commands (known opcodes, random parameters) each get exactly one Command Complete or Status")
    func randomCommands() async throws {
        let pair = try await ConnectedPair.make()
        var rng = SplitMix64(seed: 99)
        let opcodes: [HCIOpcode] = (0...0xFFFF).compactMap { raw in
            let opcode = HCIOpcode(rawValue: UInt16(raw))
            // HCI_Host_Number_Of_Completed_Packets is answered only when malformed (7.3.40);
            // HostFlowControlTests checks it.
            return HCICommandValue.commandType(for: opcode) != nil && opcode != .hostNumberOfCompletedPackets ? opcode : nil
        } + [HCIOpcode(rawValue: 0xFC01), .leRand, .leEnableEncryption]
        var answered: [Answer] = []
        for round in 0..<3000 {
            let opcode = opcodes[Int(rng.next() % UInt64(opcodes.count))]
            let length = Int(rng.next() % 40)
            let parameters = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let host = round % 2 == 0 ? pair.central : pair.peripheral
            let before = host.packets.count
            let answer = try await host.raw(HCICommandPacket(opcode: opcode, parameters: parameters))
            answered.append(answer)
            await host.settle()
            let answers = host.packets.dropFirst(before).filter { packet in
                guard case .event(let event) = packet, let decoded = try? HCIEvent(packet: event) else { return false }
                switch decoded {
                case .commandComplete(let c): return c.commandOpcode == opcode
                case .commandStatus(let s): return s.commandOpcode == opcode
                default: return false
                }
            }
            #expect(answers.count == 1, "\(opcode) \(Hex.encode(parameters))")
            if round % 50 == 0 { await pair.radio.advance(by: .milliseconds(20)) }
            if round % 500 == 0 { host.clear() }
        }
        #expect(answered.contains { $0.status == .invalidHCICommandParameters })
        #expect(answered.contains { $0.status == .success })
    }

    @Test("random ACL from a host never crashes the controller: each packet is carried or recorded as a violation")
    func randomACL() async throws {
        let pair = try await ConnectedPair.make()
        var rng = SplitMix64(seed: 5)
        var accepted = 0
        for _ in 0..<400 {
            let handle: UInt16 = rng.next() % 4 == 0 ? UInt16(truncatingIfNeeded: rng.next()) & 0x0FFF : pair.centralHandle
            let flag = HCIACLDataPacket.PacketBoundary(rawValue: UInt8(truncatingIfNeeded: rng.next()))
            let data = (0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let violationsBefore = pair.centralController.violations.count
            try await pair.central.send(.acl(HCIACLDataPacket(handle: handle, packetBoundary: flag, data: data)))
            if pair.centralController.violations.count == violationsBefore { accepted += 1 }
            await pair.radio.advance(by: .milliseconds(Int(rng.next() % 40)))
        }
        await pair.radio.advance(by: .milliseconds(500))
        await pair.settle()
        #expect(accepted > 50)
        #expect(pair.central.events.flatMap(\.completedPackets).map { Int($0.numCompletedPackets) }.reduce(0, +) == accepted)
        #expect(pair.centralController.aclBuffersInUse == 0)
    }
}
