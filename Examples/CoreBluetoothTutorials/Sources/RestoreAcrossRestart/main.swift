// State restoration across a restart: an app that follows a heart-rate sensor is killed, and the
// next launch of the same app, with the same restore identifier, gets its peripheral back without
// scanning, connected, with its database and its subscription (docs/state-restoration.md).
//
//   swift run RestoreAcrossRestart                          # both launches, on the virtual radio
//   swift run RestoreAcrossRestart --transport user:hci0    # one launch per run: run it, stop it
//                                                           # (Ctrl-C or kill), run it again
//
// On the virtual radio the sensor lives in this process, so the two launches run here one after
// the other, with a state directory of their own; the first ends as a killed app's manager does
// (its links and its file are left as they were). On a real controller each run is one launch,
// and the state lives in the default directory (~/.local/state/linuxble).

import BLE
import Foundation

// --transport WORD: "virtual" (the default), or a controller: kernel:hciN, user:hciN,
// h4:/dev/ttyX[@BAUD][,rtscts], tcp:HOST:PORT.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.isEmpty || (arguments.count == 2 && arguments[0] == "--transport") else {
    print("usage: RestoreAcrossRestart [--transport \(Transport.forms)]")
    exit(2)
}
let transport: Transport
do {
    transport = try Transport(arguments.last ?? "virtual")
} catch {
    print(error)
    exit(2)
}

let heartRate = BluetoothUUID("180D")!
let measurement = BluetoothUUID("2A37")!

/// One launch of the app. With a state file from an earlier launch, the manager's first event
/// is `.willRestoreState`, and the manager reconnects what was connected, resubscribes what was
/// notifying and resumes the scan, all by itself; the app only takes its peripherals back.
/// Without one, the app scans, connects and subscribes. Either way it then prints three heart
/// rates. `endsByCancelling`: the last launch cancels its connection, leaving nothing to restore;
/// an earlier one ends as if killed.
func launch(_ number: Int, in directory: URL, endsByCancelling: Bool) async throws {
    let options = ManagerOptions(restoreIdentifier: "heart-rate-tutorial", stateDirectory: directory)
    let central = CentralManager(transport: transport, options: options)
    var events = central.events.makeAsyncIterator()
    let stateFile = try require(central.restorationStateFile)
    let peripheral: Peripheral
    if FileManager.default.fileExists(atPath: stateFile.path) {
        peripheral = try await restore(from: &events, launch: number)
    } else {
        print("launch \(number): nothing to restore: scanning for a heart-rate sensor")
        peripheral = try await connectAndSubscribe(central, launch: number)
    }
    let characteristic = try require(peripheral.services?.first { $0.uuid == heartRate }?.characteristics?.first { $0.uuid == measurement })
    print("launch \(number): Heart Rate Measurement notifying: \(characteristic.isNotifying)")
    var values = peripheral.notifications(for: characteristic).makeAsyncIterator()
    for _ in 0..<3 {
        guard let value = try await values.next() else { break }
        print("launch \(number): heart rate: \(value.count > 1 ? Int(value[1]) : 0) bpm")
    }
    if endsByCancelling {
        await central.cancelPeripheralConnection(peripheral)
        print("launch \(number): connection cancelled: nothing is left to restore")
    } else {
        print("launch \(number): the app is killed; its state file keeps the connection and the subscription")
    }
    await central.close()
}

/// The first launch's work: a scan with a service filter, a connection, the Heart Rate service
/// and its characteristics, and notifications of Heart Rate Measurement.
func connectAndSubscribe(_ central: CentralManager, launch number: Int) async throws -> Peripheral {
    var found: Peripheral?
    for try await discovery in central.scanForPeripherals(withServices: [heartRate]) {
        found = discovery.peripheral
        break
    }
    let peripheral = try require(found)
    try await central.connect(peripheral)
    print("launch \(number): connected to \(peripheral.name.map { "\"\($0)\"" } ?? "a heart-rate sensor")")
    let service = try require(try await peripheral.discoverServices([heartRate]).first)
    let characteristic = try require(try await peripheral.discoverCharacteristics([measurement], for: service).first)
    _ = try await peripheral.discoverDescriptors(for: characteristic)
    try await peripheral.setNotifyValue(true, for: characteristic)
    return peripheral
}

/// A later launch: `.willRestoreState` comes first, with the peripherals the last launch had;
/// the manager connects them as they show up (through the controller's Filter Accept List, no
/// scan), with their cached database and their subscriptions written again, then says
/// `.connected`.
func restore(from events: inout AsyncStream<CentralEvent>.Iterator, launch number: Int) async throws -> Peripheral {
    while let event = await events.next() {
        switch event {
        case .willRestoreState(let state):
            let names = state.peripherals.map { "\($0.name.map { "\"\($0)\"" } ?? $0.identifier.uuidString) (\($0.state))" }
            print("launch \(number): willRestoreState: \(names.joined(separator: ", ")); scan to resume: \(state.scan == nil ? "none" : "yes")")
        case .restorationProblem(let problem):
            print("launch \(number): restoration problem: \(problem)")
        case .connected(let peripheral):
            let services = (peripheral.services ?? []).map { $0.uuid.description }
            print("launch \(number): reconnected without scanning, database restored: services \(services.joined(separator: ", "))")
            return peripheral
        case .disconnected:
            continue
        }
    }
    throw BLEError.notConnected
}

/// `value`, or an error saying what was missing.
func require<T>(_ value: T?, _ what: String = #function) throws -> T {
    guard let value else { throw BLEError.invalidArgument("missing: \(what)") }
    return value
}

do {
    if case .virtual(let radio) = transport {
        // Without hardware, a heart-rate sensor on the same virtual radio (VirtualSensor.swift),
        // which outlives the first launch, as a real sensor outlives the app.
        let sensor = try await startVirtualSensor(on: radio)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("RestoreAcrossRestart-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await launch(1, in: directory, endsByCancelling: false)
        try await launch(2, in: directory, endsByCancelling: true)
        await sensor.close()
    } else {
        // One launch per run; stop it with Ctrl-C (or kill it) after the heart rates, and run it again.
        try await launch(1, in: ManagerOptions.defaultStateDirectory, endsByCancelling: false)
    }
} catch {
    print("error: \(error)")
    exit(1)
}
