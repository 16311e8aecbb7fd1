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

    @Test("a consumer gets what was queued, then each element as it is yielded, in order, and the end once")
    func consumer() async {
        let channel = HCIRouteChannel<Int>(capacity: 2)
        _ = channel.yield(1)
        _ = channel.yield(2)
        let taken = Mutex<[Int?]>([])
        channel.consume { element in taken.withLock { $0.append(element) } }
        #expect(taken.withLock { $0 } == [1, 2])
        #expect((3...5).map { channel.yield($0) } == [.enqueued, .enqueued, .enqueued])   // no bound now
        channel.finish()
        channel.finish()
        #expect(channel.yield(6) == .terminated)
        #expect(taken.withLock { $0 } == [1, 2, 3, 4, 5, nil])
    }

    @Test("a route finished before its consumer came gives the consumer what it held, then the end")
    func consumerAfterFinish() async {
        let channel = HCIRouteChannel<Int>(capacity: 4)
        _ = channel.yield(1)
        channel.finish()
        let taken = Mutex<[Int?]>([])
        channel.consume { element in taken.withLock { $0.append(element) } }
        #expect(taken.withLock { $0 } == [1, nil])
    }

    @Test("elements yielded from another thread while the queue is handed to the consumer keep their order")
    func consumerRace() async {
        for _ in 0..<50 {
            let channel = HCIRouteChannel<Int>(capacity: 10_000)
            for element in 0..<100 { _ = channel.yield(element) }
            let taken = Mutex<[Int?]>([])
            let producer = Task.detached {
                for element in 100..<2_000 { _ = channel.yield(element) }
                channel.finish()
            }
            channel.consume { element in taken.withLock { $0.append(element) } }
            await producer.value
            #expect(taken.withLock { $0 } == (0..<2_000).map { Optional($0) } + [nil])
        }
    }

    @Test("terminate stops the consumer: later elements are refused and it gets no end")
    func consumerTerminated() async {
        let channel = HCIRouteChannel<Int>(capacity: 2)
        let taken = Mutex<[Int?]>([])
        channel.consume { element in taken.withLock { $0.append(element) } }
        #expect(channel.yield(1) == .enqueued)
        channel.terminate()
        #expect(channel.yield(2) == .terminated)
        channel.finish()
        #expect(taken.withLock { $0 } == [1])
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
