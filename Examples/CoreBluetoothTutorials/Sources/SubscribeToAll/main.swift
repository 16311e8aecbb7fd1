// A notification manager (NotificationManager.swift) at work: it subscribes to everything a
// peripheral notifies or indicates, the values of all of them come out of one stream, and one
// call unsubscribes from all of them.
//
//   swift run SubscribeToAll                          # on the virtual radio, with a sensor on it
//   swift run SubscribeToAll --transport user:hci0    # a real controller: the first heart-rate sensor

import BLE
import Foundation

// --transport WORD: "virtual" (the default), or a controller: kernel:hciN, user:hciN,
// h4:/dev/ttyX[@BAUD][,rtscts], tcp:HOST:PORT.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.isEmpty || (arguments.count == 2 && arguments[0] == "--transport") else {
    print("usage: SubscribeToAll [--transport \(Transport.forms)]")
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
    // Without hardware, a sensor on the same virtual radio (VirtualSensor.swift) that sends a
    // value every 100 ms on each characteristic a central subscribes to.
    var sensor: PeripheralManager?
    if case .virtual(let radio) = transport {
        sensor = try await startVirtualSensor(on: radio)
    }

    // The first call waits for the manager to bring its controller up, and throws the reason
    // (unsupported, unauthorized, poweredOff) when it could not.
    let central = CentralManager(transport: transport)
    var found: Peripheral?
    for try await discovery in central.scanForPeripherals(withServices: [BluetoothUUID("180D")!]) {
        found = discovery.peripheral
        break
    }
    guard let peripheral = found else {
        print("the scan ended without finding a heart-rate sensor")
        exit(1)
    }
    try await central.connect(peripheral)
    print("connected to \(peripheral.name.map { "\"\($0)\"" } ?? "a peripheral")")

    let notifications = NotificationManager(peripheral: peripheral)
    let values = try await notifications.subscribeToAll()
    let subscribed = await notifications.subscribed
    print("subscribed to \(subscribed.count) characteristics:")
    for characteristic in subscribed { print("  \(characteristic), isNotifying \(characteristic.isNotifying)") }

    // Gather everything for a second, then unsubscribe from all: the stream then finishes.
    let gathering = Task {
        var received: [Characteristic: [Data]] = [:]
        for try await notified in values { received[notified.characteristic, default: []].append(notified.value) }
        return received
    }
    try await Task.sleep(for: .seconds(1))
    try await notifications.unsubscribeFromAll()
    let received = try await gathering.value
    print("unsubscribed from all; the stream finished. The first two values of each:")
    for characteristic in subscribed {
        let first = (received[characteristic] ?? []).prefix(2).map { $0.map { String(format: "%02X", $0) }.joined(separator: " ") }
        print("  \(characteristic.uuid.descriptionWithName): \(first.isEmpty ? "none" : first.joined(separator: ", ")),",
              "isNotifying \(characteristic.isNotifying)")
    }

    await central.cancelPeripheralConnection(peripheral)
    await central.close()
    await sensor?.close()
} catch {
    print("error: \(error)")
    exit(1)
}
