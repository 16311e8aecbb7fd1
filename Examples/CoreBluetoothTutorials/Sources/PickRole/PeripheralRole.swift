// The peripheral role: a greeter that publishes the greeting service, advertises it, answers
// reads with its greeting and prints what centrals write.

import BLE
import Foundation

/// Starts the peripheral role on `transport`: returns once it advertises. Serve it with
/// ``serve(_:)``.
///
/// - Throws: what adding the service and advertising throw; when the manager is not powered
///   on, the reason (`BLEError.unsupported`, `.unauthorized`, `.poweredOff`).
func startPeripheral(on transport: Transport) async throws -> PeripheralManager {
    let manager = PeripheralManager(transport: transport)
    for await state in manager.stateUpdates where state != .unknown {
        say("peripheral: \(state)")
        break
    }
    // A nil value: reads and writes come to the app through manager.requests.
    let greeting = MutableCharacteristic(type: greetingCharacteristic, properties: [.read, .write], value: nil,
                                         permissions: [.readable, .writeable])
    let service = MutableService(type: greetingService, primary: true)
    service.characteristics = [greeting]
    try await manager.add(service)
    // Flags (3 octets), the name (9) and the 128-bit service UUID (18): 30 octets, within legacy
    // advertising's 31.
    try await manager.startAdvertising(AdvertisementData(localName: "Greeter", serviceUUIDs: [greetingService]))
    say("peripheral: advertising \"Greeter\"")
    return manager
}

/// Answers the requests of `manager`'s centrals until the calling task is cancelled or the
/// manager closes.
func serve(_ manager: PeripheralManager) async {
    let greeting = Data("hello from the peripheral".utf8)
    for await request in manager.requests {
        switch request {
        case .read(let read):
            guard read.offset <= greeting.count else {
                manager.respond(to: read, withResult: .invalidOffset)
                continue
            }
            read.value = greeting.subdata(in: read.offset..<greeting.count)
            say("peripheral: a central reads the greeting")
            manager.respond(to: read, withResult: .success)
        case .write(let writes):
            let text = writes.compactMap(\.value).reduce(Data(), +)
            say("peripheral: a central wrote \"\(String(decoding: text, as: UTF8.self))\"")
            manager.respond(to: writes[0], withResult: .success)
        }
    }
}
