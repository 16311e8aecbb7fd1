// swift-tools-version: 6.0
//
// LinuxBLEFuzz: libFuzzer harnesses for LinuxBLE's decoders and both GATT roles, a package of its
// own that depends on this checkout by path (as Examples/ do), so `swift build` of the main
// package never compiles them. Build and run them with `make fuzz` (docs/fuzzing.md): every
// target here is compiled with `-sanitize=fuzzer,address -parse-as-library`.

import Foundation
import PackageDescription

// A path dependency's package identity is its folder's name: "LinuxBLE" for a clone in a folder
// of that name, whatever this checkout's folder is called here.
let linuxBLE = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// One harness executable: its name (which is also its `<name>_main` symbol) and the products it tests.
func harness(_ name: String, _ products: [String], _ local: [Target.Dependency] = []) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + local + products.map { .product(name: $0, package: linuxBLE) })
}

let package = Package(
    name: "LinuxBLEFuzz",
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        // libFuzzer's LLVMFuzzerRunDriver, for executables that keep their own main.
        .target(name: "CLibFuzzer"),
        // The entry every harness calls, the input reader, the property check.
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", .product(name: "BLECore", package: linuxBLE)]),

        // The capture readers' shared properties.
        .target(name: "CaptureProperties", dependencies: ["FuzzSupport", .product(name: "Capture", package: linuxBLE),
                                                          .product(name: "BLECore", package: linuxBLE)]),

        // One executable per harness (docs/fuzzing.md lists what each checks).
        harness("FuzzAdvertisingData", ["HCI", "BLECore"]),
        harness("FuzzAdvertisementAccumulator", ["HCI", "BLECore"]),
        harness("FuzzHCIEvent", ["HCI", "BLECore"]),
        harness("FuzzATTPDU", ["ATT", "BLECore"]),
        harness("FuzzL2CAPSignaling", ["L2CAP", "BLECore"]),
        harness("FuzzSMP", ["SMP", "BLECore"]),
        harness("FuzzH4Deframer", ["HCI", "BLECore"]),
        harness("FuzzBTSnoop", ["Capture", "BLECore"], ["CaptureProperties"]),
        harness("FuzzPcap", ["Capture", "BLECore"], ["CaptureProperties"]),
        harness("FuzzPcapNG", ["Capture", "BLECore"], ["CaptureProperties"]),
        harness("FuzzNRFSniffer", ["Capture", "BLECore"], ["CaptureProperties"]),
        harness("FuzzPacketLogger", ["Capture", "BLECore"], ["CaptureProperties"]),
        harness("FuzzDissector", ["Capture", "BLECore"]),
        harness("FuzzGATTServer", ["GATT", "ATT", "BLECore"]),
        harness("FuzzGATTClient", ["GATT", "ATT", "BLECore"]),

        // The seed corpora, from the fixtures (and extra captures named on its command line).
        .executableTarget(name: "FuzzSeeds", dependencies: ["FuzzSupport"] + ["BLECore", "HCI", "L2CAP", "Capture", "GATT", "PDUScript"].map {
            .product(name: $0, package: linuxBLE)
        }),
    ],
    swiftLanguageModes: [.v6]
)
