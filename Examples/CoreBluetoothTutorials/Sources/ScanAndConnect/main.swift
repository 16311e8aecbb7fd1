// A central that scans for peripherals offering one service, and connects to the first it finds:
// Core Bluetooth's scanForPeripherals(withServices:options:), centralManager(_:didDiscover:...),
// connect(_:options:) and centralManager(_:didConnect:), with async calls and streams for the
// delegate.
//
//   swift run ScanAndConnect                          # on the virtual radio, with two peripherals on it
//   swift run ScanAndConnect --transport user:hci0    # a real controller: finds any heart-rate sensor

import BLE
import Foundation

/// The Heart Rate service (Bluetooth SIG assigned number 0x180D).
let heartRateService = BluetoothUUID("180D")!

// --transport WORD: "virtual" (the default), or a controller: kernel:hciN, user:hciN,
// h4:/dev/ttyX[@BAUD][,rtscts], tcp:HOST:PORT.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.isEmpty || (arguments.count == 2 && arguments[0] == "--transport") else {
    print("usage: ScanAndConnect [--transport \(Transport.forms)]")
    exit(2)
}
let transport: Transport
do {
    transport = try Transport(arguments.last ?? "virtual")
} catch {
    print(error)
    exit(2)
}

do {
    // Without hardware, something must advertise: a heart-rate sensor and a thermometer on the
    // same virtual radio (VirtualPeripherals.swift). Only the first offers the Heart Rate service.
    // Kept until the end (a released manager ends its device).
    var virtualPeripherals: [PeripheralManager] = []
    if case .virtual(let radio) = transport {
        virtualPeripherals = try await startVirtualPeripherals(on: radio)
    }

    // CBCentralManager(delegate:queue:). The manager opens its transport and brings the
    // controller up by itself; stateUpdates stands for centralManagerDidUpdateState(_:).
    let central = CentralManager(transport: transport)
    // A call made before then waits for the bring-up; when the manager is not powered on, it
    // throws the reason (unsupported, unauthorized, poweredOff) with what to do about it.
    for await state in central.stateUpdates where state != .unknown {
        print("central: \(state)")
        break
    }

    // The filter runs on every advertisement heard: only peripherals listing 180D in their
    // advertising data (or scan response) come out of the stream, so the thermometer never does.
    // Each Discovery is one centralManager(_:didDiscover:advertisementData:rssi:).
    print("central: scanning for peripherals with the Heart Rate service (180D)")
    var found: Peripheral?
    for try await discovery in central.scanForPeripherals(withServices: [heartRateService]) {
        let advertised = discovery.advertisementData
        print("central: discovered \(advertised.localName.map { "\"\($0)\"" } ?? "a peripheral without a name"),",
              "services \(advertised.serviceUUIDs.map(\.descriptionWithName).joined(separator: ", ")),",
              advertised.isConnectable ? "connectable" : "not connectable")
        guard advertised.isConnectable else { continue }
        found = discovery.peripheral
        break                          // leaving the loop stops the scan, as stopScan() does
    }
    guard let peripheral = found else {
        print("central: the scan ended without a connectable peripheral")
        exit(1)
    }

    // connect(_:options:) returns once the link is up and the ATT MTU exchanged; it times out
    // (Core Bluetooth's never does) and throws BLEError.connectionTimeout.
    var events = central.events.makeAsyncIterator()
    try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(10)))
    // centralManager(_:didConnect:) arrives on events too, for code that watches every peripheral.
    if case .connected(let connected) = await events.next() {
        print("central: connected to \(connected.name.map { "\"\($0)\"" } ?? "the peripheral"), state \(connected.state),",
              "ATT MTU \(connected.mtu) octets")
    }

    // What a tutorial does next: discoverServices([180D]), then its characteristics.
    for service in try await peripheral.discoverServices([heartRateService]) {
        print("central: \(service)")
        for characteristic in try await peripheral.discoverCharacteristics(nil, for: service) {
            print("central:   \(characteristic)")
        }
    }

    // cancelPeripheralConnection(_:) returns once the link has ended; events reports it
    // (centralManager(_:didDisconnectPeripheral:error:)) with no error, since we asked for it.
    await central.cancelPeripheralConnection(peripheral)
    if case .disconnected(let gone, let error) = await events.next() {
        print("central: disconnected, state \(gone.state), error: \(error.map { "\($0)" } ?? "none")")
    }
    await central.close()
    for manager in virtualPeripherals { await manager.close() }
} catch {
    print("error: \(error)")
    exit(1)
}
