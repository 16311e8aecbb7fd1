/// The two sequential protocols of one ATT bearer (Core v5.4, Vol 3, Part F, 3.3.2): a client's
/// request waits for its response, a server's indication for its confirmation. Each lane has
/// at most one transaction outstanding; the lanes do not wait for each other.
enum ATTLane: Hashable, Sendable {
    /// Request -> response (or ATT_ERROR_RSP), the client role.
    case request
    /// Indication -> confirmation, the server role.
    case indication
}

/// What a transaction ends with: the answering PDU, or why there is none.
typealias ATTOutcome = Result<ATTPDU, ATTError>

/// The outstanding transaction of one lane (Part F, 3.3.3): sent, and not yet answered or
/// just answered.
///
/// The outcome can arrive before the sender starts waiting (the peer answers while the send
/// is still returning), so it is kept here until the sender collects it. Completing is
/// idempotent: only the first outcome counts, and the waiter is handed out once, so the
/// sender is resumed exactly once.
struct ATTTransaction {
    /// The engine's number for this transaction, so that a late timer cannot end a later one.
    let id: UInt64
    /// The request's opcode (or ATT_HANDLE_VALUE_IND) that the answer must match.
    let opcode: ATTOpcode
    /// The answer, once it came.
    private(set) var outcome: ATTOutcome?
    /// The sender, while it waits for ``outcome``.
    var waiter: CheckedContinuation<ATTOutcome, Never>?
    /// When the transaction times out, as time elapsed on the engine's clock; nil until the
    /// PDU is sent.
    var deadline: Duration?
    /// Called once, on the engine, when the answer arrives, before any later PDU from the peer
    /// is taken in (``ATTEngine/indicate(_:whenConfirmed:)``).
    let onAnswer: (@Sendable () -> Void)?

    init(id: UInt64, opcode: ATTOpcode, onAnswer: (@Sendable () -> Void)? = nil) {
        self.id = id
        self.opcode = opcode
        self.onAnswer = onAnswer
    }

    /// Whether the transaction is still waiting for its answer.
    var isPending: Bool { outcome == nil }

    /// Records `result` if no outcome is recorded yet, and returns the waiter
    /// to resume (nil if none waits yet, or if the transaction was already complete).
    ///
    /// - Returns: whether `result` was recorded, and the waiter to resume with it.
    mutating func complete(with result: ATTOutcome) -> (recorded: Bool, waiter: CheckedContinuation<ATTOutcome, Never>?) {
        guard outcome == nil else { return (false, nil) }
        outcome = result
        let waiting = waiter
        waiter = nil
        return (true, waiting)
    }
}

/// First come, first served turns on one lane: callers that find the lane busy wait in order,
/// and each turn is handed straight to the next waiter when it ends.
///
/// A waiter is resumed with `true` when its turn comes and `false` when the engine closes
/// first. The queue only stores continuations; the engine resumes them (and counts them).
struct ATTTurnQueue {
    /// Whether a caller holds the turn.
    private(set) var isHeld = false
    private var waiters: [CheckedContinuation<Bool, Never>] = []
    private var head = 0

    /// The callers waiting for their turn.
    var waitingCount: Int { waiters.count - head }

    /// Takes the turn if nobody holds it.
    mutating func takeIfFree() -> Bool {
        guard !isHeld else { return false }
        isHeld = true
        return true
    }

    /// Queues a caller for the turn after the current one.
    mutating func enqueue(_ waiter: CheckedContinuation<Bool, Never>) {
        waiters.append(waiter)
    }

    /// Ends the current turn: returns the next waiter, which now holds the turn, or frees the
    /// lane when nobody waits.
    mutating func passOn() -> CheckedContinuation<Bool, Never>? {
        guard head < waiters.count else {
            isHeld = false
            return nil
        }
        let next = waiters[head]
        head += 1
        if head == waiters.count {
            waiters.removeAll(keepingCapacity: true)
            head = 0
        }
        return next
    }

    /// Removes and returns every waiter (the engine resumes them with `false`).
    mutating func removeAllWaiters() -> ArraySlice<CheckedContinuation<Bool, Never>> {
        let all = waiters[head...]
        waiters = []
        head = 0
        return all
    }
}
