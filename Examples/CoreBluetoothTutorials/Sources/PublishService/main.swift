// A peripheral that publishes a service with one characteristic a central can read, write and
// subscribe to, and advertises its name and service UUID: Core Bluetooth's CBPeripheralManager
// with add(_:), startAdvertising(_:), peripheralManager(_:didReceiveRead:),
// peripheralManager(_:didReceiveWrite:), peripheralManager(_:central:didSubscribeTo:) and
// updateValue(_:for:onSubscribedCentrals:), with streams for the delegate.
//
//   swift run PublishService                          # on the virtual radio, with a demo central on it
//   swift run PublishService --transport user:hci0    # a real controller: serves until interrupted

import BLE
import Foundation

/// The example's service and its one characteristic, a short text message (128-bit UUIDs: a
/// service of one's own has no SIG-assigned number).
let messageService = BluetoothUUID("7D2EA000-8C1B-4F5E-9A3D-6B0C1E2F3A4B")!
let messageCharacteristic = BluetoothUUID("7D2EA001-8C1B-4F5E-9A3D-6B0C1E2F3A4B")!

// --transport WORD: "virtual" (the default), or a controller: kernel:hciN, user:hciN,
// h4:/dev/ttyX[@BAUD][,rtscts], tcp:HOST:PORT.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.isEmpty || (arguments.count == 2 && arguments[0] == "--transport") else {
    print("usage: PublishService [--transport \(Transport.forms)]")
    exit(2)
}
let transport: Transport
do {
    transport = try Transport(arguments.last ?? "virtual")
} catch {
    print(error)
    exit(2)
}

/// What the delegate's callbacks become: two streams, merged here into one loop.
enum Callback: Sendable {
    case request(PeripheralRequest)
    case subscription(SubscriptionEvent)
}

do {
    // CBPeripheralManager(delegate:queue:); stateUpdates stands for peripheralManagerDidUpdateState(_:).
    let manager = PeripheralManager(transport: transport)
    for await state in manager.stateUpdates where state != .unknown {
        print("peripheral: \(state)")
        break
    }
    // Unless powered on, add(_:) below throws the reason, with what to do about it.

    // A nil value makes the characteristic dynamic: every read and write comes to us through
    // manager.requests. (A characteristic with a value is answered by the stack itself.) Notify
    // gets its Client Characteristic Configuration descriptor from the stack.
    let message = MutableCharacteristic(type: messageCharacteristic, properties: [.read, .write, .notify], value: nil,
                                        permissions: [.readable, .writeable])
    let service = MutableService(type: messageService, primary: true)
    service.characteristics = [message]
    try await manager.add(service)                       // peripheralManager(_:didAdd:error:) is the return
    print("peripheral: published \(service) with \(message)")

    // Flags (3 octets), the Complete Local Name (18) and the 128-bit service UUID (18) need 39
    // octets: more than legacy advertising's 31, within extended advertising's room. A controller
    // with legacy advertising only refuses them with a typed error, saying how many octets it had.
    do throws(BLEError) {
        try await manager.startAdvertising(AdvertisementData(localName: "LinuxBLE Message", serviceUUIDs: [messageService]))
        print("peripheral: advertising \"LinuxBLE Message\" with service \(messageService)")
    } catch {
        guard case .advertisingDataTooLong(let needed, let available) = error else { throw error }
        try await manager.startAdvertising(AdvertisementData(serviceUUIDs: [messageService]))
        print("peripheral: the name and the service need \(needed) octets, the controller takes \(available):",
              "advertising service \(messageService) without the name")
    }

    // On the virtual radio, a central to talk to (DemoCentral.swift); on hardware, whoever connects.
    var demo: Task<Void, any Error>?
    if case .virtual(let radio) = transport {
        demo = Task { try await runDemoCentral(on: radio) }
    }

    let (callbacks, input) = AsyncStream.makeStream(of: Callback.self)
    Task { for await request in manager.requests { input.yield(.request(request)) } }
    Task { for await event in manager.subscriptions { input.yield(.subscription(event)) } }

    var value = Data("hello".utf8)
    for await callback in callbacks {
        var finished = false
        switch callback {
        case .request(.read(let request)):
            // peripheralManager(_:didReceiveRead:): fill in the value from the request's offset (a
            // long read asks again from further on), then respond once.
            guard request.offset <= value.count else {
                manager.respond(to: request, withResult: .invalidOffset)
                continue
            }
            let part = value.subdata(in: request.offset..<value.count)   // the stack cuts it to fit the ATT MTU
            request.value = part
            print("peripheral: read request at offset \(request.offset), answered \"\(String(decoding: part, as: UTF8.self))\"")
            manager.respond(to: request, withResult: .success)

        case .request(.write(let requests)):
            // peripheralManager(_:didReceiveWrite:): one response covers every request of the batch.
            guard let written = applying(requests, to: value) else {
                manager.respond(to: requests[0], withResult: .invalidOffset)
                continue
            }
            value = written
            print("peripheral: write request, the message is now \"\(String(decoding: value, as: UTF8.self))\"")
            manager.respond(to: requests[0], withResult: .success)
            await notify(value, for: message, on: manager)   // every subscribed central hears of it

        case .subscription(.subscribed(let central, let characteristic)):
            // peripheralManager(_:central:didSubscribeTo:): greet the new subscriber with the current value.
            print("peripheral: a central subscribed to \(characteristic.uuid); each notification carries up to",
                  "\(central.maximumUpdateValueLength) octets to it")
            await notify(value, for: characteristic, on: manager, centrals: [central])

        case .subscription(.unsubscribed(_, let characteristic)):
            // peripheralManager(_:central:didUnsubscribeFrom:); a central whose link drops unsubscribes too.
            print("peripheral: a central unsubscribed from \(characteristic.uuid)")
            finished = demo != nil                       // the demo central's last step: the example ends
        }
        if finished { break }
    }
    try await demo?.value
    await manager.close()
} catch {
    print("error: \(error)")
    exit(1)
}

/// `value` with each write of `requests` applied at its offset; nil when an offset lies beyond
/// the value (Invalid Offset, Core v5.4, Vol 3, Part F, 3.4.6.1).
func applying(_ requests: [ATTRequest], to value: Data) -> Data? {
    var result = value
    for request in requests {
        guard request.offset <= result.count else { return nil }
        result = result.prefix(request.offset) + (request.value ?? Data())
    }
    return result
}

/// Sends `value` to the subscribers of `characteristic` (or to those of `centrals`). When the
/// transmit queue is full, updateValue returns false; readyToUpdateSubscribers (Core Bluetooth's
/// peripheralManagerIsReady(toUpdateSubscribers:)) says when to try again.
func notify(_ value: Data, for characteristic: MutableCharacteristic, on manager: PeripheralManager, centrals: [Central]? = nil) async {
    var ready = manager.readyToUpdateSubscribers.makeAsyncIterator()
    while !manager.updateValue(value, for: characteristic, onSubscribedCentrals: centrals) {
        guard await ready.next() != nil else { return }   // the manager closed
    }
}
