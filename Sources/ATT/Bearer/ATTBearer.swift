/// The transport under the Attribute Protocol: one channel that carries whole ATT PDUs,
/// keeping their boundaries (Core v5.4, Vol 3, Part F, 3.2.11; on LE, the L2CAP fixed channel
/// with CID 0x0004, Vol 3, Part A, 2.1).
///
/// Implemented by the kernel's L2CAP socket, the host-mode L2CAP channel, and
/// ``InMemoryATTBearer`` for tests. An ``ATTEngine`` owns one bearer and is its only reader.
///
/// A bearer knows nothing of ATT's rules: it neither checks ATT_MTU nor sequences requests.
/// It delivers octets in order, reports the link's security, and closes.
public protocol ATTBearer: AnyObject, Sendable {
    /// The largest ATT PDU this transport can receive, in octets: the Rx MTU an engine offers
    /// in ATT_EXCHANGE_MTU_REQ and ATT_EXCHANGE_MTU_RSP (Part F, 3.4.2). At least 23, the LE
    /// default ATT_MTU (Vol 3, Part G, 5.2.1).
    var maximumMTU: UInt16 { get }

    /// The link's current security, for a server's permission checks. It may change while
    /// the bearer is open (encryption starts, the peer is authorised).
    var security: ATTSecurity { get async }

    /// Sends one PDU, whole: its first octet is the Attribute Opcode.
    ///
    /// Runs on the caller's isolation (an engine's actor) until it suspends, so a bearer that
    /// hands the PDU to another actor at once costs the engine one hop there and one back, not
    /// a hop through the task's executor each way; a conformance with a plain `async` send
    /// still runs off the caller's actor.
    ///
    /// - Throws: ``ATTBearerError/closed`` once the bearer is closed (at either end).
    nonisolated(nonsending) func send(_ pdu: [UInt8]) async throws(ATTBearerError)

    /// The PDUs received from the peer, in order, each whole. The stream finishes when the
    /// bearer closes, at either end, or when a half-closed transport (standard input) has no
    /// more input while ``send(_:)`` still works. It has one reader.
    var received: AsyncStream<[UInt8]> { get }

    /// The same PDUs as ``received``, through an ``ATTBearerInbox``, for a bearer that can offer
    /// one: an engine then reads them there, with no hop off its actor. Nil (the default) when
    /// the bearer has only ``received``. A bearer has one reader, through one or the other.
    var inbox: ATTBearerInbox? { get }

    /// Where an engine on this bearer runs its tasks (its reader, its server role, its timers),
    /// and the GATT client or server on that engine: the executor of the host stack whose link
    /// carries the bearer (``Host/HostStack``'s), or nil (the default) for the cooperative pool.
    var executor: (any TaskExecutor)? { get }

    /// Closes the bearer: ``received`` finishes at both ends and later sends at either end
    /// throw ``ATTBearerError/closed``. Closing twice does nothing more.
    func close() async
}

extension ATTBearer {
    /// No executor of its own: the engine's tasks run on the cooperative pool.
    public var executor: (any TaskExecutor)? { nil }

    /// No inbox: an engine reads ``received``.
    public var inbox: ATTBearerInbox? { nil }
}
