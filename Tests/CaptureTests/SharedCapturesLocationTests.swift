import Foundation
import Testing
import BLETestSupport

/// Where the real-capture tests look for the captures, and what they say when they skip.
@Suite("shared captures location")
struct SharedCapturesLocationTests {
    @Test("LINUXBLE_CAPTURES names the folder; unset or empty, it is ../shared/captures beside the package")
    func directory() {
        #expect(SharedCaptures.directory(environment: ["LINUXBLE_CAPTURES": "/srv/captures"]) == "/srv/captures")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let beside = root.deletingLastPathComponent().appendingPathComponent("shared/captures").standardized.path
        #expect(SharedCaptures.directory(environment: [:]) == beside)
        #expect(SharedCaptures.directory(environment: ["LINUXBLE_CAPTURES": ""]) == beside)
        // This process's choice is the same rule applied to its own environment.
        #expect(SharedCaptures.directory == SharedCaptures.directory(environment: ProcessInfo.processInfo.environment))
    }

    @Test("the skip note names the folder looked in and the variable that moves it")
    func skipNote() {
        #expect(SharedCaptures.skipNote.contains(SharedCaptures.directory))
        #expect(SharedCaptures.skipNote.contains("set LINUXBLE_CAPTURES to the folder that holds them"))
        #expect(SharedCaptures.path("x.pcap") == SharedCaptures.directory + "/x.pcap")
    }
}
