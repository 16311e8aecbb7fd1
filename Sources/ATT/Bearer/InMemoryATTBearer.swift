import Synchronization

/// One end of two ``ATTBearer``s connected in memory, for tests, PDU scripts and the
/// benchmark: what one end sends, the other receives, in order, with PDU boundaries kept.
///
/// ```swift
/// let (client, server) = InMemoryATTBearer.pair(recordsTranscript: true)
/// try await client.send([0x0A, 0x03, 0x00])          // Read Request, handle 0x0003
/// server.security = ATTSecurity(isEncrypted: true, encryptionKeySize: 16)
/// client.transcript                                   // [first -> second 0a0300]
/// ```
///
/// - Each end has its own ``maximumMTU`` and its own ``security``, which a test may change at
///   any time (for example to make a server's permission check fail, then pass).
/// - ``close()`` at either end closes the pair: both ``received`` streams finish, and later
///   sends at either end throw ``ATTBearerError/closed``.
/// - The pair can keep a ``transcript`` of every PDU sent, both ways, in the order sent.
/// - The pair delivers PDUs of any length: keeping to ATT_MTU is the ``ATTEngine``'s job.
///
/// The ends share their state under a `Mutex` (from the standard library's Synchronization
/// module): each operation is a short critical section that never suspends, and the class
/// stays `Sendable` without `@unchecked`.
public final class InMemoryATTBearer: ATTBearer, CustomStringConvertible {
    /// Which end of a pair: the first or the second element ``pair(maximumMTU:security:recordsTranscript:)`` returns.
    public enum End: Hashable, Sendable, CustomStringConvertible {
        /// The first end of the pair.
        case first
        /// The second end of the pair.
        case second

        /// The other end.
        public var peer: End { self == .first ? .second : .first }

        /// "first" or "second".
        public var description: String { self == .first ? "first" : "second" }
    }

    /// One PDU of a ``transcript``: who sent it, and its octets.
    public struct TranscriptEntry: Hashable, Sendable, CustomStringConvertible {
        /// The end that sent the PDU.
        public var sender: End
        /// The PDU, whole, starting with its Attribute Opcode.
        public var pdu: [UInt8]

        /// An entry for `pdu` sent by `sender`.
        public init(sender: End, pdu: [UInt8]) {
            self.sender = sender
            self.pdu = pdu
        }

        /// "first -> second 0a0300".
        public var description: String { "\(sender) -> \(sender.peer) \(ATTText.octets(pdu))" }
    }

    /// This end of the pair.
    public let end: End
    /// The largest ATT PDU this end receives, in octets (the Rx MTU its engine offers).
    public let maximumMTU: UInt16
    /// The PDUs the other end sent, in order; finishes when either end closes.
    public let received: AsyncStream<[UInt8]>

    private let link: Link

    private init(end: End, maximumMTU: UInt16, received: AsyncStream<[UInt8]>, link: Link) {
        self.end = end
        self.maximumMTU = maximumMTU
        self.received = received
        self.link = link
    }

    /// Two connected ends.
    ///
    /// - Parameters:
    ///   - maximumMTU: each end's ``maximumMTU``, in octets (first, second). Values below 23
    ///     are kept, to test an engine's floor of 23.
    ///   - security: each end's initial ``security`` (first, second).
    ///   - recordsTranscript: whether to keep a ``transcript`` of every PDU sent.
    public static func pair(maximumMTU: (first: UInt16, second: UInt16) = (517, 517),
                            security: (first: ATTSecurity, second: ATTSecurity) = (.none, .none),
                            recordsTranscript: Bool = false) -> (InMemoryATTBearer, InMemoryATTBearer) {
        let (firstStream, firstInput) = AsyncStream.makeStream(of: [UInt8].self)
        let (secondStream, secondInput) = AsyncStream.makeStream(of: [UInt8].self)
        let link = Link(LinkState(input: [firstInput, secondInput],
                                  security: [security.first, security.second],
                                  transcript: recordsTranscript ? [] : nil))
        return (InMemoryATTBearer(end: .first, maximumMTU: maximumMTU.first, received: firstStream, link: link),
                InMemoryATTBearer(end: .second, maximumMTU: maximumMTU.second, received: secondStream, link: link))
    }

    /// Two connected ends with the same maximum MTU (octets) and security.
    public static func pair(mtu: UInt16, security: ATTSecurity = .none,
                            recordsTranscript: Bool = false) -> (InMemoryATTBearer, InMemoryATTBearer) {
        pair(maximumMTU: (mtu, mtu), security: (security, security), recordsTranscript: recordsTranscript)
    }

    // MARK: ATTBearer

    /// This end's security; settable at any time, read by the engine on each request.
    public var security: ATTSecurity {
        get { link.state.withLock { $0.security[end.index] } }
        set { link.state.withLock { $0.security[end.index] = newValue } }
    }

    /// Delivers `pdu` to the other end's ``received`` and appends it to the transcript.
    ///
    /// - Throws: ``ATTBearerError/closed`` once either end has closed; nothing is delivered
    ///   or recorded then.
    public func send(_ pdu: [UInt8]) async throws(ATTBearerError) {
        try sendNow(pdu)
    }

    /// ``send(_:)`` without suspending, for callers outside async code (scripts, benchmarks).
    ///
    /// - Throws: ``ATTBearerError/closed`` once either end has closed.
    public func sendNow(_ pdu: [UInt8]) throws(ATTBearerError) {
        let sent: Bool = link.state.withLock { state in
            guard !state.isClosed else { return false }
            state.transcript?.append(TranscriptEntry(sender: end, pdu: pdu))
            // Yielding inside the lock keeps delivery in transcript order; it never runs the
            // reader's code, only schedules it.
            state.input[end.peer.index].yield(pdu)
            return true
        }
        guard sent else { throw .closed }
    }

    /// Closes both ends: both ``received`` streams finish (after the PDUs already delivered)
    /// and later sends throw ``ATTBearerError/closed``.
    public func close() async {
        closeNow()
    }

    /// ``close()`` without suspending.
    public func closeNow() {
        let inputs: [AsyncStream<[UInt8]>.Continuation] = link.state.withLock { state in
            guard !state.isClosed else { return [] }
            state.isClosed = true
            return state.input
        }
        for input in inputs { input.finish() }
    }

    // MARK: Inspection

    /// Whether the pair is closed.
    public var isClosed: Bool { link.state.withLock { $0.isClosed } }

    /// Every PDU sent at either end so far, in the order sent; empty when the pair was made
    /// without `recordsTranscript`. Both ends return the same transcript.
    public var transcript: [TranscriptEntry] { link.state.withLock { $0.transcript ?? [] } }

    /// How many PDUs of `kind` this end has sent, by their opcodes, from the ``transcript``
    /// (zero without `recordsTranscript`). `sentCount(.request)` is a client's ATT round trips.
    public func sentCount(_ kind: ATTPDUKind) -> Int {
        transcript.filter { $0.sender == end && ATTOpcode(rawValue: $0.pdu.first ?? 0).kind == kind }.count
    }

    /// Empties the transcript (keeping recording on if it was on).
    public func clearTranscript() {
        link.state.withLock { state in
            if state.transcript != nil { state.transcript = [] }
        }
    }

    /// "in-memory ATT bearer (first end, maximum MTU 517)".
    public var description: String { "in-memory ATT bearer (\(end) end, maximum MTU \(maximumMTU))" }

    // MARK: Shared state

    /// What both ends share.
    private struct LinkState: Sendable {
        /// Where each end's received PDUs go, indexed by ``End/index``.
        var input: [AsyncStream<[UInt8]>.Continuation]
        /// Each end's security, indexed by ``End/index``.
        var security: [ATTSecurity]
        /// Every PDU sent, or nil when not recording.
        var transcript: [TranscriptEntry]?
        /// Whether either end has closed.
        var isClosed = false
    }

    /// The pair's shared state; a class so that both ends hold the same `Mutex`.
    private final class Link: Sendable {
        let state: Mutex<LinkState>
        init(_ initial: LinkState) { state = Mutex(initial) }
    }
}

extension InMemoryATTBearer.End {
    /// 0 for the first end, 1 for the second: the index into the pair's per-end arrays.
    fileprivate var index: Int { self == .first ? 0 : 1 }
}
