// What both roles agree on: the greeting service and its characteristic.

import BLE
import Foundation

/// The greeting service (a 128-bit UUID of the example's own).
let greetingService = BluetoothUUID("9E1C0000-2B3A-4D5E-8F60-718293A4B5C6")!
/// Its one characteristic: read for the peripheral's greeting, written with the central's.
let greetingCharacteristic = BluetoothUUID("9E1C0001-2B3A-4D5E-8F60-718293A4B5C6")!

/// Prints `line` on standard output at once, unbuffered: the peripheral role runs until it is
/// stopped, and its lines must reach a log file or a pipe as they happen (print's output waits
/// for a full buffer there, and a stopped process loses it).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
