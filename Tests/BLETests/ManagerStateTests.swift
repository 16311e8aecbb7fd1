import Glibc
@testable import BLE
import BLECore
import HCI
import Host
import LinuxBluetooth
import Testing
import VirtualRadio

/// A central manager's state, from the facts of its transport and controller.
@Suite("Manager state", .timeLimit(.minutes(1)))
struct ManagerStateTests {
    @Test("a central on a virtual radio starts unknown and reaches poweredOn; each stateUpdates starts with the current state")
    func virtualPowersOn() async throws {
        let radio = VirtualRadio(seed: 1, timing: .paced(speed: BLETestbed.defaultSpeed))
        let central = CentralManager(transport: .virtual(radio))
        var seen: [ManagerState] = []
        for await state in central.stateUpdates {
            seen.append(state)
            if state != .unknown { break }
        }
        #expect(seen.last == .poweredOn)
        #expect(seen.dropLast().allSatisfy { $0 == .unknown })
        var later = central.stateUpdates.makeAsyncIterator()
        #expect(await later.next() == .poweredOn)
        await central.close()
        #expect(central.state == .poweredOff)
        radio.shutDown()
    }

    /// Whether this kernel has no Bluetooth (socket(AF_BLUETOOTH) fails with EAFNOSUPPORT), as
    /// on the build machines: kernel mode then has nothing to open.
    static let kernelHasNoBluetooth: Bool = {
        let descriptor = socket(Int32(AF_BLUETOOTH), Int32(SOCK_RAW.rawValue), 1)
        if descriptor >= 0 { close(descriptor); return false }
        return errno == EAFNOSUPPORT
    }()

    @Test("kernel mode on a kernel without Bluetooth is unsupported, naming AF_BLUETOOTH and host mode; calls throw the same",
          .enabled(if: kernelHasNoBluetooth))
    func kernelModeWithoutKernelBluetooth() async throws {
        let central = CentralManager(transport: .kernel(hci: 0))
        for await state in central.stateUpdates where state != .unknown {
            #expect(state == .unsupported)
            break
        }
        let peripheral = central.retrievePeripherals(withIdentifiers: [Peripheral.identifier(for: BluetoothAddress(0xC0FFEE000001), type: .random)])[0]
        let error = await #expect(throws: BLEError.self) { try await central.connect(peripheral) }
        guard case .unsupported(let reason) = error else {
            Issue.record("connect threw \(String(describing: error))")
            return
        }
        #expect(reason.contains("AF_BLUETOOTH") && reason.contains("host mode"))
        var scan = central.scanForPeripherals(withServices: nil).makeAsyncIterator()
        await #expect(throws: BLEError.unsupported(reason)) { _ = try await scan.next() }

        let manager = PeripheralManager(transport: .kernel(hci: 0))
        for await state in manager.stateUpdates where state != .unknown {
            #expect(state == .unsupported)
            break
        }
        await #expect(throws: BLEError.unsupported(reason)) {
            try await manager.startAdvertising(AdvertisementData(localName: "x"))
        }
        await manager.close()
        await central.close()
    }

    @Test("a Hardware Error in the middle of a scan: resetting, then poweredOff; the scan fails, a pending call and the link end with Hardware Failure")
    func hardwareErrorDuringScan() async throws {
        // The central's controller is served over H4/TCP, so the test holds it (and the TCP transport is exercised).
        let radio = VirtualRadio(seed: 3, timing: .paced(speed: BLETestbed.defaultSpeed))
        let gatt = try TestDatabase()
        let sensor = try await TestSensor.start(on: radio, database: gatt.database,
                                                advertisingData: [.localName(ADLocalName(bytes: Array("Sensor".utf8)))])
        let served = radio.makeController()
        let listener = try H4TCPListener(host: "127.0.0.1", port: 0)
        let serving = Task {
            for await host in listener.connections { return await HCITransportBridge.run(host: host, controller: served.attach()) }
            return HCITransportBridge.Counts()
        }
        let central = try await BLETestbed.poweredOn(CentralManager(transport: .tcp(host: "127.0.0.1", port: listener.port)))
        let peripheral = central.retrievePeripherals(withIdentifiers: [sensor.identifier])[0]
        try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
        let alerts = try #require(try await peripheral.discoverServices([TestDatabase.custom]).first)
        let characteristic = try #require(try await peripheral.discoverCharacteristics([TestDatabase.longValue], for: alerts).first)
        _ = sensor.hold { $0.first == 0x0A }   // the read below stays pending
        let read = Task { try await peripheral.readValue(for: characteristic) }
        var events = central.events.makeAsyncIterator()
        _ = await events.next()

        var states = central.stateUpdates.makeAsyncIterator()
        #expect(await states.next() == .poweredOn)
        var scan = central.scanForPeripherals(withServices: nil, options: ScanOptions(allowDuplicates: true)).makeAsyncIterator()
        _ = try await scan.next()
        served.injectHardwareError(code: 0x01)
        #expect(await states.next() == .resetting)
        #expect(await states.next() == .poweredOff)
        await #expect(throws: BLEError.poweredOff) { while try await scan.next() != nil {} }
        await #expect(throws: BLEError.disconnected(.hardwareFailure)) { try await read.value }
        guard case .disconnected(_, let error) = await events.next() else { throw TestSensorError.stopped }
        #expect(error == .disconnected(.hardwareFailure))
        #expect(peripheral.state == PeripheralState.disconnected)
        await #expect(throws: BLEError.poweredOff) { try await central.connect(peripheral) }
        await central.close()
        listener.close()
        _ = await serving.value
        radio.shutDown()
    }
}
