import Foundation
import Testing
import BLECore
@testable import Capture

/// The real captures shared beside the package (read-only; never copied into the repo).
enum RealCaptures {
    /// `<package root>/../shared/captures`, found from this file's path.
    static let directory: String = {
        let testsFile = URL(fileURLWithPath: #filePath)          // <root>/Tests/CaptureTests/CaptureTestSupport.swift
        let root = testsFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared/captures").path
    }()

    static let legacyPPI = "crackle_legacy_pairing_ltk_exchange_ppi_ll.pcap"
    static let lescPcapng = "crackle_lesc_pairing_concurrent_mtu517_discovery.pcapng"
    static let nexxtenderBTSnoop = "nexxtender_charger_android_discovery_insufficient_auth_pairing.btsnoop"
    static let nexxtenderCFA = "nexxtender_charger_android_gatt_longwrite_indications_extadv.cfa"

    /// Whether the captures are present (they are not in a user's clone).
    static var available: Bool {
        FileManager.default.fileExists(atPath: directory + "/" + nexxtenderCFA)
    }

    static func path(_ name: String) -> String { directory + "/" + name }
}

/// Octets from annotated hexadecimal text (`#` starts a comment).
func octets(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    try #require(Hex.decode(text), "fixture is not valid hexadecimal", sourceLocation: sourceLocation)
}

/// Whether `tshark` can be run.
let tsharkPath: String? = ["/usr/bin/tshark", "/usr/local/bin/tshark"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// Runs tshark with `arguments` and returns its standard output.
func runTshark(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(tsharkPath))
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
