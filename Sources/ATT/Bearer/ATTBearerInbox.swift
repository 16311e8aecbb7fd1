/// The PDUs a bearer received, for its engine: a bounded first-in first-out queue with one
/// reader, which a bearer may offer beside ``ATTBearer/received`` (``ATTBearer/inbox``).
///
/// An engine on a task executor reads it on its own actor: a queued PDU is taken with no
/// suspension, and a waiting engine is resumed on its actor directly, where `AsyncStream`'s
/// `next` would leave the actor and come back (two queued jobs a PDU on such an executor).
///
/// ```swift
/// let inbox = ATTBearerInbox(capacity: 1024)
/// inbox.yield([0x0A, 0x03, 0x00])       // .enqueued: ATT_READ_REQ, handle 0x0003
/// inbox.finish()                        // the reader takes what is queued, then nil
/// ```
public final class ATTBearerInbox: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    public typealias Failure = Never

    /// What ``yield(_:)`` did with a PDU.
    public enum YieldResult: Sendable, Equatable {
        /// Queued, or handed to the waiting reader.
        case enqueued
        /// Refused: the inbox holds ``capacity`` PDUs (the reader has fallen behind).
        case dropped
        /// Refused: the inbox is finished.
        case finished
    }

    private let queue: ATTQueue<[UInt8]>

    /// An inbox of at most `capacity` PDUs (at least 1); more are refused until the reader
    /// takes some.
    public init(capacity: Int) { queue = ATTQueue(capacity: capacity) }

    /// The most PDUs the inbox holds.
    public var capacity: Int { queue.capacity }

    /// Queues one whole PDU from the peer, or hands it to the waiting reader.
    @discardableResult
    public func yield(_ pdu: [UInt8]) -> YieldResult {
        switch queue.yield(pdu) {
        case .enqueued: .enqueued
        case .dropped: .dropped
        case .finished: .finished
        }
    }

    /// Ends the inbox (the bearer closed): the reader takes what is queued, then nil.
    public func finish() { queue.finish() }

    /// The next PDU, waiting for one; nil once the inbox is finished and empty. One reader.
    public func next(isolation actor: isolated (any Actor)? = #isolation) async -> [UInt8]? {
        await queue.next(isolation: actor)
    }

    /// Iterates the inbox; there is one reader, whichever iterator it uses.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let inbox: ATTBearerInbox

        public mutating func next() async -> [UInt8]? { await inbox.next(isolation: nil) }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Never) -> [UInt8]? {
            await inbox.next(isolation: actor)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(inbox: self) }
}
