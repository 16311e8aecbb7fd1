// swift-tools-version: 6.0
//
// CoreBluetoothTutorials: the scenarios Core Bluetooth tutorials teach, written on LinuxBLE's
// BLE API, one executable per scenario (README.md beside this file lists them). Each runs on
// the in-process virtual radio by default, with the device it talks to on the same radio, and
// takes `--transport WORD` for a real controller. `make test` builds this package once and runs
// every example against its expected output in expected/.

import Foundation
import PackageDescription

// A path dependency's package identity is its folder's name: "LinuxBLE" for a clone in a folder
// of that name (or a .package(url: ".../LinuxBLE.git") dependency), whatever this checkout's
// folder is called here.
let linuxBLE = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let examples = ["ScanAndConnect", "PublishService", "DiscoverEverything", "SubscribeToAll", "AsyncConnection", "PickRole", "RestoreAcrossRestart"]

let package = Package(
    name: "CoreBluetoothTutorials",
    dependencies: [
        .package(path: "../.."),      // a checkout of LinuxBLE; or .package(url: "https://.../LinuxBLE.git", branch: "main")
    ],
    targets: examples.map { name in
        .executableTarget(name: name, dependencies: [.product(name: "BLE", package: linuxBLE)])
    },
    swiftLanguageModes: [.v6]
)
