@testable import BLE
import BLECore
import Foundation
import Testing

/// The queue behind ``PeripheralManager/requests``.
@Suite("Request queue", .timeLimit(.minutes(1)))
struct RequestQueueTests {
    let central = Central(address: BluetoothAddress("C0:00:00:00:00:01")!, type: .random)
    let characteristic = MutableCharacteristic(type: BluetoothUUID(0x2A37), properties: [.read, .writeWithoutResponse], value: nil,
                                               permissions: [.readable, .writeable])

    func read() -> PeripheralRequest {
        .read(ATTRequest(central: central, characteristic: characteristic, offset: 0, value: nil, writeType: nil))
    }

    func command(_ index: Int) -> PeripheralRequest {
        .write([ATTRequest(central: central, characteristic: characteristic, offset: 0, value: Data([UInt8(index & 0xFF), UInt8(index >> 8)]),
                           writeType: .withoutResponse)])
    }

    static func index(of request: PeripheralRequest) -> Int? {
        guard case .write(let writes) = request, let value = writes.first?.value else { return nil }
        return Int(value[0]) | Int(value[1]) << 8
    }

    @Test("past 256 commands the oldest command goes; reads stay where they came; finish hands what is queued, then nil")
    func dropsOldestCommandsOnly() async {
        let queue = RequestQueue()
        let stream = queue.stream()
        queue.yield(command(0))
        queue.yield(read())
        for index in 1...RequestQueue.commandCapacity { queue.yield(command(index)) }
        queue.yield(read())
        queue.finish()
        queue.yield(command(999))   // after finish: dropped
        var taken: [Int?] = []
        for await request in stream { taken.append(Self.index(of: request)) }
        #expect(taken == [nil] + (1...RequestQueue.commandCapacity).map { $0 } + [nil])
    }

    @Test("a waiting reader gets the next request at once; cancelling it ends the stream")
    func waitingReaderAndCancellation() async {
        let queue = RequestQueue()
        let stream = queue.stream()
        let reader = Task {
            var indices: [Int?] = []
            for await request in stream {
                indices.append(Self.index(of: request))
                if indices.count == 1 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return indices
        }
        queue.yield(command(7))
        #expect(await reader.value == [7])
        queue.yield(command(8))   // nobody reads any more: dropped, not kept
        #expect(queue.count == 0)
        var after = stream.makeAsyncIterator()
        #expect(await after.next() == nil)
    }

    @Test("a reader cancelled between two reads ends the queue: later requests are not kept")
    func cancelledBetweenReads() async {
        let queue = RequestQueue()
        let stream = queue.stream()
        queue.yield(command(1))
        let reader = Task {
            var iterator = stream.makeAsyncIterator()
            let first = await iterator.next()
            withUnsafeCurrentTask { $0?.cancel() }
            return (first, await iterator.next())
        }
        let (first, second) = await reader.value
        #expect(first.flatMap(Self.index(of:)) == 1)
        #expect(second == nil)
        queue.yield(read())
        queue.yield(command(2))
        #expect(queue.count == 0)
    }

    @Test("a request withdrawn before it is read is not handed out; commands around it are")
    func withdrawn() async {
        let queue = RequestQueue()
        let stream = queue.stream()
        let request = ATTRequest(central: central, characteristic: characteristic, offset: 0, value: nil, writeType: nil)
        queue.yield(command(1))
        queue.yield(.read(request))
        queue.yield(command(2))
        queue.withdraw(request)
        queue.finish()
        var taken: [Int?] = []
        for await request in stream { taken.append(Self.index(of: request)) }
        #expect(taken == [1, 2])
    }

    @Test("a second reader waiting while the first does ends the stream for both, and the queue: nothing piles up unread")
    func secondReaderEndsBoth() async {
        let queue = RequestQueue()
        let stream = queue.stream()
        let first = Task { for await _ in stream {}; return true }
        while !queue.hasWaitingReader { await Task.yield() }
        let second = Task { for await _ in stream {}; return true }
        let (firstEnded, secondEnded) = (await first.value, await second.value)
        #expect(firstEnded && secondEnded)
        queue.yield(read())
        #expect(queue.count == 0)
    }
}
