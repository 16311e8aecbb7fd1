@testable import BLE
import Testing

/// The Service Changed ranges a link's tree took, as a discovery that spans them sees them.
@Suite("ServiceChangeLog")
struct ServiceChangeLogTests {
    @Test("a change after the mark counts only where it overlaps; one before the mark does not count")
    func overlapSinceMark() {
        var log = ServiceChangeLog()
        log.record(0x0001...0x0005)
        let mark = log.mark
        #expect(!log.changes(since: mark, overlap: 0x0001...0xFFFF))
        log.record(0x0010...0x0020)
        #expect(log.changes(since: mark, overlap: 0x0018...0x0030))
        #expect(!log.changes(since: mark, overlap: 0x0001...0x000F))
        #expect(!log.changes(since: mark, overlap: 0x0021...0xFFFF))
    }

    @Test("more changes since the mark than the log keeps count as changing every handle")
    func lostTrack() {
        var log = ServiceChangeLog()
        let mark = log.mark
        for _ in 0...ServiceChangeLog.kept { log.record(0x0100...0x0100) }
        #expect(log.changes(since: mark, overlap: 0x0001...0x0001))
        #expect(!log.changes(since: log.mark, overlap: 0x0001...0xFFFF))
    }
}
