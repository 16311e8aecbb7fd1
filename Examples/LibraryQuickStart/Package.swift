// swift-tools-version: 6.0
//
// LibraryQuickStart: LinuxBLE used as a Swift library by a package of its own, as README's
// "Use it as a library" shows. `make test` builds and runs it against this checkout.

import Foundation
import PackageDescription

// A path dependency's package identity is its folder's name: "LinuxBLE" for a clone in a folder
// of that name (or a .package(url: ".../LinuxBLE.git") dependency), whatever this checkout's
// folder is called here.
let linuxBLE = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "LibraryQuickStart",
    dependencies: [
        .package(path: "../.."),      // a checkout of LinuxBLE; or .package(url: "https://.../LinuxBLE.git", branch: "main")
    ],
    targets: [
        .executableTarget(name: "LibraryQuickStart", dependencies: [
            .product(name: "BLECore", package: linuxBLE),
            .product(name: "HCI", package: linuxBLE),
            .product(name: "ATT", package: linuxBLE),
            .product(name: "GATT", package: linuxBLE),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
