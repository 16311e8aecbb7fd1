// swift-tools-version: 6.0
//
// LinuxBLE: a Bluetooth Low Energy host stack for Linux on raw AF_BLUETOOTH sockets.
// Targets follow the layers in docs/architecture.md; dependencies point down only.

import PackageDescription

let package = Package(
    name: "LinuxBLE",
    products: [
        .library(name: "BLECore", targets: ["BLECore"]),
        .library(name: "HCI", targets: ["HCI"]),
        .library(name: "L2CAP", targets: ["L2CAP"]),
        .library(name: "SMP", targets: ["SMP"]),
        .library(name: "Host", targets: ["Host"]),
        .library(name: "ATT", targets: ["ATT"]),
        .library(name: "Capture", targets: ["Capture"]),
        .library(name: "GATT", targets: ["GATT"]),
        .library(name: "PDUScript", targets: ["PDUScript"]),
        .library(name: "LinuxBluetooth", targets: ["LinuxBluetooth"]),
        .library(name: "VirtualRadio", targets: ["VirtualRadio"]),
        .library(name: "BLE", targets: ["BLE"]),
        .executable(name: "blectl", targets: ["blectl"]),
    ],
    targets: [
        // C shim over libbluetooth-dev's headers (never vendored).
        .target(name: "CBluetoothLinux"),

        // Pure codecs: bytes in, values out.
        .target(name: "BLECore"),
        .target(name: "HCI", dependencies: ["BLECore"]),
        .target(name: "L2CAP", dependencies: ["BLECore", "HCI"]),
        .target(name: "SMP", dependencies: ["BLECore"]),
        .target(name: "ATT", dependencies: ["BLECore"]),

        // The HCI command flow and router, scanner, advertiser, and host mode's bring-up,
        // connections, ACL flow control and L2CAP fixed channels, over any HCITransport.
        .target(name: "Host", dependencies: ["BLECore", "HCI", "L2CAP", "SMP", "ATT"]),

        // libcrypto's AES-CMAC (libssl-dev), for the Database Hash and signed writes.
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "GATT", dependencies: ["BLECore", "ATT", "CCrypto"]),
        .target(name: "PDUScript", dependencies: ["BLECore", "ATT", "GATT"]),

        // Kernel mode: AF_BLUETOOTH sockets through CBluetoothLinux.
        .target(name: "LinuxBluetooth", dependencies: ["BLECore", "HCI", "Host", "ATT", "CBluetoothLinux"]),
        // Capture files and the dissector HCI -> L2CAP -> ATT/SMP -> GATT meaning (GATT's
        // declaration codecs read the discovered declarations).
        .target(name: "Capture", dependencies: ["BLECore", "HCI", "L2CAP", "SMP", "ATT", "GATT", "Host"]),

        // An in-process LE controller (HCI in, HCI out) and a radio that links many of them, on a
        // virtual clock. Host only for the HCITransport protocol.
        .target(name: "VirtualRadio", dependencies: ["BLECore", "HCI", "Host"]),

        // The Core-Bluetooth-shaped API on top of everything: CentralManager, Peripheral, ...
        .target(name: "BLE", dependencies: ["BLECore", "HCI", "Host", "ATT", "GATT", "Capture", "LinuxBluetooth", "VirtualRadio"]),

        .executableTarget(name: "blectl", dependencies: ["BLE", "BLECore", "HCI", "Host", "ATT", "GATT", "PDUScript", "Capture", "LinuxBluetooth", "VirtualRadio"]),
        .executableTarget(name: "BLEBenchmarks", dependencies: ["BLECore", "HCI", "Host", "L2CAP", "ATT", "GATT", "Capture", "VirtualRadio", "LinuxBluetooth", "BLE"]),

        // Shared by the test targets: the real captures' location and the tshark runner.
        // Foundation only (no Testing), so any test target can depend on it.
        .target(name: "BLETestSupport", dependencies: ["ATT"], path: "Tests/Support"),

        .testTarget(name: "CBluetoothLinuxTests", dependencies: ["CBluetoothLinux"]),
        .testTarget(name: "BLECoreTests", dependencies: ["BLECore"]),
        .testTarget(name: "HCITests", dependencies: ["BLECore", "HCI", "Capture", "BLETestSupport"]),
        .testTarget(name: "L2CAPTests", dependencies: ["BLECore", "HCI", "L2CAP", "Capture", "BLETestSupport"]),
        .testTarget(name: "SMPTests", dependencies: ["BLECore", "HCI", "L2CAP", "SMP", "Capture", "BLETestSupport"]),
        .testTarget(name: "ATTTests", dependencies: ["BLECore", "ATT", "BLETestSupport"]),
        .testTarget(name: "GATTTests", dependencies: ["BLECore", "ATT", "GATT", "CCrypto", "BLETestSupport"]),
        .testTarget(name: "PDUScriptTests", dependencies: ["BLECore", "ATT", "GATT", "PDUScript"]),
        .testTarget(name: "CaptureTests", dependencies: ["BLECore", "HCI", "L2CAP", "SMP", "ATT", "Capture", "BLETestSupport"]),
        .testTarget(name: "HostTests", dependencies: ["BLECore", "HCI", "L2CAP", "SMP", "Host", "ATT", "BLETestSupport"]),
        .testTarget(name: "VirtualRadioTests", dependencies: ["BLECore", "HCI", "Host", "VirtualRadio", "BLETestSupport"]),
        // Whole-stack tests of host mode on the virtual radio: bring-up, links, L2CAP, GATT.
        .testTarget(name: "HostModeTests", dependencies: ["BLECore", "HCI", "L2CAP", "SMP", "Host", "ATT", "GATT", "VirtualRadio", "LinuxBluetooth"]),
        // The interop lane: Google Bumble's host (Tests/Interop/*.py, in the venv that `make test`
        // installs) as a peer over H4/TCP on a controller of our virtual radio, in both roles.
        .testTarget(name: "InteropTests", dependencies: ["BLECore", "HCI", "Host", "ATT", "GATT", "VirtualRadio", "LinuxBluetooth"]),
        // The BLE API on the virtual radio: a CentralManager against GATT servers on host-mode stacks.
        .testTarget(name: "BLETests", dependencies: ["BLE", "BLECore", "HCI", "Host", "ATT", "GATT", "VirtualRadio", "LinuxBluetooth", "BLETestSupport"]),
        .testTarget(name: "BlectlTests", dependencies: ["blectl"]),
        .testTarget(name: "LinuxBluetoothTests", dependencies: ["BLECore", "ATT", "GATT", "LinuxBluetooth", "CBluetoothLinux"]),
    ],
    swiftLanguageModes: [.v6]
)
