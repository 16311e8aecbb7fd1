import BLECore
import HCI
import Host
import Synchronization
import Testing
import VirtualRadio

/// A raw host on a virtual controller: it sends packets and records every packet the
/// controller sends back, in order.
final class TestHost: Sendable {
    let port: VirtualHCIPort
    private let recorder = Recorder()

    let controller: VirtualController

    private final class Recorder: Sendable {
        let packets = Mutex<[HCIPacket]>([])
        /// Packets received, cleared ones included.
        let total = Mutex(0)
    }

    init(_ controller: VirtualController) {
        self.controller = controller
        port = controller.attach()
        let stream = port.packets
        Task { [recorder] in
            for await packet in stream {
                recorder.packets.withLock { $0.append(packet) }
                recorder.total.withLock { $0 += 1 }
            }
        }
    }

    /// Every packet received so far.
    var packets: [HCIPacket] { recorder.packets.withLock { $0 } }

    /// The events received so far, decoded.
    var events: [HCIEvent] {
        packets.compactMap { packet in
            guard case .event(let event) = packet else { return nil }
            return try? HCIEvent(packet: event)
        }
    }

    /// The LE Meta subevents received so far.
    var leEvents: [LEMetaEvent] {
        events.compactMap { event in
            guard case .leMeta(let meta) = event else { return nil }
            return meta
        }
    }

    /// The ACL packets received so far.
    var acl: [HCIACLDataPacket] {
        packets.compactMap { packet in
            guard case .acl(let acl) = packet else { return nil }
            return acl
        }
    }

    /// Forgets what was received.
    func clear() { recorder.packets.withLock { $0.removeAll() } }

    /// Sends `packet` and waits until the stream has caught up with everything the controller
    /// produced for it.
    func send(_ packet: HCIPacket) async throws {
        try await port.send(packet)
    }

    /// Sends a command and returns its Command Complete return parameters or Command Status status.
    @discardableResult
    func command<C: HCICommand>(_ command: C, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Answer {
        try await raw(command.packet, sourceLocation: sourceLocation)
    }

    /// Sends a command packet and returns its answer.
    @discardableResult
    func raw(_ packet: HCICommandPacket, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Answer {
        let before = packets.count
        try await port.send(.command(packet))
        var answer: Answer?
        await waitFor("an answer to \(packet.opcode)", sourceLocation: sourceLocation) { packets in
            for case .event(let event) in packets.dropFirst(before) {
                switch try? HCIEvent(packet: event) {
                case .commandComplete(let complete) where complete.commandOpcode == packet.opcode:
                    answer = .complete(complete.returnParameters, credits: complete.numHCICommandPackets)
                    return true
                case .commandStatus(let status) where status.commandOpcode == packet.opcode:
                    answer = .status(status.status, credits: status.numHCICommandPackets)
                    return true
                default: continue
                }
            }
            return false
        }
        return try #require(answer, sourceLocation: sourceLocation)
    }

    /// Waits (yielding, then briefly sleeping) until `condition` holds on the packets received.
    func waitFor(_ what: String, sourceLocation: SourceLocation = #_sourceLocation,
                 _ condition: ([HCIPacket]) -> Bool) async {
        for attempt in 0..<20_000 {
            if condition(packets) { return }
            if attempt < 200 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
        }
        Issue.record("never: \(what)", sourceLocation: sourceLocation)
    }

    /// Waits until the collector has read every packet the controller has handed over.
    func settle(sourceLocation: SourceLocation = #_sourceLocation) async {
        for attempt in 0..<20_000 {
            if recorder.total.withLock({ $0 }) >= controller.packetsDelivered { return }
            if attempt < 200 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
        }
        Issue.record("the collector never caught up", sourceLocation: sourceLocation)
    }

    /// HCI Reset, Set Event Mask (everything, LE Meta included), LE Set Event Mask (the
    /// default five plus Data Length Change, PHY Update Complete, Extended Advertising Report,
    /// Scan Timeout and Advertising Set Terminated; not Enhanced Connection Complete).
    func bringUp() async throws {
        try await command(HCIReset())
        try await command(HCISetEventMask(eventMask: HCIEventMask(rawValue: 0x3FFF_FFFF_FFFF_FFFF)))
        try await command(HCILESetEventMask(leEventMask: standardLEMask))
        await settle()
        clear()
    }
}

let standardLEMask: LEEventMask = [.connectionComplete, .advertisingReport, .connectionUpdateComplete,
                                   .readRemoteFeaturesComplete, .longTermKeyRequest, .dataLengthChange,
                                   .phyUpdateComplete, .extendedAdvertisingReport,
                                   LEEventMask(enabling: .advertisingSetTerminated), LEEventMask(enabling: .scanTimeout)]

/// A command's answer as a test sees it.
enum Answer: Hashable {
    case complete([UInt8], credits: UInt8)
    case status(HCIStatus, credits: UInt8)

    /// The Status: the first return parameter, or the Command Status status.
    var status: HCIStatus {
        switch self {
        case .complete(let parameters, _): return HCIStatus(rawValue: parameters.first ?? 0xFF)
        case .status(let status, _): return status
        }
    }

    var isCommandStatus: Bool { if case .status = self { return true } else { return false } }

    /// The return parameters decoded as `C`'s.
    func parameters<C: HCICommand>(_: C.Type) throws -> C.ReturnParameters {
        guard case .complete(let bytes, _) = self else { throw BLEDecodingError.invalidValue(field: "answer", offset: 0, reason: "Command Status") }
        return try C.ReturnParameters(decoding: bytes)
    }
}

func address(_ text: String) -> BluetoothAddress { BluetoothAddress(text)! }

/// A configuration with public address C0:00:00:00:00:0n.
func configuration(_ n: Int, extended: Bool = true) -> VirtualControllerConfiguration {
    VirtualControllerConfiguration(publicAddress: BluetoothAddress(0xC000_0000_0000 | UInt64(n)), supportsExtendedAdvertising: extended)
}

/// Legacy ADV_IND parameters at `interval` 0.625 ms slots.
func advertisingParameters(interval: UInt16 = 0x00A0, type: LEAdvertisingType = .advInd,
                           own: LEOwnAddressType = .public) -> HCILESetAdvertisingParameters {
    HCILESetAdvertisingParameters(advertisingIntervalMin: .init(rawValue: interval), advertisingIntervalMax: .init(rawValue: interval),
                                  advertisingType: type, ownAddressType: own)
}

/// Connection parameters: interval in 1.25 ms units, supervision timeout in 10 ms units.
func connectionParameters(interval: UInt16 = 24, timeout: UInt16 = 100, latency: UInt16 = 0) -> LEConnectionParameters {
    LEConnectionParameters(connectionIntervalMin: .init(rawValue: interval), connectionIntervalMax: .init(rawValue: interval),
                           maxLatency: latency, supervisionTimeout: .init(rawValue: timeout))
}

/// LE Create Connection to `peer` (public), scanning continuously.
func createConnection(to peer: BluetoothAddress, parameters: LEConnectionParameters = connectionParameters(),
                      own: LEOwnAddressType = .public) -> HCILECreateConnection {
    HCILECreateConnection(leScanInterval: .init(rawValue: 0x0010), leScanWindow: .init(rawValue: 0x0010),
                          peerAddressType: .public, peerAddress: peer, ownAddressType: own, connectionParameters: parameters)
}

extension LEMetaEvent {
    var connectionComplete: ConnectionComplete? { if case .connectionComplete(let e) = self { return e } else { return nil } }
    var advertisingReports: [LEAdvertisingReport] { if case .advertisingReport(let e) = self { return e.reports } else { return [] } }
    var extendedReports: [LEExtendedAdvertisingReport] {
        if case .extendedAdvertisingReport(let e) = self { return e.reports } else { return [] }
    }
}

extension HCIEvent {
    var disconnection: DisconnectionComplete? { if case .disconnectionComplete(let e) = self { return e } else { return nil } }
    var completedPackets: [NumberOfCompletedPackets.Entry] {
        if case .numberOfCompletedPackets(let e) = self { return e.entries } else { return [] }
    }
}
