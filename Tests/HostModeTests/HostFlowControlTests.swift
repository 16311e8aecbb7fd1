import BLECore
import HCI
@testable import Host
import L2CAP
import Testing
import VirtualRadio

/// Flow control from the controller to the host (Core v5.4, Vol 4, Part E, 4.2) as host mode
/// sets it up: a host whose ACL reader stalls loses nothing, because the controller holds data
/// back once the host's declared buffers are in use; without the control, the router's bounded
/// queue drops and counts.
@Suite("Host mode: flow control from the controller to the host", .timeLimit(.minutes(1)))
struct HostFlowControlTests {
    /// A central with a bare flow (no connection manager, so nothing reads its ACL route until
    /// the test does), linked to a peripheral stack that sends `count` L2CAP frames to it.
    struct StalledReader {
        let radio: VirtualRadio
        let flow: HCICommandFlow
        let information: ControllerInformation
        let handle: UInt16
        let sender: Task<Void, any Error>

        static func make(count: Int, flowControl: Bool) async throws -> StalledReader {
            let radio = VirtualRadio(seed: 3, timing: .paced(speed: 2000))
            var configuration = VirtualControllerConfiguration(supportsExtendedAdvertising: false)
            configuration.supportsControllerToHostFlowControl = flowControl
            let flow = HCICommandFlow(transport: radio.makeController(configuration: configuration).attach(),
                                      commandTimeout: .seconds(30))
            let information = try await ControllerBringUp.run(on: flow)
            let peripheral = try await Node.make(radio)
            _ = try await peripheral.advertise()
            async let incoming = peripheral.nextIncoming()
            let completions = await flow.events([.leMeta(.connectionComplete), .leMeta(.enhancedConnectionComplete)], label: "test")
            try await flow.send(HCILECreateConnection(
                leScanInterval: .init(rawValue: 0x0010), leScanWindow: .init(rawValue: 0x0010), initiatorFilterPolicy: .peerAddress,
                peerAddressType: peripheral.addressType, peerAddress: peripheral.information.address,
                ownAddressType: information.ownAddressType,
                connectionParameters: LEConnectionParametersRequest(intervalMin: 6, intervalMax: 6, timeout: 100).hciParameters))
            var handle: UInt16?
            waiting: for await case .packet(let event) in completions {
                switch try HCIEvent(packet: event) {
                case .leMeta(.connectionComplete(let complete)): handle = complete.connectionHandle
                case .leMeta(.enhancedConnectionComplete(let complete)): handle = complete.connectionHandle
                default: continue
                }
                break waiting
            }
            let link = try await incoming
            let sender = Task {
                for n in 0..<count {
                    try await peripheral.manager.send(channel: .att, payload: [0x1B, 0x03, 0x00, UInt8(truncatingIfNeeded: n), UInt8(n >> 8)],
                                                      on: link.handle)
                }
            }
            return StalledReader(radio: radio, flow: flow, information: information, handle: try #require(handle), sender: sender)
        }
    }

    @Test("a reader that stalls while 600 packets come loses none: the controller holds back what the host's 256 buffers cannot hold")
    func stalledReaderLosesNothing() async throws {
        let rig = try await StalledReader.make(count: 600, flowControl: true)
        #expect(rig.information.hostACLBuffers == 256)
        #expect(await rig.flow.returnsACLBuffers)
        try await Task.sleep(for: .milliseconds(300))       // the host's buffers fill; the rest wait at the peer
        let route = try #require(await rig.flow.acl(handle: rig.handle))
        var received: [Int] = []
        for await case .packet(let packet) in route {
            let payload = Array(packet.data.dropFirst(4))     // the L2CAP basic header
            received.append(Int(payload[3]) | Int(payload[4]) << 8)
            if received.count == 600 { break }
        }
        #expect(received == Array(0..<600), "every packet, in order")
        try await rig.sender.value
        #expect(await rig.flow.routingStatistics.overflows.isEmpty)
        #expect(await rig.flow.returnedACLBufferCount >= 600 - 32, "buffers went back in batches of 32")
        rig.radio.shutDown()
    }

    @Test("a controller without the control: bring-up goes on without it, and what the stalled queue cannot hold is dropped and counted")
    func withoutFlowControlDropsAreCounted() async throws {
        let rig = try await StalledReader.make(count: 400, flowControl: false)
        #expect(rig.information.hostACLBuffers == nil)
        #expect(await rig.flow.returnsACLBuffers == false)
        try await rig.sender.value                           // nothing holds the peer back
        try await Task.sleep(for: .milliseconds(100))
        let route = try #require(await rig.flow.acl(handle: rig.handle))
        var packets = 0
        for await case .packet in route {
            packets += 1
            if packets == 256 { break }                     // what the queue held
        }
        // The report of the drops goes into the stream ahead of the next packet, and none comes:
        // the statistics have them.
        #expect(await rig.flow.routingStatistics.overflows.values.reduce(0, +) == 400 - 256)
        rig.radio.shutDown()
    }
}
