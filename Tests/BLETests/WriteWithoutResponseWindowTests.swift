@testable import BLE
import Testing

/// The places of writes without response on one link, and the readiness they announce
/// (``Peripheral/readyToSendWriteWithoutResponse``).
@Suite("WriteWithoutResponseWindow")
struct WriteWithoutResponseWindowTests {
    /// A window with every place taken, and a reader of its readiness.
    static func full() async -> (WriteWithoutResponseWindow, AsyncStream<Void>.Iterator) {
        let window = WriteWithoutResponseWindow()
        let ready = window.readinessUpdates().makeAsyncIterator()
        for _ in 0..<WriteWithoutResponseWindow.places { _ = await window.acquire() }
        return (window, ready)
    }

    @Test("a place given back by a sent write when every place was taken announces room once")
    func sentWriteAnnouncesRoom() async {
        var (window, ready) = await Self.full()
        #expect(!window.hasRoom)
        window.release(linkEnding: false)
        #expect(window.hasRoom)
        let announced: Void? = await ready.next()
        #expect(announced != nil)
        window.end()
        let after: Void? = await ready.next()
        #expect(after == nil, "the stream finishes with the link, with nothing more")
    }

    @Test("a place given back by a write that found its link's bearer closed announces nothing before the stream finishes")
    func endingWriteAnnouncesNothing() async {
        var (window, ready) = await Self.full()
        window.release(linkEnding: true)
        window.end()
        let announced: Void? = await ready.next()
        #expect(announced == nil)
    }
}
