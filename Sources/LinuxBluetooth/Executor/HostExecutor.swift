import CBluetoothLinux
#if canImport(Glibc)
import Glibc
#endif

/// One thread that runs a host stack's work and reads its transport: an event loop, as Bumble's
/// asyncio loop or an embedded stack's main loop, for Swift tasks.
///
/// - It is a `TaskExecutor`. A ``Host/HostStack`` started with it runs its tasks with it as their
///   executor preference (the command flow's reader, each link's L2CAP reader, the ATT engines,
///   GATT clients and GATT servers on its links), so their code and the default actors they call
///   run on this thread. A caller may run there too (`withTaskExecutorPreference(executor)`).
/// - It waits for descriptors to become readable (``watch(_:onReadable:)``): an H4 stream made
///   with this executor is read on this thread, not on a thread of its own.
///
/// So a packet from the controller costs one wake-up of one thread from its arrival to the task
/// that waits for it; the packet's reader, the router, the link, the engine and the caller then
/// hand it on within that thread, where a hand-off between threads can cost another wake-up
/// (tens of µs on a virtual machine whose other core sleeps).
///
/// Jobs run one at a time, in the order they were enqueued. With no job left, the thread sleeps
/// in poll(2) on its descriptors and an eventfd that `enqueue` signals (readiness, never a timed
/// poll); while jobs keep coming, it looks at its descriptors without waiting every eighth batch,
/// so a stream of jobs never starves a reader. Several stacks may share one executor (a virtual
/// controller's H4 server and the peripheral beside it, on one thread).
///
/// The thread ends once the executor is released (tasks that prefer it hold it) and nothing is
/// left to run or watch; nothing needs closing.
///
/// Work on this thread must not block: a job that sleeps or waits for another thread stalls
/// every link of the stacks on it.
///
/// ```swift
/// let executor = HostExecutor(name: "hci0")
/// let transport = try await H4StreamTransport.connect(host: "127.0.0.1", port: 9000, executor: executor)
/// let stack = try await HostStack.start(on: transport, executor: executor)
/// ```
public final class HostExecutor: TaskExecutor, Sendable {
    /// Names the executor in messages.
    public let name: String
    private let core: Core

    /// Starts the thread.
    ///
    /// - Parameter name: names the executor in messages, and its thread (its first 15 octets,
    ///   for `top -H` and debuggers).
    /// - Precondition: the system gives an eventfd and a thread (failing either is fatal: the
    ///   process is out of descriptors or memory).
    public convenience init(name: String) {
        self.init(name: name, onExit: nil)
    }

    /// Starts the thread; `onExit` runs on it as it ends (for tests).
    init(name: String, onExit: (@Sendable () -> Void)?) {
        self.name = name
        core = Core()
        core.executor = UnownedTaskExecutor(ordinary: self)
        core.start(name: name, onExit: onExit)
    }

    deinit { core.stop() }

    /// Queues `job` to run on the executor's thread, after the jobs queued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        core.push(UnownedJob(job))
    }

    /// This executor as a task executor.
    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Whether the caller runs on this executor's thread.
    public var isCurrent: Bool { core.isCurrentThread }

    /// How many jobs the executor has run so far.
    public var jobsRun: Int { core.jobsRun }

    /// How many times the thread woke from poll(2).
    public var wakeUps: Int { core.wakeUps }

    /// How many descriptors the executor watches now.
    var watchCount: Int { core.watchCount }

    /// Calls `onReadable` on the executor's thread each time `descriptor` is readable (or has an
    /// error or hang-up to report, which a read then finds), until ``stopWatching(_:then:)``.
    /// The handler must read until the descriptor would block (EAGAIN), or stop watching it: a
    /// descriptor left readable is reported again at once. The executor neither reads nor closes
    /// the descriptor: stop watching it first, and close it in `done` (its number can be reused
    /// at once). One that poll(2) finds closed anyway (POLLNVAL) is dropped from the watch.
    ///
    /// - Returns: the watch, for ``stopWatching(_:then:)``.
    public func watch(_ descriptor: Int32, onReadable: @escaping @Sendable () -> Void) -> Watch {
        core.watch(descriptor, onReadable)
    }

    /// Stops calling the watch's handler; then calls `done` on the executor's thread, once the
    /// thread no longer polls the descriptor, so that `done` may close it.
    public func stopWatching(_ watch: Watch, then done: @escaping @Sendable () -> Void = {}) {
        core.unwatch(watch, done)
    }

    /// One descriptor watched by a ``HostExecutor``.
    public struct Watch: Hashable, Sendable {
        let id: UInt64
    }

    /// The thread's state, guarded by its mutex. It holds the executor unowned, so that releasing
    /// the executor ends the thread.
    private final class Core: @unchecked Sendable {
        private struct Watched {
            let descriptor: Int32
            let onReadable: @Sendable () -> Void
        }

        private var jobs: [UnownedJob] = []
        private var watched: [UInt64: Watched] = [:]
        private var ended: [@Sendable () -> Void] = []
        private var watchesChanged = true
        private var lastWatch: UInt64 = 0
        private var sleeping = false
        private var stopping = false
        private var runCount = 0
        private var wakeCount = 0
        private var thread: pthread_t?

        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        /// Signalled by `enqueue` and by watch changes while the thread sleeps in poll(2).
        private let wake: Int32

        /// The executor the jobs run on; set once, before the thread starts.
        var executor: UnownedTaskExecutor!
        /// The thread's name and its last act; set once, before the thread starts.
        private var threadName = ""
        private var onExit: (@Sendable () -> Void)?

        init() {
            pthread_mutex_init(mutex, nil)
            wake = cbl_wake_open()
            precondition(wake >= 0, "HostExecutor: no eventfd (\(-wake))")
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
            _ = cbl_close(wake)
        }

        private func locked<R>(_ body: () -> R) -> R {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return body()
        }

        var jobsRun: Int { locked { runCount } }
        var wakeUps: Int { locked { wakeCount } }
        var watchCount: Int { locked { watched.count } }
        var isCurrentThread: Bool {
            guard let thread = locked({ thread }) else { return false }
            return pthread_equal(thread, pthread_self()) != 0
        }

        func start(name: String, onExit: (@Sendable () -> Void)?) {
            threadName = name
            self.onExit = onExit
            let context = Unmanaged.passRetained(self).toOpaque()
            var handle = pthread_t()
            let created = pthread_create(&handle, nil, { context in
                let core = Unmanaged<Core>.fromOpaque(context!).takeRetainedValue()
                core.locked { core.thread = pthread_self() }
                _ = cbl_thread_set_name(core.threadName)
                core.run()
                core.onExit?()
                return nil
            }, context)
            precondition(created == 0, "HostExecutor: no thread (\(created))")
            pthread_detach(handle)
        }

        func push(_ job: UnownedJob) {
            let signal = locked { () -> Bool in
                jobs.append(job)
                return takeSleeper()
            }
            if signal { _ = cbl_wake_signal(wake) }
        }

        func watch(_ descriptor: Int32, _ onReadable: @escaping @Sendable () -> Void) -> Watch {
            let (watch, signal) = locked { () -> (Watch, Bool) in
                lastWatch &+= 1
                watched[lastWatch] = Watched(descriptor: descriptor, onReadable: onReadable)
                watchesChanged = true
                return (Watch(id: lastWatch), takeSleeper())
            }
            if signal { _ = cbl_wake_signal(wake) }
            return watch
        }

        func unwatch(_ watch: Watch, _ done: @escaping @Sendable () -> Void) {
            let signal = locked { () -> Bool in
                watched[watch.id] = nil
                watchesChanged = true
                ended.append(done)
                return takeSleeper()
            }
            if signal { _ = cbl_wake_signal(wake) }
        }

        func stop() {
            let signal = locked { () -> Bool in
                stopping = true
                return takeSleeper()
            }
            if signal { _ = cbl_wake_signal(wake) }
        }

        /// Whether the thread sleeps and must be signalled (it is then marked awake, so one
        /// signal serves every caller until it sleeps again). Under the mutex.
        private func takeSleeper() -> Bool {
            guard sleeping else { return false }
            sleeping = false
            return true
        }

        /// How many batches of jobs may run back to back before the thread looks at its
        /// descriptors without waiting.
        static let batchesBetweenChecks = 8

        /// The thread's loop: run what is queued, in order, and look at the descriptors without
        /// waiting after each batch; with nothing queued, sleep in poll(2) until a descriptor or
        /// `enqueue` wakes it.
        private func run() {
            var batch: [UnownedJob] = []
            var polled: [pollfd] = []
            var ids: [UInt64] = []
            var checkDescriptors = false
            var batchesSincePoll = 0
            while true {
                var finished: [@Sendable () -> Void] = []
                locked {
                    swap(&finished, &ended)
                    guard watchesChanged else { return }
                    watchesChanged = false
                    let entries = watched.sorted { $0.key < $1.key }
                    polled = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
                        + entries.map { pollfd(fd: $0.value.descriptor, events: Int16(POLLIN), revents: 0) }
                    ids = entries.map(\.key)
                }
                for done in finished { done() }
                if checkDescriptors {
                    checkDescriptors = false
                    if polled.count > 1 { serve(&polled, ids, timeout: 0) }
                }
                let ending = locked { () -> Bool? in
                    if !jobs.isEmpty {
                        swap(&batch, &jobs)
                        runCount += batch.count
                        return false
                    }
                    if stopping, watched.isEmpty, ended.isEmpty { return true }
                    if watchesChanged || !ended.isEmpty { return nil }
                    sleeping = true
                    return nil
                }
                if ending == true { return }
                if !batch.isEmpty {
                    for job in batch { job.runSynchronously(on: executor) }
                    batch.removeAll(keepingCapacity: true)
                    // With jobs coming without a pause, look at the descriptors every few batches
                    // (when the queue runs dry, the wait below looks anyway, at no extra cost).
                    batchesSincePoll += 1
                    if batchesSincePoll >= Self.batchesBetweenChecks {
                        batchesSincePoll = 0
                        checkDescriptors = true
                    }
                    continue
                }
                batchesSincePoll = 0
                guard locked({ sleeping }) else { continue }      // the watches changed: rebuild first
                // Awake as soon as poll(2) returns: what the descriptors' handlers enqueue then
                // is run by this loop next, with no signal on the eventfd (which would only wake
                // the next poll(2) at once, for nothing).
                serve(&polled, ids, timeout: -1) {
                    locked {
                        sleeping = false
                        wakeCount += 1
                    }
                }
            }
        }

        /// poll(2) on the wake eventfd and the watched descriptors; calls `awake` once poll(2)
        /// returns, then the handler of each descriptor that is ready and still watched, and
        /// drains the eventfd.
        private func serve(_ polled: inout [pollfd], _ ids: [UInt64], timeout: Int32, awake: () -> Void = {}) {
            let ready = polled.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
            awake()
            guard ready > 0 else { return }
            if polled[0].revents != 0 {
                var count: UInt64 = 0
                _ = read(wake, &count, 8)
            }
            for index in 1..<polled.count where polled[index].revents != 0 {
                if polled[index].revents & Int16(POLLNVAL) != 0 {
                    // Closed while watched: nothing will ever read it, so stop polling it rather
                    // than being told again at once.
                    locked {
                        watched[ids[index - 1]] = nil
                        watchesChanged = true
                    }
                    continue
                }
                guard let handler = locked({ watched[ids[index - 1]]?.onReadable }) else { continue }
                handler()
            }
        }
    }
}

