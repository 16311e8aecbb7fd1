// The central role: find a greeter, read its greeting, write one back, and leave.

import BLE
import Foundation

/// Runs the central role on `transport` until it has exchanged greetings with one greeter.
func runCentral(on transport: Transport) async throws {
    let central = CentralManager(transport: transport)
    for await state in central.stateUpdates where state != .unknown {
        say("central: \(state)")
        break
    }
    var found: Peripheral?
    for try await discovery in central.scanForPeripherals(withServices: [greetingService]) {
        say("central: found \"\(discovery.advertisementData.localName ?? "?")\"")
        found = discovery.peripheral
        break
    }
    guard let peripheral = found else {
        say("central: the scan ended without finding a greeter")
        return
    }
    try await central.connect(peripheral)
    guard let service = try await peripheral.discoverServices([greetingService]).first,
          let greeting = try await peripheral.discoverCharacteristics([greetingCharacteristic], for: service).first else {
        throw BLEError.serviceNotFound(greetingService)
    }
    say("central: connected")
    let heard = try await peripheral.readValue(for: greeting)
    say("central: read \"\(String(decoding: heard, as: UTF8.self))\"")
    try await peripheral.writeValue(Data("hello from the central".utf8), for: greeting, type: .withResponse)
    say("central: wrote \"hello from the central\"")
    await central.cancelPeripheralConnection(peripheral)
    say("central: disconnected")
    await central.close()
}
