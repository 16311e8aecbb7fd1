import Glibc
@testable import BLE
import BLECore
import HCI
import Host
import LinuxBluetooth
import Synchronization
import BLETestSupport
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

    @Test("a Hardware Error in the middle of a scan: resetting, then poweredOn again on the reset controller; the scan fails, a pending call and the link end with Hardware Failure, and the peripheral connects again")
    func hardwareErrorDuringScan() async throws {
        let rig = try await ServedController.make(seed: 3)
        let central = try await rig.central()
        let peripheral = central.retrievePeripherals(withIdentifiers: [rig.sensor.identifier])[0]
        try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
        let firstLink = try await rig.sensor.nextLink()
        let alerts = try #require(try await peripheral.discoverServices([TestDatabase.custom]).first)
        let characteristic = try #require(try await peripheral.discoverCharacteristics([TestDatabase.longValue], for: alerts).first)
        _ = rig.sensor.hold { $0.first == 0x0A }   // the read below stays pending
        let read = Task { try await peripheral.readValue(for: characteristic) }
        var events = central.events.makeAsyncIterator()
        _ = await events.next()

        var states = central.stateUpdates.makeAsyncIterator()
        #expect(await states.next() == .poweredOn)
        var scan = central.scanForPeripherals(withServices: nil, options: ScanOptions(allowDuplicates: true)).makeAsyncIterator()
        _ = try await scan.next()
        rig.served.injectHardwareError(code: 0x01)
        #expect(await states.next() == .resetting)
        #expect(await states.next() == .poweredOn)
        await #expect(throws: BLEError.poweredOff) { while try await scan.next() != nil {} }
        await #expect(throws: BLEError.disconnected(.hardwareFailure)) { try await read.value }
        guard case .disconnected(_, let error) = await events.next() else { throw TestSensorError.stopped }
        #expect(error == .disconnected(.hardwareFailure))
        #expect(peripheral.state == PeripheralState.disconnected)

        // Back on the reset controller: the sensor connects again, and sees the same (static
        // random) address as before.
        rig.sensor.release()   // its side of the old link times out (the reset silenced ours), then it advertises again
        try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
        #expect(try await rig.sensor.nextLink().peerAddress == firstLink.peerAddress)
        let again = try #require(try await peripheral.discoverServices([TestDatabase.custom]).first)
        let value = try #require(try await peripheral.discoverCharacteristics([TestDatabase.longValue], for: again).first)
        #expect(try await peripheral.readValue(for: value).count > 0)
        await central.close()
        await rig.close()
    }

    @Test("a controller that cannot be brought up again after a Hardware Error: resetting, then poweredOff; a call made meanwhile waits, then throws poweredOff")
    func hardwareErrorWithoutRecovery() async throws {
        let rig = try await ServedController.make(seed: 4)
        let central = try await rig.central()
        var states = central.stateUpdates.makeAsyncIterator()
        #expect(await states.next() == .poweredOn)
        // From the Hardware Error on, the controller hears no command: the HCI_Reset that
        // follows goes unanswered (2 s, the command timeout), so bring-up fails.
        rig.mute()
        rig.served.injectHardwareError(code: 0x02)
        #expect(await states.next() == .resetting)
        let peripheral = central.retrievePeripherals(withIdentifiers: [rig.sensor.identifier])[0]
        let waiting = Task { () -> BLEError? in
            do throws(BLEError) { try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20))); return nil } catch { return error }
        }
        #expect(await states.next() == .poweredOff)
        #expect(await waiting.value == .poweredOff)
        await central.close()
        await rig.close()
    }

    @Test("a closed manager keeps the state it closed in: a bring-up or reset ending after the close changes nothing")
    func stateAfterClose() async throws {
        let broadcast = StateBroadcast()
        broadcast.set(.resetting)
        broadcast.set(.poweredOff)
        broadcast.finish()
        broadcast.set(.poweredOn)
        #expect(broadcast.current == .poweredOff)
        broadcast.set(.resetting)
        #expect(broadcast.current == .poweredOff)
        await #expect(throws: BLEError.poweredOff) { try await broadcast.poweredOn() }
    }

    @Test("a call waiting for bring-up stops waiting with cancelled when its task is cancelled; the others still wait, and a cancelled call once powered on goes ahead")
    func cancelledWhileWaitingForBringUp() async throws {
        let broadcast = StateBroadcast()
        let cancelled = Task { try await broadcast.poweredOn() }
        let patient = Task { try await broadcast.poweredOn() }
        #expect(await eventually { broadcast.waiterCount == 2 })
        cancelled.cancel()
        await #expect(throws: BLEError.cancelled) { try await cancelled.value }
        #expect(broadcast.waiterCount == 1)
        broadcast.set(.poweredOn)
        try await patient.value
        try await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await broadcast.poweredOn()
        }.value
    }
}
