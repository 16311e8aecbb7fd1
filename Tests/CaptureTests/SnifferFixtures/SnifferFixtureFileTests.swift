import Foundation
import Testing
@testable import Capture

@Suite("sniffer fixtures: the committed nRF Sniffer and PacketLogger files are what the converter writes")
struct SnifferFixtureFileTests {
    @Test("each committed fixture equals the converter's output, octet for octet (LINUXBLE_WRITE_FIXTURES=1 rewrites them)")
    func committedFilesAreReproducible() throws {
        if ProcessInfo.processInfo.environment["LINUXBLE_WRITE_FIXTURES"] == "1" { try SnifferFixtures.writeAll() }
        for (name, make) in SnifferFixtures.files {
            let committed = try #require(FileManager.default.contents(atPath: SnifferFixtures.path(name)),
                                         "\(name) is missing: run LINUXBLE_WRITE_FIXTURES=1 swift test --filter SnifferFixtureFileTests")
            #expect(Array(committed) == (try make()), "\(name) differs from what the converter writes")
        }
    }
}
