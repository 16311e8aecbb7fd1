import Glibc
import Synchronization
import Testing
@testable import LinuxBluetooth

/// The host stack's executor: a thread that runs the jobs of tasks preferring it, in order, and
/// calls the handlers of the descriptors it watches when they are readable.
@Suite("HostExecutor", .timeLimit(.minutes(1)))
struct HostExecutorTests {
    /// A value the test's closures share.
    final class Shared<Value: Sendable>: Sendable {
        private let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
    }

    actor Counter {
        var value = 0
        func increment() -> Bool {
            value += 1
            return true
        }
    }

    @Test("tasks preferring the executor, and the default actors they call, run on its thread, in the order they were started")
    func jobsRunOnTheThreadInOrder() async throws {
        let executor = HostExecutor(name: "test order")
        let order = Shared<[Int]>([])
        let counter = Counter()
        var tasks: [Task<Bool, Never>] = []
        for index in 0..<50 {
            tasks.append(Task(executorPreference: executor) {
                order.withLock { $0.append(index) }     // before its first suspension: in start order
                let onThread = executor.isCurrent
                let inActor = await counter.increment()
                return onThread && inActor && executor.isCurrent
            })
        }
        for task in tasks { #expect(await task.value) }
        #expect(order.withLock { $0 } == Array(0..<50))
        #expect(await counter.value == 50)
        #expect(!executor.isCurrent)                   // the test itself runs elsewhere
        #expect(executor.jobsRun >= 50)
    }

    @Test("a watched descriptor's handler runs on the thread when it is readable; after stopWatching, done runs once and the handler never again")
    func watchAndStop() async throws {
        let executor = HostExecutor(name: "test watch")
        let first = try streamPair(), second = try streamPair()
        defer { for fd in first + second { close(fd) } }
        let calls = Shared<[String: Int]>([:])
        let (arrivals, readable) = AsyncStream.makeStream(of: Int32.self)
        func handler(_ fd: Int32, _ which: String) -> @Sendable () -> Void {
            { [executor] in
                var octet: UInt8 = 0
                while read(fd, &octet, 1) == 1 {}          // read until EAGAIN, as a handler must
                calls.withLock { counts in
                    counts[which, default: 0] += 1
                    if !executor.isCurrent { counts["off the thread", default: 0] += 1 }
                }
                readable.yield(fd)
            }
        }
        let firstWatch = executor.watch(first[0], onReadable: handler(first[0], "first"))
        let secondWatch = executor.watch(second[0], onReadable: handler(second[0], "second"))
        var iterator = arrivals.makeAsyncIterator()

        writeAll(first[1], [0x01])
        #expect(await iterator.next() == first[0])
        let (doneRuns, done) = AsyncStream.makeStream(of: Bool.self)
        executor.stopWatching(firstWatch) { [executor] in done.yield(executor.isCurrent) }
        var doneIterator = doneRuns.makeAsyncIterator()
        #expect(await doneIterator.next() == true)

        // Both become readable together; only the second is still watched, so its handler
        // running proves the thread has polled past the first one.
        writeAll(first[1], [0x02])
        writeAll(second[1], [0x03])
        #expect(await iterator.next() == second[0])
        #expect(calls.withLock { $0 } == ["first": 1, "second": 1])
        executor.stopWatching(secondWatch)
    }

    @Test("a job a descriptor's handler queues runs in the same wake-up: one wake-up per arrival, not one more for the job")
    func handlerJobsNeedNoWake() async throws {
        let executor = HostExecutor(name: "test handler jobs")
        let fds = try streamPair()
        defer { for fd in fds { close(fd) } }
        let (ran, runs) = AsyncStream.makeStream(of: Bool.self)
        let watch = executor.watch(fds[0]) { [executor] in
            var octet: UInt8 = 0
            while read(fds[0], &octet, 1) == 1 {}
            Task(executorPreference: executor) { runs.yield(executor.isCurrent) }
        }
        var iterator = ran.makeAsyncIterator()
        #expect(await Task(executorPreference: executor) { true }.value)     // the thread is up
        let arrivals = 20
        let before = executor.wakeUps
        for _ in 0..<arrivals {
            writeAll(fds[1], [0x01])
            #expect(await iterator.next() == true)
        }
        // Each arrival wakes the thread once (the descriptor), and this test's own task, which
        // waits on another executor, adds no wake-up of this one; a handler's job that signalled
        // the eventfd would wake it a second time per arrival.
        #expect(executor.wakeUps - before <= arrivals + 2)
        executor.stopWatching(watch)
    }

    @Test("the thread ends once the executor is released and nothing is watched")
    func threadEnds() async throws {
        let (exits, exited) = AsyncStream.makeStream(of: Void.self)
        var executor: HostExecutor? = HostExecutor(name: "test exit", onExit: { exited.yield() })
        let value = await Task(executorPreference: executor) { 42 }.value
        #expect(value == 42)
        executor = nil
        var iterator = exits.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }

    @Test("a job queued from another thread wakes the executor while it sleeps in poll(2)")
    func wakesFromSleep() async throws {
        let executor = HostExecutor(name: "test wake")
        let fds = try streamPair()
        defer { for fd in fds { close(fd) } }
        let watch = executor.watch(fds[0]) {}            // never readable: the thread sleeps in poll
        for round in 0..<20 {
            let before = executor.wakeUps
            #expect(await Task(executorPreference: executor) { executor.isCurrent }.value, "round \(round)")
            #expect(executor.wakeUps >= before)
        }
        #expect(executor.wakeUps >= 1)
        executor.stopWatching(watch)
    }
}
