import BLECore

/// Seeds written here from the specification for what the fixtures hold little of: LE signaling
/// commands and SMP pairing commands (the project's captures pair rarely and seldom signal), and
/// H4 streams with garbage between packets.
enum BuiltSeeds {
    static func hex(_ text: String) -> [UInt8] { Hex.decode(text) ?? [] }

    static let all: [String: [[UInt8]]] = [
        "FuzzL2CAPSignaling": [
            "12 01 0800 1800 2800 0000 f401",           // Connection Parameter Update Request, 10-30 ms, timeout 5 s
            "13 01 0200 0000",                          // Connection Parameter Update Response, accepted
            "01 02 0200 0000",                          // Command Reject, not understood
            "01 03 0400 0200 1700",                     // Command Reject, signaling MTU exceeded (23)
            "06 04 0400 4000 4100",                     // Disconnection Request
            "14 05 0a00 8000 4000 f700 f700 0a00",      // LE Credit Based Connection Request, SPSM 0x0080
            "15 05 0a00 0000 0000 0000 0000 0200",      // LE Credit Based Connection Response, refused
            "16 06 0400 4000 0100",                     // Flow Control Credit Indication
            "17 07 0c00 2700 4000 4000 0a00 4000 4100", // Credit Based Connection Request, two channels
            "19 08 0800 4000 4000 4000 4000",           // Credit Based Reconfigure Request
            "0a 09 0200 0200",                          // Information Request (BR/EDR only)
        ].map(hex),
        "FuzzSMP": [
            "01 03 00 2d 10 07 07",                     // Pairing Request: NoInputNoOutput, bonding, SC, MITM
            "02 03 00 2d 10 07 07",                     // Pairing Response
            "03 " + String(repeating: "a5", count: 16), // Pairing Confirm
            "04 " + String(repeating: "5a", count: 16), // Pairing Random
            "05 08",                                    // Pairing Failed: unspecified
            "06 " + String(repeating: "11", count: 16), // Encryption Information
            "07 3412 0102030405060708",                 // Central Identification
            "08 " + String(repeating: "22", count: 16), // Identity Information
            "09 01 eeffc0eeffc0",                       // Identity Address Information, random
            "0a " + String(repeating: "33", count: 16), // Signing Information
            "0b 0d",                                    // Security Request
            "0c " + String(repeating: "44", count: 64), // Pairing Public Key
            "0d " + String(repeating: "55", count: 16), // Pairing DHKey Check
            "0e 01",                                    // Keypress Notification
        ].map(hex),
        "FuzzH4Deframer": [
            "00 ff ff 04 0e 04 01 03 0c 00 00 02 40 20 05 00 01 00 04 00 1e",   // garbage, an event, garbage, ACL
            "03 04 3e 0c 02 01 00 00 eeffc0eeffc0 00 c5",                       // an advertising report, no data
            "01 01 03 0c 00 05 01 00 01 00 ff",                                 // a command, an ISO header, garbage
        ].map(hex),
    ]
}
