import BLECore
import Synchronization

/// The Attribute Protocol on one bearer: the rules of Core v5.4, Vol 3, Part F, 3.3 and 3.4.2
/// in one place, for both roles (a link may run a client and a server over one bearer).
///
/// ```swift
/// let engine = ATTEngine(bearer: bearer)
/// let mtu = try await engine.exchangeMTU()                                   // 247
/// let answer = try await engine.request(.readRequest(ATTReadRequest(handle: 0x0003)))
/// if case .errorResponse(let error) = answer { print(error.errorCode) }     // not thrown
/// for await pdu in engine.serverInitiated { ... }                            // notifications, indications
/// ```
///
/// **Sequencing (3.3.2).** One request and one indication are outstanding at a time. Callers
/// that find their lane busy wait their turn, first come first served. Responses, commands,
/// notifications and confirmations flow meanwhile in both directions, and the two lanes do
/// not wait for each other.
///
/// **Timeout (3.3.3).** A request or indication unanswered for ``transactionTimeout`` (30 s)
/// fails with ``ATTError/timeout``; the engine then closes the bearer, so no further ATT PDU is
/// sent on it, and every later call throws ``ATTError/closed``. The clock is injectable
/// (``TestClock`` for tests).
///
/// **Server role.** Requests and commands from the peer go, in arrival order, to the handler
/// set with ``setServer(_:)``; it returns each request's response. The engine itself answers
/// ATT_EXCHANGE_MTU_REQ, answers a request that does not decode with Invalid PDU (0x04) and a
/// request with no handler (or a nil answer) with Request Not Supported (0x06), both with
/// handle 0x0000 (3.3), and never answers a command, known or not.
///
/// **Client role.** Responses complete ``request(_:)``. Notifications and indications go to
/// ``serverInitiated``; the engine confirms each indication as it delivers it there, the
/// confirmation first, so that nothing the client sends in reaction overtakes it (an
/// indication that does not decode is confirmed too, and not delivered).
///
/// **MTU (3.4.2).** ``mtu`` starts at 23. ``exchangeMTU()`` may be used once; when the peer
/// starts the exchange, the engine answers with the bearer's ``ATTBearer/maximumMTU``. Either
/// way the ATT_MTU becomes min(Client Rx MTU, Server Rx MTU), never below 23, and is published
/// on ``mtuUpdates``. A PDU longer than ``mtu`` is refused with ``ATTError/pduTooLarge(size:mtu:)``
/// at the call site; nothing is truncated. A PDU from the peer longer than ``mtu`` is not acted
/// on (3.2.8): a request gets Invalid PDU, a response fails the request with
/// ``ATTError/responseTooLarge(size:mtu:)``.
///
/// **Closing.** ``close()``, the peer closing, a timeout or a failed send end the engine:
/// every pending call is resumed exactly once (the outstanding ones and those waiting their
/// turn), and ``serverInitiated`` and ``mtuUpdates`` finish. When the peer closes (the bearer's
/// input ends), the server role still answers the requests it had already received, in order,
/// for as long as the bearer accepts them (a half-closed stream such as standard input does);
/// then the engine shuts down and ``waitUntilClosed()`` returns. A failed send (the link
/// dropped) fails that call and ends sending, and the engine closes the bearer; the PDUs the
/// bearer still holds (received before the end) are taken in, in order, as its input drains
/// (a bearer that loses its queue on close, or on a failed send, has none): responses complete
/// their requests, notifications and indications (unconfirmed) reach ``serverInitiated``, and
/// commands reach the server handler, while requests, which can no longer be answered, are
/// not served. Call ``close()`` when done: until the bearer closes, the engine's reading task
/// keeps it alive.
///
/// **Re-entrancy.** The handler runs outside the actor, in a task of its own that serves the
/// peer's requests one at a time, so it may call back into the engine (``indicate(_:)``,
/// ``send(_:)``, even ``request(_:)``) without deadlock: the task reading the bearer never
/// waits for the handler. Every engine method re-checks its state after each suspension.
/// A call is not cancelled by cancelling its task: a request already sent is ended only by its
/// answer, the timeout, or closing.
public actor ATTEngine {
    /// The server role's handler: receives each request and command from the peer (except
    /// ATT_EXCHANGE_MTU_REQ, which the engine answers) and the engine, and returns the
    /// response to a request: its successful response, or ``ATTPDU/errorResponse(_:)``.
    /// For a command the return value is ignored.
    ///
    /// A nil answer to a request is sent as Request Not Supported (0x06). An answer that does
    /// not answer the request (another opcode, an error response naming another request) or
    /// that is longer than ``mtu`` is replaced by Unlikely Error (0x0E), handle 0x0000, so
    /// every request gets exactly one valid response.
    ///
    /// The handler runs on the engine's executor (it is `nonisolated(nonsending)`): it leaves
    /// it only for the actors it calls.
    public typealias ServerHandler = nonisolated(nonsending) @Sendable (ATTPDU, ATTEngine) async -> ATTPDU?

    /// The LE default and minimum ATT_MTU, in octets (Vol 3, Part G, 5.2.1).
    public static let defaultMTU = Int(ATTExchangeMTUResponse.defaultLEMTU)

    /// The transport this engine owns and alone reads.
    public nonisolated let bearer: any ATTBearer
    /// How long a request or indication may stay unanswered: 30 s unless given (Part F, 3.3.3).
    public nonisolated let transactionTimeout: Duration
    /// Notifications (ATT_HANDLE_VALUE_NTF, ATT_MULTIPLE_HANDLE_VALUE_NTF) and indications
    /// (ATT_HANDLE_VALUE_IND) received, in order, for the client role. The engine confirms
    /// each indication before yielding it here. Finishes when the engine closes. One reader.
    public nonisolated let serverInitiated: AsyncStream<ATTPDU>
    /// The ATT_MTU after each completed MTU exchange, in octets (either role). Keeps the latest
    /// value for a late reader; finishes when the engine closes.
    public nonisolated let mtuUpdates: AsyncStream<Int>

    /// The ATT_MTU in effect, in octets: 23 until an exchange completes (Part F, 3.4.2).
    /// Readable from any task without waiting for the engine.
    public nonisolated var mtu: Int { mtuValue.load(ordering: .acquiring) }
    /// ``mtu``'s storage: only ``applyMTU(_:)`` changes it, on the engine.
    let mtuValue = Atomic<Int>(ATTEngine.defaultMTU)
    /// Whether the engine has ended for callers (closed, the peer closed, a timeout, a failed
    /// send): every call throws ``ATTError/closed``.
    public internal(set) var isClosed = false
    /// Whether the engine has shut down altogether: the server role has stopped too and the
    /// bearer is closed. After the peer closes, the server role first answers what it received.
    public internal(set) var isShutDown = false
    /// Whether the bearer has refused a PDU (``outputEnded()``): nothing more is sent, while
    /// what the peer had sent is still taken in.
    var hasOutputEnded = false
    /// Whether the client role has ended (``endClientRole()``): the streams are finished.
    var hasEndedClientRole = false
    /// Whether the engine ended because a transaction timed out.
    public internal(set) var didTimeOut = false
    /// Whether this end has sent its (one) ATT_EXCHANGE_MTU_REQ.
    public private(set) var hasExchangedMTU = false

    nonisolated let clock: any Clock<Duration>
    nonisolated let timerClock: ATTTransactionClock
    /// The transaction timer of each lane, while one runs (``startTimer(_:id:)``).
    var laneTimers: [ATTLane: Task<Void, Never>] = [:]
    let serverInitiatedInput: AsyncStream<ATTPDU>.Continuation
    let mtuInput: AsyncStream<Int>.Continuation
    /// The peer's requests and commands waiting for the server role, at most
    /// ``inboundCapacity``: a peer that floods commands (or breaks the one-request rule of
    /// Part F, 3.3.2) while a handler is slow cannot grow it without bound.
    let inbox = ATTQueue<ATTInbound>(capacity: ATTEngine.inboundCapacity)
    /// How many requests and commands wait for the server role at most: 1024. A legal client
    /// has one request outstanding; the rest is room for its commands.
    public static let inboundCapacity = 1024
    /// Requests and commands the peer sent while ``inboundCapacity`` waited already, dropped
    /// unanswered (a request dropped so can only be one that broke 3.3.2, or came behind a
    /// flood of commands).
    public internal(set) var droppedInboundPDUs = 0
    var serverHandler: ServerHandler?

    var requestTurns = ATTTurnQueue()
    var indicationTurns = ATTTurnQueue()
    var outstandingRequest: ATTTransaction?
    var outstandingIndication: ATTTransaction?
    var lastTransactionID: UInt64 = 0
    var closedWaiters: [CheckedContinuation<Void, Never>] = []
    /// The Client Rx MTU of the ATT_EXCHANGE_MTU_REQ this end sent, in octets.
    var sentClientRxMTU: UInt16?
    /// The ATT_MTU agreed in an ATT_EXCHANGE_MTU_RSP this end is sending: PDUs from the peer may
    /// be that long already (it applies the MTU on receipt), though ``mtu`` changes only once the
    /// response is sent (Part F, 3.4.2.2).
    var agreedMTU: Int?

    /// Continuations made and resumed by the engine, for tests that prove each pending call is
    /// resumed exactly once.
    var continuationsMade = 0
    var continuationsResumed = 0

    /// An engine on `bearer`, which starts reading it at once.
    ///
    /// - Parameters:
    ///   - bearer: the transport; the engine owns it and closes it when it ends.
    ///   - clock: the clock for the transaction timer (``TestClock`` in tests).
    ///   - transactionTimeout: how long a request or indication may wait for its answer;
    ///     30 s per Part F, 3.3.3.
    ///   - serverInitiatedBuffering: how many PDUs ``serverInitiated`` keeps for a slow or
    ///     absent reader. An engine that only serves (no client role) can pass
    ///     `.bufferingNewest(0)` so that a peer's notifications are dropped, not stored.
    ///   - server: the server role's handler (as ``setServer(_:)``); set here so that no early
    ///     request finds the engine without one.
    public init(bearer: any ATTBearer,
                clock: any Clock<Duration> = ContinuousClock(),
                transactionTimeout: Duration = .seconds(30),
                serverInitiatedBuffering: AsyncStream<ATTPDU>.Continuation.BufferingPolicy = .unbounded,
                server: ServerHandler? = nil) {
        self.bearer = bearer
        self.clock = clock
        timerClock = ATTTransactionClock(clock)
        self.transactionTimeout = transactionTimeout
        (serverInitiated, serverInitiatedInput) = AsyncStream.makeStream(of: ATTPDU.self,
                                                                          bufferingPolicy: serverInitiatedBuffering)
        (mtuUpdates, mtuInput) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        self.serverHandler = server
        Task(executorPreference: bearer.executor) { await self.readBearer() }
        Task(executorPreference: bearer.executor) { await self.serve() }
    }

    /// The link's current security, from the bearer.
    public nonisolated var security: ATTSecurity {
        get async { await bearer.security }
    }

    /// The Rx MTU this end announces in both ATT_EXCHANGE_MTU_REQ and ATT_EXCHANGE_MTU_RSP
    /// (the same value, Part F, 3.4.2.2): the bearer's maximum, at least 23 octets.
    public nonisolated var localRxMTU: UInt16 {
        max(bearer.maximumMTU, ATTExchangeMTUResponse.defaultLEMTU)
    }

    // MARK: Client role

    /// Exchanges MTUs with the peer, once per bearer: sends ATT_EXCHANGE_MTU_REQ with
    /// ``localRxMTU`` and applies min(``localRxMTU``, Server Rx MTU), at least 23 octets
    /// (Part F, 3.4.2; Part G, 4.3.1). If the peer answers with ATT_ERROR_RSP, the ATT_MTU
    /// stays 23.
    ///
    /// - Returns: the ATT_MTU now in effect, in octets.
    /// - Throws: ``ATTError/mtuAlreadyExchanged`` on a second call; ``ATTError/timeout``,
    ///   ``ATTError/closed``, ``ATTError/unexpectedResponse(_:)``, ``ATTError/invalidPDU(_:)``.
    public func exchangeMTU() async throws(ATTError) -> Int {
        _ = try await request(.exchangeMTURequest(ATTExchangeMTURequest(clientRxMTU: localRxMTU)))
        return mtu
    }

    /// Sends a request and returns its response: the matching response PDU, or
    /// ``ATTPDU/errorResponse(_:)`` naming this request (returned, not thrown).
    ///
    /// One request is outstanding per bearer; a call made while another is outstanding waits
    /// its turn, in call order. An ATT_EXCHANGE_MTU_REQ sent this way counts as the one MTU
    /// exchange and applies the MTU as ``exchangeMTU()`` does.
    ///
    /// - Parameter pdu: a request, or an opcode the specification does not define with the
    ///   Command Flag clear (the peer should answer Request Not Supported).
    /// - Throws: ``ATTError/wrongPDUKind(_:)`` for anything else;
    ///   ``ATTError/pduTooLarge(size:mtu:)`` when the PDU is longer than ``mtu`` (checked at the
    ///   call and again when its turn comes); ``ATTError/mtuAlreadyExchanged``;
    ///   ``ATTError/timeout`` after ``transactionTimeout`` without an answer (the bearer is then
    ///   closed); ``ATTError/closed``; ``ATTError/unexpectedResponse(_:)`` when the peer answers
    ///   with a PDU that does not answer this request; ``ATTError/invalidPDU(_:)`` when the
    ///   response does not decode.
    public func request(_ pdu: ATTPDU) async throws(ATTError) -> ATTPDU {
        guard !isClosed else { throw .closed }
        switch pdu.kind {
        case .request, .unknown: break
        default: throw .wrongPDUKind(pdu.opcode)
        }
        let octets = pdu.encoded
        guard octets.count <= mtu else { throw .pduTooLarge(size: octets.count, mtu: mtu) }
        if case .exchangeMTURequest(let exchange) = pdu {
            guard !hasExchangedMTU else { throw .mtuAlreadyExchanged }
            hasExchangedMTU = true
            sentClientRxMTU = exchange.clientRxMTU
        }
        // An ATT_EXCHANGE_MTU_RSP applies its MTU as it is received (see receive(_:)), before any
        // PDU that follows it is taken in.
        return try await transact(octets, opcode: pdu.opcode, on: .request)
    }

    /// Sends a PDU that gets no answer: a command (ATT_WRITE_CMD, ATT_SIGNED_WRITE_CMD, or an
    /// undefined opcode with the Command Flag set) or, in the server role, a notification
    /// (ATT_HANDLE_VALUE_NTF, ATT_MULTIPLE_HANDLE_VALUE_NTF). It does not wait for an
    /// outstanding request or indication (3.3.2).
    ///
    /// - Throws: ``ATTError/wrongPDUKind(_:)`` for any other PDU type;
    ///   ``ATTError/pduTooLarge(size:mtu:)`` when longer than ``mtu`` (nothing is sent);
    ///   ``ATTError/closed``.
    public func send(_ pdu: ATTPDU) async throws(ATTError) {
        guard !isClosed else { throw .closed }
        switch pdu.kind {
        case .command, .notification: break
        default: throw .wrongPDUKind(pdu.opcode)
        }
        let octets = pdu.encoded
        guard octets.count <= mtu else { throw .pduTooLarge(size: octets.count, mtu: mtu) }
        do {
            try await bearer.send(octets)
        } catch {
            await outputEnded()
            throw .closed
        }
    }

    // MARK: Server role

    /// Sets (or, with nil, removes) the server role's handler; see ``ServerHandler``. Requests
    /// already received but not yet served go to the new handler.
    public func setServer(_ handler: ServerHandler?) {
        serverHandler = handler
    }

    /// Sends ATT_HANDLE_VALUE_IND and waits for the peer's ATT_HANDLE_VALUE_CFM (Part F,
    /// 3.4.7.2). One indication is outstanding per bearer; a call made while another is
    /// outstanding waits its turn, in call order. Requests and notifications flow meanwhile.
    ///
    /// - Throws: ``ATTError/pduTooLarge(size:mtu:)`` when longer than ``mtu`` (nothing is
    ///   sent; the GATT layer cuts the value to ATT_MTU-3 itself); ``ATTError/timeout`` after
    ///   ``transactionTimeout`` without a confirmation (the bearer is then closed);
    ///   ``ATTError/closed``.
    ///
    /// - Parameter whenConfirmed: called once when the confirmation arrives, on the engine,
    ///   before any PDU the peer sent after it reaches the server handler, so a server can act on
    ///   the confirmation in order with the peer's requests (Part G, 2.5.2.1: a client that
    ///   confirms Service Changed is change-aware for its next request). It must not block.
    public func indicate(_ indication: ATTHandleValueIndication,
                         whenConfirmed: (@Sendable () -> Void)? = nil) async throws(ATTError) {
        guard !isClosed else { throw .closed }
        let octets = indication.encoded
        guard octets.count <= mtu else { throw .pduTooLarge(size: octets.count, mtu: mtu) }
        _ = try await transact(octets, opcode: ATTHandleValueIndication.opcode, on: .indication, onAnswer: whenConfirmed)
    }

    // MARK: Closing

    /// Ends the engine and closes the bearer: every pending ``request(_:)``, ``indicate(_:)``
    /// and ``exchangeMTU()`` (outstanding or waiting its turn) throws ``ATTError/closed``,
    /// exactly once; ``serverInitiated`` and ``mtuUpdates`` finish; later calls throw
    /// ``ATTError/closed``. Closing again does nothing.
    public func close() async {
        await shutDown()
    }

    /// Returns once the engine has shut down: after ``close()`` or a timeout; after the peer
    /// closing, once the server role has answered the requests it had received; after a failed
    /// send, once the input the bearer still held has been taken in.
    public func waitUntilClosed() async {
        guard !isShutDown else { return }
        continuationsMade += 1
        await withCheckedContinuation { closedWaiters.append($0) }
    }
}
