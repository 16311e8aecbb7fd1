import BLECore
import Testing

/// The fan-out behind the public streams: every open stream gets each element, all end
/// together, and a stream asked for after the end ends at once.
@Suite("Stream fan-out", .timeLimit(.minutes(1)))
struct StreamFanOutTests {
    @Test("each element yielded reaches every open stream, after the stream's first element")
    func yieldReachesEveryStream() async {
        let fanOut = StreamFanOut<Int>(bufferingNewest: 8)
        let first = fanOut.stream(startingWith: 0)
        let second = fanOut.stream()
        fanOut.yield(1)
        fanOut.yield(2)
        fanOut.finish()
        #expect(await collect(first) == [0, 1, 2])
        #expect(await collect(second) == [1, 2])
    }

    @Test("a stream asked for after finish gives its first element and ends; later yields reach nobody")
    func streamAfterFinishEndsAtOnce() async {
        let fanOut = StreamFanOut<Int>(bufferingNewest: 8)
        fanOut.finish()
        let late = fanOut.stream(startingWith: 7)
        #expect(fanOut.openCount == 0)
        fanOut.yield(8)
        fanOut.finish()
        #expect(await collect(late) == [7])
        #expect(await collect(fanOut.stream()) == [])
        #expect(await collect(StreamFanOut<Int>.finished()) == [])
    }

    @Test("a reader that falls behind keeps the newest elements only")
    func slowReaderKeepsNewest() async {
        let fanOut = StreamFanOut<Int>(bufferingNewest: 2)
        let stream = fanOut.stream()
        for element in 1...5 { fanOut.yield(element) }
        fanOut.finish()
        #expect(await collect(stream) == [4, 5])
    }

    @Test("a stream whose reader stopped leaves the fan-out; the others go on")
    func stoppedReaderLeaves() async {
        let fanOut = StreamFanOut<Int>(bufferingNewest: 8)
        let kept = fanOut.stream()
        do {
            var reader = fanOut.stream().makeAsyncIterator()
            #expect(fanOut.openCount == 2)
            fanOut.yield(1)
            #expect(await reader.next() == 1)
        }
        #expect(fanOut.openCount == 1)
        fanOut.yield(2)
        fanOut.finish()
        #expect(await collect(kept) == [1, 2])
        #expect(fanOut.openCount == 0)
    }
}

/// Every element of `stream`, in order, once it ends.
private func collect<Element>(_ stream: AsyncStream<Element>) async -> [Element] {
    var all: [Element] = []
    for await element in stream { all.append(element) }
    return all
}
