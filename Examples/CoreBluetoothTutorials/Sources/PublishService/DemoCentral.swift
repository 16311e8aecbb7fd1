// The central that uses this example's peripheral when it runs on the virtual radio: it finds
// the service, reads the message, subscribes, writes a new message, and unsubscribes, printing
// what it sees beside what the peripheral prints.

import BLE
import Foundation

/// Runs the demo central on `radio` against the peripheral advertising ``messageService``.
func runDemoCentral(on radio: VirtualRadio) async throws {
    let central = CentralManager(transport: .virtual(radio))
    for await state in central.stateUpdates where state != .unknown { break }
    var found: Peripheral?
    for try await discovery in central.scanForPeripherals(withServices: [messageService]) {
        print("central: found \"\(discovery.advertisementData.localName ?? "?")\"")
        found = discovery.peripheral
        break
    }
    guard let peripheral = found else { throw BLEError.notConnected }
    try await central.connect(peripheral)
    guard let service = try await peripheral.discoverServices([messageService]).first,
          let message = try await peripheral.discoverCharacteristics([messageCharacteristic], for: service).first else {
        throw BLEError.serviceNotFound(messageService)
    }
    print("central: connected; the service has \(message)")

    print("central: read \"\(text(try await peripheral.readValue(for: message)))\"")

    // Open the stream before subscribing, so that no value is missed.
    var notifications = peripheral.notifications(for: message).makeAsyncIterator()
    try await peripheral.setNotifyValue(true, for: message)
    if let value = try await notifications.next() { print("central: notified \"\(text(value))\"") }

    try await peripheral.writeValue(Data("hello, peripheral".utf8), for: message, type: .withResponse)
    print("central: wrote \"hello, peripheral\"")
    if let value = try await notifications.next() { print("central: notified \"\(text(value))\"") }
    print("central: read \"\(text(try await peripheral.readValue(for: message)))\"")

    print("central: turning notifications off")
    try await peripheral.setNotifyValue(false, for: message)
    await central.cancelPeripheralConnection(peripheral)
    await central.close()
}

/// `data` as UTF-8 text.
func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
