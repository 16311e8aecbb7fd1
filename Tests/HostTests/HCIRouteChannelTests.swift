import Synchronization
import Testing
@testable import Host

/// The queue between the router and a route's reader: order, its bound, its end, and the
/// reader's going away, as a bounded AsyncStream gave them.
@Suite("HCIRouteChannel", .timeLimit(.minutes(1)))
struct HCIRouteChannelTests {
    @Test("elements come out in order; a full queue drops and says so; finish ends after what it holds")
    func orderBoundAndFinish() async {
        let channel = HCIRouteChannel<Int>(capacity: 3)
        #expect([1, 2, 3, 4].map { channel.yield($0) } == [.enqueued, .enqueued, .enqueued, .dropped])
        #expect(await channel.next() == 1)
        #expect(channel.yield(5) == .enqueued)
        channel.finish()
        #expect(channel.yield(6) == .terminated)
        var taken: [Int] = []
        while let element = await channel.next() { taken.append(element) }
        #expect(taken == [2, 3, 5])
        #expect(await channel.next() == nil)
    }

    @Test("a waiting reader gets the next element handed to it, and nil at the finish")
    func waitingReader() async {
        let channel = HCIRouteChannel<Int>(capacity: 1)
        let reader = Task { () -> [Int] in
            var taken: [Int] = []
            while let element = await channel.next() { taken.append(element) }
            return taken
        }
        for element in 0..<100 {
            // With capacity 1, a yield may find the queue full until the reader takes the last.
            while channel.yield(element) == .dropped { await Task.yield() }
        }
        channel.finish()
        #expect(await reader.value == Array(0..<100))
    }

    @Test("cancelling the waiting reader ends its wait with nil, terminates the route and runs the handler once")
    func cancellation() async {
        let channel = HCIRouteChannel<Int>(capacity: 4)
        let terminations = Atomic<Int>(0)
        channel.onTermination { terminations.add(1, ordering: .relaxed) }
        let reader = Task { await channel.next() }
        reader.cancel()
        #expect(await reader.value == nil)
        #expect(channel.yield(1) == .terminated)
        channel.terminate()
        #expect(terminations.load(ordering: .relaxed) == 1)
    }

    @Test("the reader's last handle going away terminates the route, as an AsyncStream's consumer does")
    func readerReleased() {
        let channel = HCIRouteChannel<Int>(capacity: 4)
        let terminations = Atomic<Int>(0)
        channel.onTermination { terminations.add(1, ordering: .relaxed) }
        var reader: HCIRouteReader<Int>? = HCIRouteReader(channel)
        #expect(channel.yield(1) == .enqueued)
        _ = reader
        reader = nil
        #expect(channel.yield(2) == .terminated)
        #expect(terminations.load(ordering: .relaxed) == 1)
        let late = Atomic<Bool>(false)
        channel.onTermination { late.store(true, ordering: .relaxed) }
        let ranAtOnce = late.load(ordering: .relaxed)
        #expect(ranAtOnce, "a handler set after the end runs at once")
    }
}
