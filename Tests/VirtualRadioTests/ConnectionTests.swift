import BLECore
import HCI
import Host
import Testing
import VirtualRadio

/// Two controllers on a manual radio, connected: controller 0 (C0:..:01) the central,
/// controller 1 (C0:..:02) the peripheral.
struct ConnectedPair {
    let radio: VirtualRadio
    let centralController: VirtualController
    let peripheralController: VirtualController
    let central: TestHost
    let peripheral: TestHost
    let centralHandle: UInt16
    let peripheralHandle: UInt16

    static func make(seed: UInt64 = 1, centralConfiguration: VirtualControllerConfiguration = configuration(1),
                     peripheralConfiguration: VirtualControllerConfiguration = configuration(2),
                     parameters: LEConnectionParameters = connectionParameters(),
                     beforeConnecting centralSetUp: (TestHost) async throws -> Void = { _ in }) async throws -> ConnectedPair {
        let radio = VirtualRadio(seed: seed, timing: .manual)
        let centralController = radio.makeController(configuration: centralConfiguration)
        let peripheralController = radio.makeController(configuration: peripheralConfiguration)
        let central = TestHost(centralController)
        let peripheral = TestHost(peripheralController)
        try await central.bringUp()
        try await peripheral.bringUp()
        try await centralSetUp(central)
        try await peripheral.command(advertisingParameters())
        try await peripheral.command(HCILESetAdvertisingEnable(enable: true))
        let create = try await central.command(createConnection(to: peripheralConfiguration.publicAddress!, parameters: parameters))
        #expect(create == .status(.success, credits: 1))
        await radio.advance(by: .milliseconds(150))
        await central.settle()
        await peripheral.settle()
        let centralComplete = try #require(central.leEvents.compactMap(\.connectionComplete).first)
        let peripheralComplete = try #require(peripheral.leEvents.compactMap(\.connectionComplete).first)
        central.clear()
        peripheral.clear()
        return ConnectedPair(radio: radio, centralController: centralController, peripheralController: peripheralController,
                             central: central, peripheral: peripheral,
                             centralHandle: centralComplete.connectionHandle, peripheralHandle: peripheralComplete.connectionHandle)
    }

    func settle() async {
        await central.settle()
        await peripheral.settle()
    }
}

/// An ACL packet from a host.
func acl(_ handle: UInt16, _ data: [UInt8], start: Bool = true) -> HCIPacket {
    .acl(HCIACLDataPacket(handle: handle, packetBoundary: start ? .firstNonFlushable : .continuing, data: data))
}

/// An L2CAP basic frame on the ATT channel (CID 4) with `payload`, cut into `fragment`-octet ACL packets.
func l2capFragments(_ handle: UInt16, payload: [UInt8], fragment: Int = 27) -> [HCIPacket] {
    let frame = [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8), 0x04, 0x00] + payload
    return stride(from: 0, to: frame.count, by: fragment).map { start in
        acl(handle, Array(frame[start..<min(frame.count, start + fragment)]), start: start == 0)
    }
}

@Suite("VirtualRadio connections, ACL data and disconnection (Core v5.4, Vol 4, Part E, 7.1.6, 7.8.12, 7.8.13; Vol 6, Part B, 4.5)",
       .timeLimit(.minutes(1)))
struct ConnectionTests {
    @Test("a connection forms in both roles: LE Connection Complete on each side, own handles, the initiator's interval")
    func connect() async throws {
        let pair = try await ConnectedPair.make(parameters: connectionParameters(interval: 24, timeout: 200, latency: 2))
        #expect(pair.centralHandle != pair.peripheralHandle, "each controller numbers its own handles")
        #expect(pair.centralController.connectionHandles == [pair.centralHandle])
        #expect(pair.peripheralController.connectionHandles == [pair.peripheralHandle])
        // The completion events, again from a fresh pair, in full.
        let radio = VirtualRadio(timing: .manual)
        let central = TestHost(radio.makeController(configuration: configuration(1)))
        let peripheral = TestHost(radio.makeController(configuration: configuration(2)))
        try await central.bringUp()
        try await peripheral.bringUp()
        try await peripheral.command(advertisingParameters())
        try await peripheral.command(HCILESetAdvertisingEnable(enable: true))
        try await central.command(createConnection(to: address("C0:00:00:00:00:02"),
                                                   parameters: connectionParameters(interval: 24, timeout: 200, latency: 2)))
        await radio.advance(by: .milliseconds(50))
        await central.settle()
        await peripheral.settle()
        let c = try #require(central.leEvents.compactMap(\.connectionComplete).first)
        let p = try #require(peripheral.leEvents.compactMap(\.connectionComplete).first)
        #expect(c.status == .success && p.status == .success)
        #expect(c.role == .central && p.role == .peripheral)
        #expect(c.peerAddress == address("C0:00:00:00:00:02") && c.peerAddressType == .public)
        #expect(p.peerAddress == address("C0:00:00:00:00:01"))
        #expect(c.connectionInterval.rawValue == 24 && p.connectionInterval.rawValue == 24)
        #expect(c.peripheralLatency == 2 && c.supervisionTimeout.rawValue == 200)
        #expect(p.centralClockAccuracy.rawValue == 0x05 && c.centralClockAccuracy.rawValue == 0x00)
        // Legacy advertising stopped at the connection: a scanner hears nothing more.
        let scanner = TestHost(radio.makeController(configuration: configuration(3)))
        try await scanner.bringUp()
        try await scanner.command(HCILESetScanParameters(leScanType: .passive, leScanInterval: .init(rawValue: 16),
                                                         leScanWindow: .init(rawValue: 16), ownAddressType: .public))
        try await scanner.command(HCILESetScanEnable(enable: true))
        await radio.advance(by: .milliseconds(500))
        await scanner.settle()
        #expect(scanner.leEvents.isEmpty)
    }

    @Test("LE Enhanced Connection Complete replaces LE Connection Complete when the host unmasks it")
    func enhancedConnectionComplete() async throws {
        let radio = VirtualRadio(timing: .manual)
        let central = TestHost(radio.makeController(configuration: configuration(1)))
        let peripheral = TestHost(radio.makeController(configuration: configuration(2)))
        try await central.bringUp()
        try await peripheral.bringUp()
        try await central.command(HCILESetEventMask(leEventMask: standardLEMask.union(.enhancedConnectionComplete)))
        try await peripheral.command(advertisingParameters())
        try await peripheral.command(HCILESetAdvertisingEnable(enable: true))
        try await central.command(createConnection(to: address("C0:00:00:00:00:02")))
        await radio.advance(by: .milliseconds(50))
        await central.settle()
        await peripheral.settle()
        #expect(central.leEvents.map(\.subeventCode) == [.enhancedConnectionComplete])
        #expect(peripheral.leEvents.map(\.subeventCode) == [.connectionComplete])
        guard case .enhancedConnectionComplete(let e) = central.leEvents.first else { return }
        #expect(e.status == .success && e.role == .central && e.peerAddress == address("C0:00:00:00:00:02"))
    }

    @Test("ACL both ways at connection events: 27-octet fragments, PB first/continuing, Number Of Completed Packets per packet")
    func aclBothWays() async throws {
        let pair = try await ConnectedPair.make()
        let request = Array(0..<40).map(UInt8.init)        // a 44-octet L2CAP frame: 27 + 17
        for packet in l2capFragments(pair.centralHandle, payload: request) { try await pair.central.send(packet) }
        #expect(pair.centralController.aclBuffersInUse == 2)
        await pair.radio.advance(by: .milliseconds(31))
        await pair.settle()
        let received = pair.peripheral.acl
        #expect(received.map(\.handle) == [pair.peripheralHandle, pair.peripheralHandle], "the peripheral's own handle")
        #expect(received.map(\.packetBoundary) == [.firstFlushable, .continuing])
        #expect(received.map(\.data.count) == [27, 17])
        #expect(Array(received.flatMap(\.data).dropFirst(4)) == request)
        let completed = pair.central.events.flatMap(\.completedPackets)
        #expect(completed.map(\.connectionHandle).allSatisfy { $0 == pair.centralHandle })
        #expect(completed.map { Int($0.numCompletedPackets) }.reduce(0, +) == 2)
        #expect(pair.centralController.aclBuffersInUse == 0)
        // And back.
        let response = Array(repeating: UInt8(0xAB), count: 60)
        for packet in l2capFragments(pair.peripheralHandle, payload: response) { try await pair.peripheral.send(packet) }
        await pair.radio.advance(by: .milliseconds(31))
        await pair.settle()
        #expect(pair.central.acl.map(\.data.count) == [27, 27, 10])
        #expect(pair.central.acl.allSatisfy { $0.handle == pair.centralHandle })
        #expect(Array(pair.central.acl.flatMap(\.data).dropFirst(4)) == response)
        #expect(pair.peripheral.events.flatMap(\.completedPackets).map { Int($0.numCompletedPackets) }.reduce(0, +) == 3)
        #expect(pair.centralController.violations.isEmpty && pair.peripheralController.violations.isEmpty)
    }

    @Test("buffer violations are recorded and the packets dropped: too long, too many, unknown handle, bad flags")
    func bufferViolations() async throws {
        let pair = try await ConnectedPair.make()
        let h = pair.centralHandle
        try await pair.central.send(acl(h, Array(repeating: 1, count: 28)))                  // over 27
        for _ in 0..<5 { try await pair.central.send(acl(h, Array(repeating: 2, count: 10))) }  // 4 buffers
        try await pair.central.send(acl(0x0ABC, [1, 2, 3]))
        try await pair.central.send(.acl(HCIACLDataPacket(handle: h, packetBoundary: .firstFlushable, data: [1])))
        try await pair.central.send(.acl(HCIACLDataPacket(handle: h, packetBoundary: .continuing, broadcast: 1, data: [1])))
        let kinds = pair.centralController.violations.map(\.kind)
        #expect(kinds == [
            .aclPacketTooLong(handle: h, length: 28, maximum: 27),
            .aclBufferOverflow(handle: h, total: 4),
            .aclUnknownHandle(0x0ABC),
            .aclInvalidPacketBoundary(handle: h, flag: 0b10),
            .aclInvalidBroadcastFlag(handle: h, flag: 1),
        ])
        #expect(kinds.last == .aclInvalidBroadcastFlag(handle: h, flag: 1))
        await pair.radio.advance(by: .milliseconds(100))
        await pair.settle()
        #expect(pair.peripheral.acl.count == 4, "only the four accepted packets cross")
        #expect(pair.central.events.flatMap(\.completedPackets).map { Int($0.numCompletedPackets) }.reduce(0, +) == 4)
    }

    @Test("LE Create Connection Cancel: Command Complete, then Connection Complete with 0x02; Command Disallowed when none is pending")
    func cancel() async throws {
        let radio = VirtualRadio(timing: .manual)
        let host = TestHost(radio.makeController(configuration: configuration(1)))
        try await host.bringUp()
        #expect(try await host.command(HCILECreateConnectionCancel()) == .complete([0x0C], credits: 1))
        try await host.command(createConnection(to: address("C0:00:00:00:00:09")))
        #expect(try await host.command(createConnection(to: address("C0:00:00:00:00:09"))) == .status(.commandDisallowed, credits: 1),
                "one pending connection at a time")
        host.clear()
        #expect(try await host.command(HCILECreateConnectionCancel()) == .complete([0x00], credits: 1))
        await host.settle()
        let complete = try #require(host.leEvents.compactMap(\.connectionComplete).first)
        #expect(complete.status == .unknownConnectionIdentifier)
        // The controller is usable again.
        #expect(try await host.command(createConnection(to: address("C0:00:00:00:00:09"))) == .status(.success, credits: 1))
    }

    @Test("Disconnect: Command Status, then reason 0x16 locally and the given reason at the peer")
    func disconnect() async throws {
        let pair = try await ConnectedPair.make()
        #expect(try await pair.central.command(HCIDisconnect(connectionHandle: 0x0EEE)) == .status(.unknownConnectionIdentifier, credits: 1))
        #expect(try await pair.central.command(HCIDisconnect(connectionHandle: pair.centralHandle, reason: .success)).status
                == .invalidHCICommandParameters)
        #expect(try await pair.peripheral.command(HCIDisconnect(connectionHandle: pair.peripheralHandle,
                                                                reason: .remoteDeviceTerminatedPowerOff)) == .status(.success, credits: 1))
        await pair.radio.advance(by: .milliseconds(31))
        await pair.settle()
        #expect(pair.peripheral.events.compactMap(\.disconnection) == [
            HCIEvent.DisconnectionComplete(connectionHandle: pair.peripheralHandle, reason: .connectionTerminatedByLocalHost),
        ])
        #expect(pair.central.events.compactMap(\.disconnection) == [
            HCIEvent.DisconnectionComplete(connectionHandle: pair.centralHandle, reason: .remoteDeviceTerminatedPowerOff),
        ])
        #expect(pair.centralController.connectionHandles.isEmpty && pair.peripheralController.connectionHandles.isEmpty)
    }

    @Test("Extended Create Connection to an extended connectable set: Enhanced-free completion, then Advertising Set Terminated")
    func extendedConnection() async throws {
        let radio = VirtualRadio(timing: .manual)
        let central = TestHost(radio.makeController(configuration: configuration(1)))
        let peripheral = TestHost(radio.makeController(configuration: configuration(2)))
        try await central.bringUp()
        try await peripheral.bringUp()
        try await peripheral.command(HCILESetExtendedAdvertisingParameters(
            advertisingHandle: 2, advertisingEventProperties: [.connectable],
            primaryAdvertisingIntervalMin: .init(rawValue: 0x40), primaryAdvertisingIntervalMax: .init(rawValue: 0x40)))
        try await peripheral.command(HCILESetExtendedAdvertisingEnable(enable: 1, sets: [.init(advertisingHandle: 2)]))
        // A legacy initiator cannot hear AUX_ADV_IND.
        try await central.command(createConnection(to: address("C0:00:00:00:00:02")))
        await radio.advance(by: .milliseconds(200))
        await central.settle()
        #expect(central.leEvents.isEmpty)
        try await central.command(HCILECreateConnectionCancel())
        try await central.command(HCIReset())
        try await central.bringUp()
        let answer = try await central.command(HCILEExtendedCreateConnection(
            peerAddressType: .public, peerAddress: address("C0:00:00:00:00:02"), initiatingPHYs: .le1M,
            phyParameters: [.init(scanInterval: .init(rawValue: 16), scanWindow: .init(rawValue: 16),
                                  connectionParameters: connectionParameters(interval: 40))]))
        #expect(answer == .status(.success, credits: 1))
        await radio.advance(by: .milliseconds(200))
        await central.settle()
        await peripheral.settle()
        let c = try #require(central.leEvents.compactMap(\.connectionComplete).first)
        #expect(c.connectionInterval.rawValue == 40)
        #expect(peripheral.leEvents.map(\.subeventCode) == [.connectionComplete, .advertisingSetTerminated])
        guard case .advertisingSetTerminated(let terminated) = peripheral.leEvents.last else { return }
        #expect(terminated.status == .success && terminated.advertisingHandle == 2)
        #expect(terminated.connectionHandle == peripheral.leEvents.first?.connectionComplete?.connectionHandle)
    }

    @Test("initiator filter policy: the Filter Accept List picks the peer; the list is locked while initiating")
    func filterAcceptList() async throws {
        let radio = VirtualRadio(timing: .manual)
        let central = TestHost(radio.makeController(configuration: configuration(1)))
        let other = TestHost(radio.makeController(configuration: configuration(2)))
        let wanted = TestHost(radio.makeController(configuration: configuration(3)))
        for host in [central, other, wanted] { try await host.bringUp() }
        for host in [other, wanted] {
            try await host.command(advertisingParameters())
            try await host.command(HCILESetAdvertisingEnable(enable: true))
        }
        let size = try await central.command(HCILEReadFilterAcceptListSize()).parameters(HCILEReadFilterAcceptListSize.self)
        #expect(size.filterAcceptListSize == 8)
        #expect(try await central.command(HCILEAddDeviceToFilterAcceptList(addressType: .public, address: address("C0:00:00:00:00:03"))).status == .success)
        #expect(try await central.command(HCILEAddDeviceToFilterAcceptList(addressType: .init(rawValue: 7), address: .zero)).status
                == .invalidHCICommandParameters)
        var command = createConnection(to: .zero)
        command.initiatorFilterPolicy = .filterAcceptList
        try await central.command(command)
        #expect(try await central.command(HCILEClearFilterAcceptList()).status == .commandDisallowed)
        await radio.advance(by: .milliseconds(300))
        await central.settle()
        let complete = try #require(central.leEvents.compactMap(\.connectionComplete).first)
        #expect(complete.peerAddress == address("C0:00:00:00:00:03"))
        #expect(try await central.command(HCILEClearFilterAcceptList()).status == .success)
    }

    @Test("two centrals on one peripheral: it advertises again, each link has its own handles and data")
    func twoCentrals() async throws {
        let radio = VirtualRadio(timing: .manual)
        let peripheral = TestHost(radio.makeController(configuration: configuration(1)))
        let first = TestHost(radio.makeController(configuration: configuration(2)))
        let second = TestHost(radio.makeController(configuration: configuration(3)))
        for host in [peripheral, first, second] { try await host.bringUp() }
        try await peripheral.command(advertisingParameters())
        try await peripheral.command(HCILESetAdvertisingEnable(enable: true))
        try await first.command(createConnection(to: address("C0:00:00:00:00:01")))
        await radio.advance(by: .milliseconds(150))
        try await peripheral.command(HCILESetAdvertisingEnable(enable: true))
        try await second.command(createConnection(to: address("C0:00:00:00:00:01")))
        await radio.advance(by: .milliseconds(150))
        for host in [peripheral, first, second] { await host.settle() }
        let links = peripheral.leEvents.compactMap(\.connectionComplete)
        #expect(links.count == 2)
        #expect(Set(links.map(\.connectionHandle)).count == 2)
        #expect(Set(links.map(\.peerAddress)) == [address("C0:00:00:00:00:02"), address("C0:00:00:00:00:03")])
        let firstHandle = try #require(first.leEvents.compactMap(\.connectionComplete).first?.connectionHandle)
        let secondHandle = try #require(second.leEvents.compactMap(\.connectionComplete).first?.connectionHandle)
        #expect(Set([firstHandle, secondHandle] + links.map(\.connectionHandle)).count == 4)
        try await first.send(acl(firstHandle, [4, 0, 4, 0, 1, 1, 1, 1]))
        try await second.send(acl(secondHandle, [4, 0, 4, 0, 2, 2, 2, 2]))
        await radio.advance(by: .milliseconds(50))
        await peripheral.settle()
        let byHandle = Dictionary(grouping: peripheral.acl, by: \.handle)
        let fromFirst = try #require(links.first { $0.peerAddress == address("C0:00:00:00:00:02") })
        let fromSecond = try #require(links.first { $0.peerAddress == address("C0:00:00:00:00:03") })
        #expect(byHandle[fromFirst.connectionHandle]?.first?.data == [4, 0, 4, 0, 1, 1, 1, 1])
        #expect(byHandle[fromSecond.connectionHandle]?.first?.data == [4, 0, 4, 0, 2, 2, 2, 2])
    }

    @Test("HCI Reset drops every link: the reset side hears nothing, the peer times out with 0x08 after the supervision timeout")
    func resetDropsLinks() async throws {
        let pair = try await ConnectedPair.make(parameters: connectionParameters(interval: 24, timeout: 100))
        try await pair.central.command(HCIReset())
        #expect(pair.centralController.connectionHandles.isEmpty)
        await pair.radio.advance(by: .milliseconds(900))
        await pair.settle()
        #expect(pair.peripheral.events.compactMap(\.disconnection).isEmpty, "not before the 1 s timeout")
        await pair.radio.advance(by: .milliseconds(200))
        await pair.settle()
        #expect(pair.peripheral.events.compactMap(\.disconnection) == [
            HCIEvent.DisconnectionComplete(connectionHandle: pair.peripheralHandle, reason: .connectionTimeout),
        ])
        #expect(pair.central.events.compactMap(\.disconnection).isEmpty)
        // ACL for the old handle is now a violation, and the reset restored the default masks.
        try await pair.central.send(acl(pair.centralHandle, [1]))
        #expect(pair.centralController.violations.map(\.kind) == [.aclUnknownHandle(pair.centralHandle)])
    }

    @Test("a host that comes back attaches anew: the old port finishes and refuses sends; the new one starts from Reset")
    func reattach() async throws {
        let radio = VirtualRadio(timing: .manual)
        let controller = radio.makeController(configuration: configuration(1))
        let old = controller.attach()
        let new = TestHost(controller)
        await #expect(throws: HCITransportError.closed) { try await old.send(.command(HCIReset().packet)) }
        var iterator = old.packets.makeAsyncIterator()
        #expect(await iterator.next() == nil)
        #expect(try await new.command(HCIReset()).status == .success)
    }
}
