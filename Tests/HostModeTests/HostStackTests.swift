import ATT
import BLECore
import GATT
import HCI
import Host
import LinuxBluetooth
import Testing
import VirtualRadio

/// ``HostStack`` as a user puts it together: scanning and advertising with the stack's own
/// address, and a virtual controller served over H4 on TCP to a stack in "another process".
@Suite("Host stack", .timeLimit(.minutes(2)))
struct HostStackTests {
    @Test("a scanner finds an advertiser by its name, both in host mode on the radio")
    func scanFindsAdvertiser() async throws {
        let radio = VirtualRadio(seed: 31, timing: .paced(speed: 100))
        let observer = try await HostStack.start(on: radio.makeController().attach())
        let broadcaster = try await HostStack.start(on: radio.makeController().attach())
        let advertiser = broadcaster.makeAdvertiser()
        try await advertiser.start(broadcaster.advertisingParameters(advertisingData: [.localName(ADLocalName(bytes: Array("Sensor 7".utf8)))]))
        let scanner = observer.makeScanner()
        var found: LEDiscovery?
        for await discovery in try await scanner.start(observer.scanParameters()) where discovery.localName == "Sensor 7" {
            found = discovery
            break
        }
        try await scanner.stop()
        #expect(found?.address == broadcaster.controller.address)
        #expect(broadcaster.controller.ownAddressType == .random)
        #expect(broadcaster.controller.address.isValidStaticRandom)
        await observer.close()
        await broadcaster.close()
        radio.shutDown()
    }

    @Test("a virtual controller served as H4 over TCP: bring-up and a GATT read across the socket",
          arguments: [false, true])
    func virtualControllerOverTCP(onHostExecutors: Bool) async throws {
        // With executors: the served controller's socket and the peripheral on one thread, the
        // remote host's socket, stack and this caller on another.
        let rig = onHostExecutors ? HostExecutor(name: "test rig") : nil
        let remoteThread = onHostExecutors ? HostExecutor(name: "test remote") : nil
        try await withTaskExecutorPreference(remoteThread) {
            try await virtualControllerOverTCP(rig: rig, remoteThread: remoteThread)
        }
    }

    private func virtualControllerOverTCP(rig: HostExecutor?, remoteThread: HostExecutor?) async throws {
        let radio = VirtualRadio(seed: 32, timing: .paced(speed: 100), hostExecutors: [rig, remoteThread].compactMap { $0 })
        let served = radio.makeController()
        let listener = try H4TCPListener(host: "127.0.0.1", port: 0, executor: rig)
        let serving = Task {
            for await host in listener.connections {
                return await HCITransportBridge.run(host: host, controller: served.attach())
            }
            return HCITransportBridge.Counts()
        }
        let remoteTransport = try await H4StreamTransport.connect(host: "127.0.0.1", port: listener.port, executor: remoteThread)
        let remote = try await HostStack.start(on: remoteTransport, executor: remoteThread)
        let peripheral = try await HostStack.start(on: radio.makeController().attach(), executor: rig)
        let advertiser = peripheral.makeAdvertiser()
        try await advertiser.start(peripheral.advertisingParameters(advertisingData: [.localName(ADLocalName(bytes: Array("TCP".utf8)))]))
        let server = try GATTServer(database: try GATTLink.database("small.json"))
        let accepting = Task {
            for await connection in peripheral.connections.incomingConnections {
                _ = await server.connect(connection.att)
                return
            }
        }
        let link = try await remote.connections.connect(to: peripheral.controller.address, addressType: peripheral.addressType,
                                                        timeout: .seconds(20))
        await accepting.value
        let client = GATTClient(engine: ATTEngine(bearer: link.att))
        #expect(try await client.read(characteristicUUID: BluetoothUUID(0x2A19)).first?.value == [100])
        if let remoteThread { #expect(remoteThread.isCurrent) }     // the caller ran on the remote's thread throughout
        try await link.disconnect()
        await remote.close()
        let counts = await serving.value
        #expect(counts.hostToController > 10)
        #expect(counts.controllerToHost > 10)
        listener.close()
        #expect(await advertiser.isStarted)
        radio.shutDown()
    }

    @Test("after a Hardware Error the stack restarts on the same transport: its link ends with Hardware Failure, bring-up runs again with the same static random address, and the new stack connects")
    func restartAfterHardwareError() async throws {
        let radio = VirtualRadio(seed: 33, timing: .paced(speed: 100))
        let centralController = radio.makeController()
        let central = try await HostStack.start(on: centralController.attach())
        let peripheral = try await HostStack.start(on: radio.makeController().attach())
        let advertiser = peripheral.makeAdvertiser()
        try await advertiser.start(peripheral.advertisingParameters(advertisingData: [.localName(ADLocalName(bytes: Array("Reset".utf8)))]))
        var incoming = peripheral.connections.incomingConnections.makeAsyncIterator()
        let link = try await central.connections.connect(to: peripheral.controller.address, addressType: peripheral.addressType,
                                                         timeout: .seconds(20))
        let first = try #require(await incoming.next())

        centralController.injectHardwareError(code: 0x05)
        #expect(await link.disconnected() == .hardwareFailure)
        #expect(await central.connections.ended == .hardwareError(0x05))
        let restarted = try await central.restart()
        #expect(restarted.flow === central.flow)
        #expect(restarted.controller.ownAddressType == .random)
        #expect(restarted.controller.address == central.controller.address)
        // The reset silenced the old link: the peripheral's side times out (0x08), and the new
        // stack connects to it again.
        #expect(await first.disconnected() == .connectionTimeout)
        let again = try await restarted.connections.connect(to: peripheral.controller.address, addressType: peripheral.addressType,
                                                            timeout: .seconds(20))
        #expect(try #require(await incoming.next()).peerAddress == central.controller.address)
        try await again.disconnect()
        await restarted.close()
        await peripheral.close()
        #expect(centralController.violations.isEmpty)
        radio.shutDown()
    }

    @Test("a restart ends what the old stack's scanner and advertisers ran: the discoveries finish, the advertisers count as stopped, and the new stack scans and advertises afresh")
    func restartEndsTheOldScanAndAdvertising() async throws {
        let radio = VirtualRadio(seed: 34, timing: .paced(speed: 100))
        let controller = radio.makeController()
        let stack = try await HostStack.start(on: controller.attach())
        let broadcaster = try await HostStack.start(on: radio.makeController().attach())
        let beacon = broadcaster.makeAdvertiser()
        try await beacon.start(broadcaster.advertisingParameters(advertisingData: [.localName(ADLocalName(bytes: Array("Beacon".utf8)))],
                                                                 isConnectable: false))
        let scanner = stack.makeScanner()
        var discoveries = try await scanner.start(stack.scanParameters(filterDuplicates: false)).makeAsyncIterator()
        #expect(await discoveries.next() != nil)
        let connectable = stack.makeAdvertiser()
        try await connectable.start(stack.advertisingParameters(advertisingData: [.localName(ADLocalName(bytes: Array("Old".utf8)))]))
        let nonConnectable = stack.makeAdvertiser()
        var second = stack.advertisingParameters(advertisingData: [], isConnectable: false)
        second.advertisingHandle = 1                                 // a set of its own
        try await nonConnectable.start(second)

        controller.injectHardwareError(code: 0x05)
        let restarted = try await stack.restart()
        while await discoveries.next() != nil {}                  // the old scan's stream finishes
        #expect(await !scanner.isScanning)
        await LinkProceduresTests.eventually("the old advertisers stop") {
            let connectableStarted = await connectable.isStarted
            let nonConnectableStarted = await nonConnectable.isStarted
            return !connectableStarted && !nonConnectableStarted
        }
        #expect(await !connectable.isAdvertising)

        // The new stack's own scanner hears the beacon again.
        let again = restarted.makeScanner()
        for await discovery in try await again.start(restarted.scanParameters()) where discovery.localName == "Beacon" { break }
        try await again.stop()
        await restarted.close()
        await broadcaster.close()
        #expect(controller.violations.isEmpty)
        radio.shutDown()
    }
}
