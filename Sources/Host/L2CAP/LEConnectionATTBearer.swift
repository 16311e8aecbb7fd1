import ATT
import Synchronization

/// The ATT bearer of a host-mode link: L2CAP's fixed channel 0x0004 over ACL (Core v5.4, Vol 3,
/// Part A, 2.1; Vol 3, Part F, 3.2.11), so that ``ATTEngine``, the GATT server and the GATT
/// client run unchanged on host mode.
///
/// - ``send(_:)`` puts the PDU in a B-frame on CID 0x0004 and returns once the controller has
///   every fragment (it waits for ACL credits, which is the caller's backpressure); it throws
///   ``ATTBearerError/closed`` when the link has dropped or the bearer was closed.
/// - ``inbox`` holds up to ``inboxCapacity`` PDUs for a reader that falls behind; PDUs
///   beyond are dropped and counted in ``droppedPDUs`` (an ATT engine reads as fast as PDUs
///   come, so only a stalled reader loses any). It finishes after the link drops, once the
///   data received before the Disconnection Complete has been delivered. An engine reads the
///   inbox; ``received`` gives the same PDUs as a stream, for any other reader (one reader in
///   all).
/// - ``security`` is an unencrypted link's: host mode has no SMP yet.
/// - ``close()`` ends ATT on the link (no more PDUs either way) but leaves the link up.
public final class LEConnectionATTBearer: ATTBearer, Sendable {
    /// How many received PDUs wait for the reader: 1024.
    public static let inboxCapacity = 1024

    /// The largest ATT PDU this host receives, in octets: the Rx MTU its engine offers.
    public let maximumMTU: UInt16
    /// The PDUs from the peer, in order.
    public let inbox: ATTBearerInbox?

    private let handle: UInt16
    private let manager: LEConnectionManager
    private let pdus: ATTBearerInbox
    private let state = Mutex((closed: false, dropped: 0))

    init(handle: UInt16, manager: LEConnectionManager, maximumMTU: UInt16) {
        self.handle = handle
        self.manager = manager
        self.maximumMTU = maximumMTU
        pdus = ATTBearerInbox(capacity: Self.inboxCapacity)
        inbox = pdus
    }

    /// The PDUs of ``inbox`` as a stream, for a reader that is not an engine: taken from the
    /// inbox as the stream's reader asks. The inbox has one reader: read one or the other.
    public var received: AsyncStream<[UInt8]> {
        let pdus = self.pdus
        return AsyncStream { () async -> [UInt8]? in await pdus.next(isolation: nil) }
    }

    /// Where the link's ATT engine runs its tasks: the host stack's executor.
    public var executor: (any TaskExecutor)? { manager.executor }

    /// A new link is unencrypted and unauthorised.
    public var security: ATTSecurity { get async { .none } }

    /// PDUs dropped because the reader fell ``inboxCapacity`` behind.
    public var droppedPDUs: Int { state.withLock { $0.dropped } }

    /// Sends one ATT PDU on CID 0x0004. Runs on the caller's isolation (the engine's actor)
    /// up to the connection manager, which it enters directly.
    ///
    /// - Throws: ``ATTBearerError/closed`` once the bearer is closed or the link has dropped.
    public nonisolated(nonsending) func send(_ pdu: [UInt8]) async throws(ATTBearerError) {
        guard !state.withLock({ $0.closed }) else { throw .closed }
        do {
            try await manager.send(channel: .att, payload: pdu, on: handle)
        } catch {
            throw .closed
        }
    }

    /// Ends ATT on this link: ``received`` finishes and later sends throw. The link stays up.
    public func close() async { end() }

    /// Delivers a PDU from the peer (nothing once closed).
    func deliver(_ pdu: [UInt8]) {
        guard !state.withLock({ $0.closed }) else { return }
        if pdus.yield(pdu) == .dropped { state.withLock { $0.dropped += 1 } }
    }

    /// The link dropped (or ATT ended): no more PDUs.
    func end() {
        state.withLock { $0.closed = true }
        pdus.finish()
    }
}
