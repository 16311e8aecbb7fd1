import BLECore
import HCI
import Host
import Testing
import Synchronization
import VirtualRadio

/// A flag set from another task.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

@Suite("VirtualRadio determinism, the virtual clock and paced timing", .timeLimit(.minutes(1)))
struct DeterminismAndTimingTests {
    @Test("each controller's static random address comes from the radio's seed and its index: valid, the same for the same seed, different between controllers and seeds")
    func seededStaticRandomAddresses() {
        let first = VirtualRadio(seed: 7, timing: .manual), again = VirtualRadio(seed: 7, timing: .manual), other = VirtualRadio(seed: 8, timing: .manual)
        let addresses = (0..<4).map { _ in first.makeController().staticRandomAddress }
        #expect(addresses.allSatisfy { $0.isValidStaticRandom })
        #expect(Set(addresses).count == 4)
        #expect((0..<4).map { _ in again.makeController().staticRandomAddress } == addresses)
        #expect(other.makeController().staticRandomAddress != addresses[0])
        first.shutDown(); again.shutDown(); other.shutDown()
    }

    /// One scripted run: advertising, active scanning, a connection, data both ways with
    /// dropped PDUs, data length, a connection update and a disconnection. Returns every
    /// packet each host received, as H4 frames.
    func scriptedRun(seed: UInt64) async throws -> [[[UInt8]]] {
        let radio = VirtualRadio(seed: seed, timing: .manual)
        let a = radio.makeController(configuration: configuration(1))
        let b = radio.makeController(configuration: configuration(2))
        let c = radio.makeController(configuration: configuration(3))
        let hostA = TestHost(a), hostB = TestHost(b), hostC = TestHost(c)
        b.setFaults(VirtualFaults(packetDropRate: 0.25))
        for host in [hostA, hostB, hostC] {
            try await host.command(HCIReset())
            try await host.command(HCISetEventMask(eventMask: HCIEventMask(rawValue: 0x3FFF_FFFF_FFFF_FFFF)))
            try await host.command(HCILESetEventMask(leEventMask: standardLEMask))
        }
        try await hostB.command(advertisingParameters(interval: 0x0040))
        try await hostB.command(HCILESetAdvertisingData(advertisingData: advertisingData))
        try await hostB.command(HCILESetScanResponseData(scanResponseData: scanResponseData))
        try await hostB.command(HCILESetAdvertisingEnable(enable: true))
        try await hostC.command(HCILESetScanParameters(leScanType: .active, leScanInterval: .init(rawValue: 32),
                                                       leScanWindow: .init(rawValue: 16), ownAddressType: .public))
        try await hostC.command(HCILESetScanEnable(enable: true))
        await radio.advance(by: .milliseconds(400))
        try await hostA.command(createConnection(to: address("C0:00:00:00:00:02"), parameters: connectionParameters(interval: 8, timeout: 200)))
        await radio.advance(by: .milliseconds(100))
        let handleA = try #require(a.connectionHandles.first), handleB = try #require(b.connectionHandles.first)
        for round in 0..<6 {
            for packet in l2capFragments(handleA, payload: Array(repeating: UInt8(round), count: 30)) { try await hostA.send(packet) }
            for packet in l2capFragments(handleB, payload: Array(repeating: UInt8(0x80 | round), count: 20)) { try await hostB.send(packet) }
            try await hostA.command(HCIReadRSSI(handle: handleA))
            await radio.advance(by: .milliseconds(40))
        }
        try await hostB.command(HCILESetDataLength(connectionHandle: handleB, txOctets: 200, txTime: .init(rawValue: 2120)))
        try await hostA.command(HCILEConnectionUpdate(connectionHandle: handleA, connectionParameters: connectionParameters(interval: 16, timeout: 300)))
        await radio.advance(by: .milliseconds(500))
        try await hostA.command(HCIDisconnect(connectionHandle: handleA))
        await radio.advance(by: .milliseconds(200))
        for host in [hostA, hostB, hostC] { await host.settle() }
        // Whatever the drops, every octet crossed, once.
        #expect(hostA.acl.flatMap(\.data).count == 6 * 24)
        #expect(hostB.acl.flatMap(\.data).count == 6 * 34)
        #expect(hostC.leEvents.contains { $0.advertisingReports.contains { $0.eventType == .scanRsp } })
        return [hostA, hostB, hostC].map { host in host.packets.map(\.h4Encoded) }
    }

    @Test("the same seed and the same host packets give the same packets out, byte for byte, in order")
    func determinism() async throws {
        let first = try await scriptedRun(seed: 2024)
        let second = try await scriptedRun(seed: 2024)
        #expect(first.map(\.count).allSatisfy { $0 > 10 }, "every host heard plenty: \(first.map(\.count))")
        #expect(first == second)
        let other = try await scriptedRun(seed: 7)
        #expect(other != first, "another seed gives other advDelays, RSSI jitter and drops")
    }

    @Test("HCICommandFlow's command timeout runs on the virtual clock: an answer held back 3 s times out at 2 s")
    func commandTimeoutOnVirtualClock() async throws {
        let radio = VirtualRadio(timing: .manual)
        let controller = radio.makeController(configuration: configuration(1))
        controller.setFaults(VirtualFaults(hciLatency: .seconds(3)))
        let flow = HCICommandFlow(transport: controller.attach(), clock: radio.clock)
        let command = Task { try await flow.send(HCIReset()) }
        // Let the flow send and arm its timer, then move virtual time past the 2 s timeout.
        for _ in 0..<1000 where await flow.commandsInFlight == 0 { await Task.yield() }
        #expect(await flow.commandsInFlight == 1)
        for _ in 0..<200 { await Task.yield() }
        await radio.advance(by: .milliseconds(2001))
        await #expect(throws: HCICommandError.timeout(opcode: .reset, after: .seconds(2))) { try await command.value }
        await flow.close()
    }

    @Test("VirtualClock sleepers wake in deadline order as virtual time passes; cancelled ones throw")
    func clockSleepers() async throws {
        let radio = VirtualRadio(timing: .manual)
        let clock = radio.clock
        #expect(clock.now == VirtualClock.Instant(offset: .zero))
        let lateWoke = Flag()
        let late = Task { try await clock.sleep(for: .milliseconds(300)); lateWoke.set() }
        let early = Task { try await clock.sleep(for: .milliseconds(100)) }
        let cancelled = Task { try await clock.sleep(for: .seconds(10)) }
        for _ in 0..<200 { await Task.yield() }
        cancelled.cancel()
        await radio.advance(by: .milliseconds(150))
        try await early.value
        for _ in 0..<200 { await Task.yield() }
        #expect(!lateWoke.isSet, "300 ms have not passed")
        await radio.advance(by: .milliseconds(350))
        try await late.value
        #expect(lateWoke.isSet)
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(radio.now == .milliseconds(500))
    }

    @Test("paced timing: virtual time follows real time times the speed, and a connection forms without advance(by:)")
    func paced() async throws {
        // Pacing alone: the radio's wait for starved hosts (HostProgressTests) would stretch real
        // time on a loaded machine past the bounds below, as it should.
        let radio = VirtualRadio(seed: 3, timing: .paced(speed: 20), waitsForHosts: false)
        let central = radio.makeController(configuration: configuration(1))
        let peripheral = radio.makeController(configuration: configuration(2))
        let centralFlow = HCICommandFlow(transport: central.attach(), clock: radio.clock)
        let peripheralFlow = HCICommandFlow(transport: peripheral.attach(), clock: radio.clock)
        for flow in [centralFlow, peripheralFlow] {
            try await flow.send(HCIReset())
            try await flow.send(HCISetEventMask(eventMask: HCIEventMask(rawValue: 0x3FFF_FFFF_FFFF_FFFF)))
        }
        let events = await centralFlow.events([.leMeta(.connectionComplete)], label: "test")
        try await peripheralFlow.send(advertisingParameters())
        try await peripheralFlow.send(HCILESetAdvertisingEnable(enable: true))
        let realStart = ContinuousClock.now
        let virtualStart = radio.now
        try await centralFlow.send(createConnection(to: address("C0:00:00:00:00:02")))
        var complete: LEMetaEvent.ConnectionComplete?
        for await delivery in events {
            guard let event = delivery.packet, case .leMeta(let meta)? = try? HCIEvent(packet: event),
                  let connection = meta.connectionComplete else { continue }
            complete = connection
            break
        }
        #expect(complete?.status == .success)
        // A sleep of 2 s of virtual time takes about 100 ms of real time at speed 20.
        let before = ContinuousClock.now
        try await radio.clock.sleep(for: .seconds(2))
        let real = ContinuousClock.now - before
        // Never faster than the speed allows; the upper bound only catches a stalled driver (a
        // loaded machine stretches real time, so it is generous).
        #expect(real >= .milliseconds(90) && real < .seconds(10), "real \(real)")
        let virtualElapsed = radio.now - virtualStart
        let realElapsed = ContinuousClock.now - realStart
        #expect(virtualElapsed >= .seconds(2))
        #expect(virtualElapsed <= realElapsed * 20 + .milliseconds(50))
        radio.shutDown()
        await #expect(throws: HCITransportError.closed) { try await central.attach().send(.command(HCIReset().packet)) }
    }
}

@Suite("VirtualRadio paced timing at benchmark speed", .timeLimit(.minutes(1)))
struct PacedBenchmarkTests {
    @Test("at speed 1000 a host moving 64 KiB by Number Of Completed Packets finishes in far less real time than virtual")
    func fastPaced() async throws {
        let radio = VirtualRadio(seed: 5, timing: .paced(speed: 1000))
        var centralConfiguration = configuration(1)
        centralConfiguration.aclDataPacketLength = 251
        let central = TestHost(radio.makeController(configuration: centralConfiguration))
        let peripheral = TestHost(radio.makeController(configuration: configuration(2)))
        try await central.bringUp()
        try await peripheral.bringUp()
        try await peripheral.command(advertisingParameters())
        try await peripheral.command(HCILESetAdvertisingEnable(enable: true))
        try await central.command(createConnection(to: address("C0:00:00:00:00:02"), parameters: connectionParameters(interval: 6, timeout: 100)))
        await central.waitFor("the connection") { packets in
            packets.contains { if case .event(let e) = $0 { return e.code == .leMeta } else { return false } }
        }
        let handle = try #require(central.controller.connectionHandles.first)
        try await central.command(HCILESetDataLength(connectionHandle: handle, txOctets: 251, txTime: .init(rawValue: 2120)))
        let realStart = ContinuousClock.now, virtualStart = radio.now
        let total = 64 * 1024
        var sent = 0
        while sent < total {
            // A host's flow control: wait for a buffer (Number Of Completed Packets frees them).
            while central.controller.aclBuffersInUse >= 4 { try await Task.sleep(for: .microseconds(200)) }
            let chunk = min(251, total - sent)
            try await central.send(acl(handle, Array(repeating: 0x5A, count: chunk), start: sent == 0))
            sent += chunk
        }
        await peripheral.waitFor("all data") { packets in
            packets.reduce(0) { count, packet in if case .acl(let a) = packet { count + a.data.count } else { count } } >= total
        }
        let real = ContinuousClock.now - realStart, virtual = radio.now - virtualStart
        #expect(virtual > real * 20, "virtual \(virtual), real \(real)")
        #expect(central.controller.violations.isEmpty)
        radio.shutDown()
    }
}
