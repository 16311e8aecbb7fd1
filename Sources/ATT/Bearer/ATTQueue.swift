import Synchronization

/// A first-in first-out queue between tasks, with one reader: what the engine hands from the
/// task that reads its bearer to the task that serves requests, and what a bearer's
/// ``ATTBearerInbox`` holds.
///
/// Unlike `AsyncStream`, whose `next` leaves the reader's actor and comes back (on a stack
/// with a task executor, each switch is a queued job), ``next(isolation:)`` takes a queued
/// element on the reader's own actor with no suspension, and a waiting reader is resumed on its
/// actor directly. It holds at most `capacity` elements; newer ones are refused beyond that.
final class ATTQueue<Element: Sendable>: Sendable {
    /// What ``yield(_:)`` did with an element.
    enum YieldResult: Equatable {
        /// Queued, or handed to the waiting reader.
        case enqueued
        /// Refused: the queue holds `capacity` elements.
        case dropped
        /// Refused: the queue is finished.
        case finished
    }

    private struct State {
        var buffer: [Element] = []
        var head = 0
        var waiter: UnsafeContinuation<Element?, Never>?
        var isFinished = false

        /// The next element; `.some(nil)` once finished and empty; nil when the reader must wait.
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
            return isFinished ? .some(nil) : nil
        }
    }

    private let state = Mutex(State())
    /// The most elements the queue holds.
    let capacity: Int

    /// A queue of at most `capacity` elements (at least 1); unbounded by default.
    init(capacity: Int = .max) { self.capacity = max(1, capacity) }

    /// Queues `element` for the reader, or hands it to the reader waiting.
    @discardableResult
    func yield(_ element: Element) -> YieldResult {
        let (result, waiter) = state.withLock { state -> (YieldResult, UnsafeContinuation<Element?, Never>?) in
            guard !state.isFinished else { return (.finished, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (.enqueued, waiter)
            }
            guard state.buffer.count - state.head < capacity else { return (.dropped, nil) }
            state.buffer.append(element)
            return (.enqueued, nil)
        }
        waiter?.resume(returning: element)
        return result
    }

    /// Ends the queue: the reader takes what is queued, then nil.
    func finish() {
        let waiter = state.withLock { state -> UnsafeContinuation<Element?, Never>? in
            state.isFinished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next element, waiting for one; nil once the queue is finished and empty. One reader.
    /// A reader whose task is cancelled while it waits gets nil, and the queue finishes, as an
    /// `AsyncStream` does.
    func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
        if let ready = state.withLock({ $0.take() }) { return ready }
        return await withTaskCancellationHandler(operation: {
            await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Element?, Never>) in
                let ready = state.withLock { state -> Element?? in
                    if let ready = state.take() { return ready }
                    if Task.isCancelled {
                        state.isFinished = true
                        return .some(nil)
                    }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }, onCancel: {
            finish()
        }, isolation: actor)
    }
}
