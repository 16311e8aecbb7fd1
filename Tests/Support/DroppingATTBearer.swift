import ATT
import Synchronization

/// A bearer whose link can drop as a host-mode link does: sends are refused from then on,
/// while the PDUs received before the drop stay queued for the reader, and then its input
/// ends. A test may have the peer answer a sent PDU at once (`answer`), inside `send`, so the
/// answer is queued before the engine takes in anything else.
public final class DroppingATTBearer: ATTBearer {
    public let maximumMTU: UInt16 = 23
    public let received: AsyncStream<[UInt8]>
    private let input: AsyncStream<[UInt8]>.Continuation
    private let state = Mutex<(sent: [[UInt8]], refused: [[UInt8]], dropped: Bool, closes: Int)>(([], [], false, 0))
    private let answer: @Sendable ([UInt8], DroppingATTBearer) -> Void

    public init(answer: @escaping @Sendable ([UInt8], DroppingATTBearer) -> Void = { _, _ in }) {
        (received, input) = AsyncStream.makeStream()
        self.answer = answer
    }

    public var security: ATTSecurity { get async { .none } }
    /// The PDUs the bearer carried, and those it refused after the drop.
    public var sent: [[UInt8]] { state.withLock { $0.sent } }
    public var refused: [[UInt8]] { state.withLock { $0.refused } }
    public var closes: Int { state.withLock { $0.closes } }

    /// A PDU from the peer, the link up.
    public func deliver(_ pdu: [UInt8]) { state.withLock { _ in _ = input.yield(pdu) } }

    /// The link drops after the peer sent `pdus`: later sends are refused; the reader takes
    /// what is queued, then nil. One critical section: the engine sees no send accepted, and
    /// closes nothing, between the PDUs. With `endingInput` false the input ends only when
    /// the bearer is closed, as a socket's does.
    public func drop(after pdus: [[UInt8]] = [], endingInput: Bool = true) {
        state.withLock { state in
            state.dropped = true
            for pdu in pdus { input.yield(pdu) }
            if endingInput { input.finish() }
        }
    }

    public func send(_ pdu: [UInt8]) async throws(ATTBearerError) {
        try state.withLock { state throws(ATTBearerError) in
            guard !state.dropped else {
                state.refused.append(pdu)
                throw .closed
            }
            state.sent.append(pdu)
        }
        answer(pdu, self)
    }

    public func close() async {
        state.withLock { state in
            state.closes += 1
            input.finish()
        }
    }
}
