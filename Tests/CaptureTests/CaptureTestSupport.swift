import Foundation
import Testing
import BLECore
import BLETestSupport
@testable import Capture

/// The real captures shared beside the package: thin forwarding names over BLETestSupport's
/// ``SharedCaptures``, kept for the suites that use them.
enum RealCaptures {
    /// `$LINUXBLE_CAPTURES`, else `<package root>/../shared/captures`.
    static var directory: String { SharedCaptures.directory }

    /// Why the real-capture tests skip: where they looked, and the variable that sets the place.
    static var skipNote: String { SharedCaptures.skipNote }

    static let legacyPPI = SharedCaptures.legacyPPI
    static let lescPcapng = SharedCaptures.lescPcapng
    static let nexxtenderBTSnoop = SharedCaptures.nexxtenderBTSnoop
    static let nexxtenderCFA = SharedCaptures.nexxtenderCFA

    /// Whether the captures are present (they are not in a user's clone).
    static var available: Bool { SharedCaptures.available }

    static func path(_ name: String) -> String { SharedCaptures.path(name) }
}

/// Octets from annotated hexadecimal text (`#` starts a comment).
func octets(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    try #require(Hex.decode(text), "fixture is not valid hexadecimal", sourceLocation: sourceLocation)
}

/// Whether `tshark` can be run: BLETestSupport's ``Tshark/path``.
let tsharkPath: String? = Tshark.path

/// Runs tshark with `arguments` and returns its standard output (``Tshark/run(_:)``); a test
/// that calls it without tshark installed fails on the `#require`.
func runTshark(_ arguments: [String]) throws -> String {
    _ = try #require(tsharkPath)
    return try Tshark.run(arguments)
}
