@testable import BLE
import BLETestSupport
import Testing

/// The places of writes without response on one link, and the readiness they announce
/// (``Peripheral/readyToSendWriteWithoutResponse``).
@Suite("WriteWithoutResponseWindow")
struct WriteWithoutResponseWindowTests {
    /// A window with every place taken, and a reader of its readiness.
    static func full() async -> (WriteWithoutResponseWindow, AsyncStream<Void>.Iterator) {
        let window = WriteWithoutResponseWindow()
        let ready = window.readinessUpdates().makeAsyncIterator()
        for _ in 0..<WriteWithoutResponseWindow.places { _ = await window.acquire(window.ticket()) }
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

    @Test("a write waiting for a place whose caller is cancelled stops waiting and takes none; the place given back goes to the next waiter")
    func cancelledWaiter() async {
        let (window, _) = await Self.full()
        let first = window.ticket(), second = window.ticket()
        let waiting = Task { await window.acquire(first) }
        let next = Task { await window.acquire(second) }
        #expect(await eventually { window.waitingCount == 2 })
        window.abandon(first)
        #expect(await waiting.value == .cancelled)
        window.release(linkEnding: false)
        #expect(await next.value == .granted)
        #expect(!window.hasRoom, "the place went to the second write, not to the window")
        window.forget(first)
        window.forget(second)
    }

    @Test("a caller cancelled before it asks gets a free place, but does not wait for a taken one")
    func cancelledBeforeAsking() async {
        let window = WriteWithoutResponseWindow()
        let early = window.ticket()
        window.abandon(early)
        #expect(await window.acquire(early) == .granted, "a place free at once is taken")
        window.forget(early)
        for _ in 1..<WriteWithoutResponseWindow.places { _ = await window.acquire(window.ticket()) }
        let late = window.ticket()
        window.abandon(late)
        #expect(await window.acquire(late) == .cancelled)
        window.forget(late)
        #expect(window.abandonedCount == 0)
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
