// One program, two roles, picked at start: with --role central it is a CentralManager that
// finds a greeter and talks to it; with --role peripheral it is a PeripheralManager that is the
// greeter. Core Bluetooth apps that can be either (a chat, a file exchange) make the same choice
// between CBCentralManager and CBPeripheralManager when they start.
//
//   swift run PickRole --role central                         # on the virtual radio, with the peripheral role beside it
//   swift run PickRole --role peripheral                      # the same, the other way round
//   swift run PickRole --role peripheral --transport user:hci0   # on two machines with real controllers:
//   swift run PickRole --role central --transport user:hci0      #   one of each

import BLE
import Foundation

/// The two roles.
enum Role: String {
    case central, peripheral
}

// --role central|peripheral (central by default); --transport WORD: "virtual" (the default), or
// a controller: kernel:hciN, user:hciN, h4:/dev/ttyX[@BAUD][,rtscts], tcp:HOST:PORT.
var role = Role.central
var transportWord = "virtual"
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    switch (option, arguments.popFirst()) {
    case ("--role", let word?) where Role(rawValue: word) != nil: role = Role(rawValue: word)!
    case ("--transport", let word?): transportWord = word
    default:
        say("usage: PickRole [--role central|peripheral] [--transport \(Transport.forms)]")
        exit(2)
    }
}
let transport: Transport
do {
    transport = try Transport(transportWord)
} catch {
    say("\(error)")
    exit(2)
}

do {
    // On the virtual radio, the other role runs beside the chosen one, on the same radio; with a
    // real controller, it is another device's.
    var radio: VirtualRadio?
    if case .virtual(let shared) = transport { radio = shared }
    say("role: \(role)\(radio == nil ? "" : "; the \(role == .central ? "peripheral" : "central") role beside it on the virtual radio")")

    switch (role, radio) {
    case (.central, nil):
        try await runCentral(on: transport)
    case (.peripheral, nil):
        await serve(try await startPeripheral(on: transport))       // until interrupted
    case (_, let radio?):
        // The peripheral role first (the central looks for its advertising), then the central.
        let greeter = try await startPeripheral(on: .virtual(radio))
        let serving = Task { await serve(greeter) }
        try await runCentral(on: .virtual(radio))
        serving.cancel()
        await greeter.close()
    }
} catch {
    say("error: \(error)")
    exit(1)
}
