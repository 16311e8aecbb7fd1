// A connection class written with async/await (HeartRateConnection.swift) used as an app would:
// connect, read, follow the heart rate, write, disconnect, then reconnect by the saved identifier
// without scanning; and a connection attempt that times out.
//
//   swift run AsyncConnection                          # on the virtual radio, with a sensor on it
//   swift run AsyncConnection --transport user:hci0    # a real controller: the first heart-rate sensor

import BLE
import Foundation

// --transport WORD: "virtual" (the default), or a controller: kernel:hciN, user:hciN,
// h4:/dev/ttyX[@BAUD][,rtscts], tcp:HOST:PORT.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.isEmpty || (arguments.count == 2 && arguments[0] == "--transport") else {
    print("usage: AsyncConnection [--transport \(Transport.forms)]")
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
    // Without hardware, a heart-rate sensor on the same virtual radio (VirtualSensor.swift).
    var sensor: PeripheralManager?
    if case .virtual(let radio) = transport {
        sensor = try await startVirtualSensor(on: radio)
    }

    // The first call waits for the manager to bring its controller up, and throws the reason
    // (unsupported, unauthorized, poweredOff) when it could not.
    let central = CentralManager(transport: transport)

    let connection = HeartRateConnection(central: central)
    let peripheral = try await connection.connect(scanningFor: .seconds(10))
    print("connected to \(peripheral.name.map { "\"\($0)\"" } ?? "a heart-rate sensor")")
    print("body sensor location: \(try await connection.bodySensorLocation())")
    var rates = try await connection.heartRates().makeAsyncIterator()
    for _ in 0..<3 {
        guard let rate = try await rates.next() else { break }
        print("heart rate: \(rate) bpm")
    }
    try await connection.resetEnergyExpended()
    print("energy expended reset")

    // The identifier is stable (derived from the sensor's identity address): an app saves it,
    // and on a later run reconnects without scanning.
    let saved = peripheral.identifier
    await connection.disconnect()
    print("disconnected")
    do {
        _ = try await connection.bodySensorLocation()
    } catch {
        print("reading now throws: \(error)")
    }

    try await connection.reconnect(to: saved)
    print("reconnected by identifier, without scanning: the same Peripheral object: \(await connection.peripheral === peripheral)")
    print("body sensor location: \(try await connection.bodySensorLocation())")
    // The old subscription ended with the old link: subscribe again.
    rates = try await connection.heartRates().makeAsyncIterator()
    for _ in 0..<3 {
        guard let rate = try await rates.next() else { break }
        print("heart rate: \(rate) bpm")
    }
    await connection.disconnect()

    // A sensor that is not in range: connect(_:options:) gives up after its timeout (30 s unless
    // told otherwise), cancelling the attempt at the controller.
    let elsewhere = Peripheral.identifier(for: BluetoothAddress("C0:FF:EE:00:00:01")!, type: .random)
    do {
        try await HeartRateConnection(central: central).reconnect(to: elsewhere, timeout: .milliseconds(500))
    } catch {
        print("connecting to a sensor out of range: \(error)")
    }

    await central.close()
    await sensor?.close()
} catch {
    print("error: \(error)")
    exit(1)
}
