import Synchronization

/// The queue between the router and the one reader of a route: bounded, in order, taken with
/// ``next(isolation:)`` on the reader's own isolation.
///
/// An `AsyncStream` would do the same, but its `next` waits in a function of its own that runs
/// off the reader's actor: on a stack with a task executor (``HostExecutor``), where every
/// switch of executor is a job the executor queues, each packet cost the reader two switches
/// even when the queue already held it. Here a queued element is taken at once, with no
/// suspension, and a reader that waits is resumed on its actor directly: one job per wake.
///
/// What a bounded `AsyncStream` (`.bufferingOldest`) gives, it gives: ``yield(_:)`` answers
/// enqueued, dropped (full) or terminated; ``finish()`` ends the route after what it holds; the
/// reader's cancellation, or its last ``HCIRouteReader`` going away, terminates it (the queue
/// is dropped, the termination handler runs once).
final class HCIRouteChannel<Element: Sendable>: Sendable {
    /// What ``yield(_:)`` did with an element.
    enum YieldResult: Equatable {
        case enqueued
        /// The queue was full: the element is not kept.
        case dropped
        /// The reader has gone, or the route was finished.
        case terminated
    }

    private struct State: ~Copyable {
        var buffer: [Element] = []
        /// The index of the oldest element in `buffer` (taken elements before it are kept
        /// until half the buffer is spent, then dropped at once).
        var head = 0
        var waiter: UnsafeContinuation<Element?, Never>?
        var isFinished = false
        var isTerminated = false
        var onTermination: (@Sendable () -> Void)?
        /// Takes each element on the yielding thread, once ``consume(_:)`` has handed it what
        /// was queued (``draining`` until then).
        var consumer: (@Sendable (Element?) -> Void)?
        var draining = false
        /// Whether the consumer has been given the end (nil), which it gets once.
        var endGiven = false

        var count: Int { buffer.count - head }

        /// Everything queued, in order; the queue is then empty.
        mutating func takeAll() -> [Element] {
            defer {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            }
            return Array(buffer[head...])
        }

        /// The next element (`.some(element)`), the end (`.some(nil)`), or nothing yet (nil).
        mutating func take() -> Element?? {
            if head < buffer.count {
                let element = buffer[head]
                head += 1
                if head == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    head = 0
                } else if head >= 64, head * 2 >= buffer.count {
                    buffer.removeFirst(head)
                    head = 0
                }
                return .some(element)
            }
            return isFinished || isTerminated ? .some(nil) : nil
        }
    }

    /// The most elements the queue holds.
    let capacity: Int
    private let state = Mutex(State())

    /// A queue of `capacity` elements (at least 1).
    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Queues `element` for the reader, or hands it to the reader waiting for it.
    func yield(_ element: Element) -> YieldResult {
        let (result, waiter, consumer) = state.withLock {
            state -> (YieldResult, UnsafeContinuation<Element?, Never>?, (@Sendable (Element?) -> Void)?) in
            if state.isTerminated || state.isFinished { return (.terminated, nil, nil) }
            if let consumer = state.consumer, !state.draining { return (.enqueued, nil, consumer) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (.enqueued, waiter, nil)
            }
            guard state.count < capacity else { return (.dropped, nil, nil) }
            state.buffer.append(element)
            return (.enqueued, nil, nil)
        }
        consumer?(element)
        waiter?.resume(returning: element)
        return result
    }

    /// Ends the route: the reader takes what the queue holds, then nil. Later yields are
    /// terminated.
    func finish() {
        let (waiter, consumer) = state.withLock { state -> (UnsafeContinuation<Element?, Never>?, (@Sendable (Element?) -> Void)?) in
            guard !state.isFinished else { return (nil, nil) }
            state.isFinished = true
            defer { state.waiter = nil }
            guard let consumer = state.consumer, !state.draining, !state.isTerminated else { return (state.waiter, nil) }
            state.endGiven = true
            return (state.waiter, consumer)
        }
        waiter?.resume(returning: nil)
        consumer?(nil)
    }

    /// From now on, hands every element to `consumer` on the thread that yields it, instead of
    /// queuing it for ``next(isolation:)``: first what the queue holds, in order (elements
    /// yielded meanwhile wait behind them), then each as it comes; nil once, at the end. The
    /// queue's bound no longer applies (nothing waits). ``terminate()`` stops it.
    func consume(_ consumer: @escaping @Sendable (Element?) -> Void) {
        var batch = state.withLock { state -> [Element] in
            state.consumer = consumer
            state.draining = true
            return state.takeAll()
        }
        while true {
            for element in batch { consumer(element) }
            let (rest, givesEnd) = state.withLock { state -> ([Element], Bool) in
                let rest = state.takeAll()
                guard rest.isEmpty else { return (rest, false) }
                state.draining = false
                // A finish while the queue was being handed over is this method's to give.
                guard state.isFinished, !state.isTerminated, !state.endGiven else { return ([], false) }
                state.endGiven = true
                return ([], true)
            }
            if rest.isEmpty {
                if givesEnd { consumer(nil) }
                return
            }
            batch = rest
        }
    }

    /// Runs `action` once when the reader goes (cancelled, or its last ``HCIRouteReader``
    /// released); at once if it has gone already.
    func onTermination(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard !state.isTerminated else { return true }
            state.onTermination = action
            return false
        }
        if now { action() }
    }

    /// The reader has gone: the queue is dropped, a waiting ``next(isolation:)`` returns nil,
    /// later yields are terminated, and the termination handler runs (once).
    func terminate() {
        let (waiter, action) = state.withLock { state -> (UnsafeContinuation<Element?, Never>?, (@Sendable () -> Void)?) in
            guard !state.isTerminated else { return (nil, nil) }
            state.isTerminated = true
            state.buffer = []
            state.head = 0
            defer {
                state.waiter = nil
                state.onTermination = nil
                state.consumer = nil
            }
            return (state.waiter, state.onTermination)
        }
        waiter?.resume(returning: nil)
        action?()
    }

    /// The next element, in order, on the caller's isolation: at once when the queue holds one,
    /// else once one comes; nil once the route has finished and is empty, or has terminated
    /// (the caller's task was cancelled, which terminates it). One reader at a time.
    func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
        if let ready = state.withLock({ $0.take() }) { return ready }
        return await withTaskCancellationHandler(operation: {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Element?, Never>) in
                let ready = state.withLock { state -> Element?? in
                    if let ready = state.take() { return ready }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }, onCancel: {
            terminate()
        }, isolation: actor)
    }
}

/// The reader's end of an ``HCIRouteChannel``: when the last copy of a route that holds it
/// goes (the reader dropped its sequence and iterators), the channel terminates, as an
/// `AsyncStream` does when its consumer goes.
final class HCIRouteReader<Element: Sendable>: Sendable {
    let channel: HCIRouteChannel<Element>

    init(_ channel: HCIRouteChannel<Element>) { self.channel = channel }

    /// A reader whose route has already ended, with nothing in it (a closed flow's routes, and
    /// the routes of links the router let go unread).
    static func ended() -> HCIRouteReader {
        let channel = HCIRouteChannel<Element>(capacity: 1)
        channel.finish()
        return HCIRouteReader(channel)
    }

    deinit { channel.terminate() }
}
