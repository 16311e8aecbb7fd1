import ATT
import BLECore
import GATT
import HCI
import Host
import Testing
import VirtualRadio

/// Links in host mode over their life: attempts that time out or are cancelled, two centrals on
/// one peripheral, the Filter Accept List, the supervision timeout, a controller that fails.
@Suite("Host-mode links: connecting and ending", .timeLimit(.minutes(2)))
struct LinkLifecycleTests {
    @Test("a connect to a device that never advertises times out, cancels the attempt, and the next connect works")
    func connectTimesOut() async throws {
        let radio = VirtualRadio(seed: 11, timing: .paced(speed: 200))
        let central = try await Node.make(radio)
        let peripheral = try await Node.make(radio)
        let error = await #expect(throws: LEConnectionError.self) {
            try await central.manager.connect(to: BluetoothAddress("C1:02:03:04:05:06")!, addressType: .random, timeout: .milliseconds(200))
        }
        #expect(error == .connectionTimeout(after: .milliseconds(200)))
        _ = try await peripheral.advertise()
        let connection = try await central.manager.connect(to: peripheral.information.address, addressType: peripheral.addressType,
                                                           timeout: .seconds(20))
        #expect(connection.role == .central)
        radio.shutDown()
    }

    @Test("a cancelled connect cancels at the controller and throws cancelled")
    func connectCancelled() async throws {
        let radio = VirtualRadio(seed: 12, timing: .paced(speed: 200))
        let central = try await Node.make(radio)
        let attempt = Task {
            try await central.manager.connect(to: BluetoothAddress("C1:02:03:04:05:07")!, addressType: .random, timeout: .seconds(60))
        }
        try await Task.sleep(for: .milliseconds(50))
        attempt.cancel()
        let error = await #expect(throws: LEConnectionError.self) { try await attempt.value }
        #expect(error == .cancelled)
        radio.shutDown()
    }

    @Test("two centrals on one peripheral each have their own link and their own GATT client")
    func twoCentrals() async throws {
        let radio = VirtualRadio(seed: 13, timing: .paced(speed: 200))
        let peripheral = try await Node.make(radio)
        let first = try await Node.make(radio)
        let second = try await Node.make(radio)
        // Kept to the end: the advertiser re-advertises after the first connection only while it lives.
        let advertiser = try await peripheral.advertise()
        let server = try GATTServer(database: try GATTLink.database("small.json"))
        let serving = Task {
            var links: [LEConnection] = []
            for await connection in peripheral.manager.incomingConnections {
                _ = await server.connect(connection.att)
                links.append(connection)
                if links.count == 2 { return links }
            }
            return links
        }
        var clients: [GATTClient] = []
        for central in [first, second] {
            let connection = try await central.manager.connect(to: peripheral.information.address, addressType: peripheral.addressType,
                                                               timeout: .seconds(20))
            clients.append(GATTClient(engine: ATTEngine(bearer: connection.att)))
        }
        let links = await serving.value
        #expect(links.count == 2)
        #expect(Set(links.map(\.handle)).count == 2)
        for client in clients {
            let level = try await client.read(characteristicUUID: BluetoothUUID(0x2A19))
            #expect(level.first?.value == [100])
        }
        #expect(await advertiser.readvertisingErrors.isEmpty)
        radio.shutDown()
    }

    @Test("a gateway reconnects to a known device through the Filter Accept List")
    func filterAcceptList() async throws {
        let radio = VirtualRadio(seed: 14, timing: .paced(speed: 200))
        let central = try await Node.make(radio)
        let peripheral = try await Node.make(radio)
        _ = try await peripheral.advertise()
        let connection = try await central.manager.connect(toAnyOf: [
            (BluetoothAddress("C1:0A:0B:0C:0D:0E")!, .random),
            (peripheral.information.address, peripheral.addressType),
        ], timeout: .seconds(20))
        #expect(connection.peerAddress == peripheral.information.address)
        radio.shutDown()
    }

    @Test("a device taken out of range ends the link with Connection Timeout on both sides, and a pending read ends")
    func supervisionTimeout() async throws {
        let link = try await GATTLink.make(database: "small.json")
        _ = try await link.client.exchangeMTU()
        link.peripheral.controller.setInRange(false)
        let read = Task { try await link.client.read(characteristicUUID: BluetoothUUID(0x2A19)) }
        #expect(await link.centralConnection.disconnected() == .connectionTimeout)
        #expect(await link.peripheralConnection.disconnected() == .connectionTimeout)
        await #expect(throws: GATTClientError.self) { try await read.value }
        link.radio.shutDown()
    }

    @Test("closing a manager disconnects its links: the peer hears Remote User Terminated Connection, this side ends them with 0x16")
    func closeDisconnects() async throws {
        let link = try await GATTLink.make(database: "small.json")
        _ = try await link.client.exchangeMTU()
        await link.central.manager.close()
        #expect(await link.centralConnection.disconnected() == .connectionTerminatedByLocalHost)
        #expect(await link.peripheralConnection.disconnected() == .remoteUserTerminatedConnection,
                "an LL_TERMINATE_IND, not a supervision timeout (0x08)")
        #expect(await link.central.manager.ended == .closedByHost)
        let error = await #expect(throws: LEConnectionError.self) { try await link.centralConnection.readRSSI() }
        #expect(error == .ended(.closedByHost))
        #expect(link.central.controller.violations.isEmpty)
        link.radio.shutDown()
    }

    @Test("a Hardware Error ends the manager, every link and every pending call, once")
    func hardwareError() async throws {
        let link = try await GATTLink.make(database: "small.json")
        link.peripheral.controller.injectHardwareError(code: 0x01)
        #expect(await link.peripheralConnection.disconnected() == .hardwareFailure)
        #expect(await link.peripheral.manager.ended == .hardwareError(0x01))
        let error = await #expect(throws: LEConnectionError.self) { try await link.peripheralConnection.readRSSI() }
        #expect(error == .ended(.hardwareError(0x01)))
        link.radio.shutDown()
    }

    @Test("a controller that resets drops its links: the peer sees Connection Timeout")
    func peerControllerReset() async throws {
        let link = try await GATTLink.make(database: "small.json")
        link.peripheral.controller.crash()
        #expect(await link.centralConnection.disconnected() == .connectionTimeout)
        #expect(await link.central.manager.connections.isEmpty)
        link.radio.shutDown()
    }

    @Test("a peripheral that disconnects: the central's reason is the peripheral's")
    func peripheralDisconnects() async throws {
        let link = try await GATTLink.make(database: "small.json")
        try await link.peripheralConnection.disconnect(reason: .remoteDeviceTerminatedPowerOff)
        #expect(await link.centralConnection.disconnected() == .remoteDeviceTerminatedPowerOff)
        link.radio.shutDown()
    }
}
