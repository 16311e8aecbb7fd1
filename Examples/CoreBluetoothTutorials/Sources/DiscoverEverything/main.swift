// Discovers everything a peripheral serves: every service (and what it includes), every
// characteristic and descriptor; reads every value that can be read, subscribes to every
// characteristic that notifies or indicates, and listens for a second. Core Bluetooth's
// discoverServices(nil), discoverIncludedServices(_:for:), discoverCharacteristics(nil, for:),
// discoverDescriptors(for:), readValue(for:) and setNotifyValue(_:for:), each an async call that
// returns what peripheral(_:didDiscoverServices:) and its siblings would have delivered.
//
//   swift run DiscoverEverything                          # on the virtual radio, with a sensor on it
//   swift run DiscoverEverything --transport user:hci0    # a real controller: the first heart-rate sensor

import BLE
import Foundation

// --transport WORD: "virtual" (the default), or a controller: kernel:hciN, user:hciN,
// h4:/dev/ttyX[@BAUD][,rtscts], tcp:HOST:PORT.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.isEmpty || (arguments.count == 2 && arguments[0] == "--transport") else {
    print("usage: DiscoverEverything [--transport \(Transport.forms)]")
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
    // Without hardware, a sensor on the same virtual radio (VirtualSensor.swift).
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
    print("connected to \(peripheral.name.map { "\"\($0)\"" } ?? "a peripheral"), ATT MTU \(peripheral.mtu)")

    // discoverServices(nil): every primary service, in handle order (this sensor's GATT server
    // puts its own Generic Access, 1800, and Generic Attribute, 1801, after the application's).
    var notifying: [Characteristic] = []
    for service in try await peripheral.discoverServices() {
        print(service)
        for included in try await peripheral.discoverIncludedServices(nil, for: service) {
            print("  includes \(included)")
        }
        for characteristic in try await peripheral.discoverCharacteristics(nil, for: service) {
            var line = "  \(characteristic)"
            if characteristic.properties.contains(.read) { line += " = " + (await read(characteristic, of: peripheral)) }
            print(line)
            for descriptor in try await peripheral.discoverDescriptors(for: characteristic) {
                print("    \(descriptor) = \(show(try await peripheral.readValue(for: descriptor)))")
            }
            if !characteristic.properties.isDisjoint(with: [.notify, .indicate]) { notifying.append(characteristic) }
        }
    }

    // Subscribe to each that notifies or indicates. Each stream is opened before its
    // setNotifyValue(true, for:), so no value is missed; values never mix with read results.
    let streams = notifying.map { peripheral.notifications(for: $0) }
    for characteristic in notifying {
        try await peripheral.setNotifyValue(true, for: characteristic)
        print("subscribed to \(characteristic.uuid.descriptionWithName), isNotifying \(characteristic.isNotifying)")
    }

    // Listen for a second, then turn each off: its stream then finishes with the values it
    // brought, shown characteristic by characteristic.
    let received = try await withThrowingTaskGroup(of: (Int, [Data]).self) { group in
        for (index, stream) in streams.enumerated() {
            group.addTask {
                var values: [Data] = []
                for try await value in stream { values.append(value) }
                return (index, values)
            }
        }
        try await Task.sleep(for: .seconds(1))
        for characteristic in notifying { try await peripheral.setNotifyValue(false, for: characteristic) }
        var received = [[Data]](repeating: [], count: streams.count)
        for try await (index, values) in group { received[index] = values }
        return received
    }
    print("in a second:")
    for (characteristic, values) in zip(notifying, received) {
        print("  \(characteristic.uuid.descriptionWithName): \(values.isEmpty ? "nothing" : values.map(show).joined(separator: ", "))")
    }

    await central.cancelPeripheralConnection(peripheral)
    await central.close()
    await sensor?.close()
} catch {
    print("error: \(error)")
    exit(1)
}

/// The value of `characteristic`, shown; or why the server refused it (encryption,
/// authorization, ...: the error is typed).
func read(_ characteristic: Characteristic, of peripheral: Peripheral) async -> String {
    do {
        return show(try await peripheral.readValue(for: characteristic))
    } catch .att(let code, _) {
        return "read refused: \(code)"
    } catch {
        return "read failed: \(error)"
    }
}

/// `value` in hexadecimal, and as text too when it is two or more printable ASCII characters.
func show(_ value: Data) -> String {
    guard !value.isEmpty else { return "(empty)" }
    let hex = value.map { String(format: "%02X", $0) }.joined(separator: " ")
    let printable = value.count >= 2 && value.allSatisfy { (0x20...0x7E).contains($0) }
    return printable ? "\(hex) \"\(String(decoding: value, as: UTF8.self))\"" : hex
}
