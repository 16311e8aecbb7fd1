import BLECore
import HCI
import L2CAP

/// Host mode's LE connections over an ``HCICommandFlow``: links as central and as peripheral,
/// ACL flow control, L2CAP's fixed channels, and the procedures run on a link (Core v5.4,
/// Vol 4, Part E, 4.1 and 7.8; Vol 3, Part A).
///
/// - Links: a successful LE Connection Complete or LE Enhanced Connection Complete makes an
///   ``LEConnection``; a central link goes to the ``connect(to:addressType:parameters:timeout:)``
///   call waiting for it, every other link (a peripheral link after connectable advertising, or
///   a central link no call waits for) to ``incomingConnections``.
/// - ACL: PDUs leave through ``ACLFlowControl`` (credits from the controller's buffers, given
///   back by Number Of Completed Packets, round robin across links); data from the controller
///   is reassembled per link with limits (``ACLReassembler``).
/// - L2CAP fixed channels: 0x0004 to the link's ATT bearer; 0x0005 to the signaling responder
///   (``LEConnectionParameterLimits`` decide a peripheral's parameter requests); 0x0006 answers
///   Pairing Request and Security Request with Pairing Failed, Pairing Not Supported, until host
///   mode has its own SMP. Frames for other channels are dropped and counted (``diagnostics``).
/// - Ends: a Disconnection Complete ends its link's pending operations once, with its Reason;
///   a Hardware Error or the transport closing ends every link and every pending call once
///   (links with 0x03 Hardware Failure, calls with ``LEConnectionError/ended(_:)``). The link's
///   queued PDUs are dropped on the thread that read the Disconnection Complete (Vol 4, Part E,
///   4.3), before the handle can serve a new link.
/// - A link is its ``LEConnection``, not its handle: calls on a connection whose link has gone
///   throw ``LEConnectionError/disconnected(reason:)`` even when a newer link has the handle.
/// - Events it acts on are read past octets after their last parameter
///   (``HCIEvent/decodingPastTrailingOctets(_:)``); events that do not decode are skipped.
///
/// ```swift
/// let flow = HCICommandFlow(transport: transport)
/// let controller = try await ControllerBringUp.run(on: flow)
/// let manager = await LEConnectionManager(flow: flow, controller: controller)
/// let connection = try await manager.connect(to: peer, addressType: .random, timeout: .seconds(10))
/// ```
public actor LEConnectionManager {
    /// Settings of a manager.
    public struct Configuration: Sendable {
        /// The connection parameters a central accepts from a peripheral's L2CAP request.
        public var parameterLimits: LEConnectionParameterLimits
        /// The Rx MTU the links' ATT bearers offer, in octets (23...517; 517 by default).
        public var attMTU: UInt16
        /// How many PDUs one link may queue for ACL credits (64 by default).
        public var maximumQueuedPDUsPerLink: Int
        /// How long a signaling request or a controller procedure may take (30 s by default).
        public var procedureTimeout: Duration

        /// Settings; the defaults accept every valid parameter request.
        public init(parameterLimits: LEConnectionParameterLimits = LEConnectionParameterLimits(), attMTU: UInt16 = 517,
                    maximumQueuedPDUsPerLink: Int = 64, procedureTimeout: Duration = .seconds(30)) {
            self.parameterLimits = parameterLimits
            self.attMTU = min(max(attMTU, 23), 517)
            self.maximumQueuedPDUsPerLink = maximumQueuedPDUsPerLink
            self.procedureTimeout = procedureTimeout
        }
    }

    /// Why a manager ended.
    public enum EndCause: Hashable, Sendable, CustomStringConvertible {
        /// The controller reported HCI_Hardware_Error with this Hardware_Code (Vol 4, Part E,
        /// 7.7.16); the host must reset it and bring it up again.
        case hardwareError(UInt8)
        /// The HCI transport closed.
        case transportClosed
        /// ``close()`` was called.
        case closedByHost
        /// The manager's event route overflowed: `count` connection events were lost, so the
        /// links' state is unknown (a reader stalled behind 1024 events).
        case eventsLost(Int)

        /// "the controller reported Hardware Error 0x01", ...
        public var description: String {
            switch self {
            case .hardwareError(let code): return "the controller reported Hardware Error 0x\(Hex.encode([code]).uppercased())"
            case .transportClosed: return "the HCI transport closed"
            case .closedByHost: return "closed by the host"
            case .eventsLost(let count): return "\(count) connection events were lost; the links' state is unknown"
            }
        }

        /// The Reason the links still up end with: 0x16 Connection Terminated By Local Host
        /// when the host closed the manager (it ended them); 0x03 Hardware Failure otherwise,
        /// as the controller or the transport failed under them.
        var linkReason: HCIStatus {
            self == .closedByHost ? .connectionTerminatedByLocalHost : .hardwareFailure
        }
    }

    /// What the manager dropped or refused, counted since it started.
    public struct Diagnostics: Hashable, Sendable {
        /// L2CAP frames for channels host mode does not serve, by CID.
        public var droppedFrames: [UInt16: Int] = [:]
        /// ACL reassembly problems (fragments out of place, PDUs over the limits, overflows).
        public var reassemblyProblems = 0
        /// The last reassembly problems, newest last (at most 16).
        public var recentReassemblyProblems: [String] = []
        /// Signaling answers sent: responses to the peer's requests and Command Rejects.
        public var signalingAnswers = 0
        /// Signaling and SMP answers not sent because the link's queue was full (a peer that floods).
        public var unsentSignalingAnswers = 0
        /// Connection parameters a peripheral asked for (L2CAP Connection Parameter Update
        /// Request, accepted) that the controller then did not apply: LE Connection Update
        /// refused, failed or timed out. The last such failures, newest last (at most 16).
        public var failedPeerParameterUpdates: [String] = []
        /// SMP PDUs other than Pairing Request and Security Request, ignored (such as the
        /// peer's Pairing Failed).
        public var ignoredSMPPDUs = 0
        /// SMP Pairing Requests and Security Requests answered with Pairing Not Supported.
        public var pairingRefusals = 0
        /// ATT PDUs dropped because a bearer's reader fell behind.
        public var droppedATTPDUs = 0
        /// Number Of Completed Packets beyond a link's outstanding packets, and for unknown handles.
        public var excessCompletions = 0
        /// Signaling, SMP and other non-ATT frames (and reassembly reports) dropped because the
        /// manager had 256 of a link's waiting (a peer that floods).
        public var droppedLinkItems = 0

        /// Nothing dropped.
        public init() {}
    }

    let flow: HCICommandFlow
    /// Where the manager's tasks run, and those of its links' ATT engines: the flow's executor
    /// (``HCICommandFlow/executor``).
    public nonisolated var executor: (any TaskExecutor)? { flow.executor }
    /// What bring-up found: the address, the command family, the ACL buffers.
    public let controller: ControllerInformation
    /// The settings.
    public let configuration: Configuration
    let clock: any Clock<Duration>

    /// Links that are not central links a connect call is waiting for, as they form.
    public nonisolated let incomingConnections: AsyncStream<LEConnection>
    let incoming: AsyncStream<LEConnection>.Continuation

    /// The links' outgoing PDUs and ACL flow control, which senders use from their own tasks.
    nonisolated let sender: LEACLSender
    var links: [UInt16: Link] = [:]
    var diagnosticsValue = Diagnostics()
    /// Set once the manager has ended.
    var endCause: EndCause?
    var pendingConnect: PendingConnect?
    var connectTurnHeld = false
    /// Connect calls waiting for the turn; each is resumed with true to look again, or false
    /// when its caller was cancelled.
    var connectTurnWaiters: [(id: UInt64, waiter: CheckedContinuation<Bool, Never>)] = []
    var nextOperationID: UInt64 = 0
    private var eventReader: Task<Void, Never>?

    /// A manager over `flow`, after ``ControllerBringUp`` gave `controller`.
    ///
    /// - Parameter clock: the clock of connection and procedure timeouts (a radio's virtual
    ///   clock in deterministic tests).
    public init(flow: HCICommandFlow, controller: ControllerInformation, configuration: Configuration = Configuration(),
                clock: any Clock<Duration> = ContinuousClock()) async {
        self.flow = flow
        self.controller = controller
        self.configuration = configuration
        self.clock = clock
        sender = LEACLSender(flow: flow, flowControl: ACLFlowControl(buffers: controller.aclBuffers,
                                                                     maximumQueuedPDUsPerLink: configuration.maximumQueuedPDUsPerLink))
        (incomingConnections, incoming) = AsyncStream.makeStream(of: LEConnection.self)
        // Number Of Completed Packets goes to the sender on the thread that read it.
        flow.onNumberOfCompletedPackets { [weak sender] completed in sender?.completed(completed.entries) }
        // And a link's outgoing ACL stops with its Disconnection Complete, before the packets
        // after it: a new link on the handle never gets the old link's queue.
        flow.onDisconnectionComplete { [weak sender] complete in sender?.disconnected(complete.connectionHandle, reason: complete.reason) }
        // It learns of each link from its connection event, on that thread too: a Disconnection
        // Complete read before the manager takes the link in still ends it.
        flow.onConnectionComplete { [weak sender] handle, link in sender?.announce(handle, link: link) }
        // The links of connection events before this route are nobody's: they go as it is added.
        let events = flow.connectionManagerEvents([.event(.disconnectionComplete), .event(.hardwareError),
                                                   .leMeta(.connectionComplete), .leMeta(.enhancedConnectionComplete),
                                                   .leMeta(.enhancedConnectionCompleteV2), .leMeta(.connectionUpdateComplete),
                                                   .leMeta(.dataLengthChange), .leMeta(.phyUpdateComplete)],
                                                  capacity: 1024, label: "connections")
        sender.onTransportFailure { [weak self] in
            guard let self else { return }
            Task { await self.end(.transportClosed) }
        }
        eventReader = Task(executorPreference: executor) { [weak self] in await self?.readEvents(events) }
    }

    /// Reads the manager's event route on its actor (the stream resumes the loop on the actor,
    /// not on the task's executor) until the route ends with the transport or ``end(_:)`` cancels the
    /// reader; the manager lives as long.
    private func readEvents(_ events: HCIEventRoute) async {
        for await delivery in events { receive(delivery) }
        end(.transportClosed)
    }

    /// The links up now, by handle: not those dropped whose received data is still being read.
    public var connections: [LEConnection] {
        links.values.filter { $0.dropped == nil }.map(\.connection).sorted { $0.handle < $1.handle }
    }

    /// What was dropped or refused so far.
    public var diagnostics: Diagnostics {
        var current = diagnosticsValue
        current.excessCompletions = sender.excessCompletions
        current.droppedATTPDUs += links.values.reduce(0) { $0 + $1.connection.att.droppedPDUs }
        current.droppedLinkItems += links.values.reduce(0) { $0 + ($1.receiver?.droppedItems ?? 0) }
        return current
    }

    /// Why the manager ended, or nil while it runs.
    public var ended: EndCause? { endCause }

    /// Ends the manager as a Hardware Error does, unless it has ended already: every link and
    /// pending call ends with Hardware Failure (0x03), and ``ended`` is
    /// ``EndCause/hardwareError(_:)`` with code 0x00. ``HostStack/restart()`` calls it before it
    /// resets the controller.
    public func controllerFailed() {
        end(.hardwareError(0x00))
    }

    /// Ends the manager. Each link still up is first ended with HCI_Disconnect, reason 0x13
    /// Remote User Terminated Connection (Vol 4, Part E, 7.1.6), so that the peer hears an
    /// LL_TERMINATE_IND at once rather than waiting out its supervision timeout; the call waits
    /// only for the controller's Command Status (bounded by the flow's command timeout), not for
    /// Disconnection Complete. Then every link and pending call ends here with 0x16 Connection
    /// Terminated By Local Host, and later calls throw ``LEConnectionError/ended(_:)`` with
    /// ``EndCause/closedByHost``. The flow stays open (the caller owns it).
    public func close() async {
        guard endCause == nil else { return }
        for link in links.values.sorted(by: { $0.connection.handle < $1.connection.handle }) where link.dropped == nil {
            // A refusal (the link went meanwhile, or a controller that is gone) changes nothing here.
            _ = try? await flow.sendIgnoringCancellation(HCIDisconnect(connectionHandle: link.connection.handle,
                                                                       reason: .remoteUserTerminatedConnection))
        }
        end(.closedByHost)
    }

    // MARK: Events

    private func receive(_ delivery: HCIRouted<HCIEventPacket>) {
        // An ended manager acts on nothing more: what its route still holds (a link that formed
        // after a Hardware Error) would make links nobody can end.
        guard endCause == nil else { return }
        guard case .packet(let packet) = delivery else {
            // Lost connection events cannot be recovered: the links' state is unknown.
            if case .overflow(let dropped) = delivery { end(.eventsLost(dropped)) }
            return
        }
        // Octets after an event's last parameter are left out: a Disconnection Complete that
        // carries them still ends its link.
        guard let event = try? HCIEvent.decodingPastTrailingOctets(packet).event else { return }
        switch event {
        case .disconnectionComplete(let complete):
            guard complete.status.isSuccess else {
                disconnectionFailed(complete.connectionHandle, status: complete.status)
                return
            }
            linkDropped(complete.connectionHandle, reason: complete.reason)
        case .hardwareError(let error):
            end(.hardwareError(error.hardwareCode))
        case .leMeta(let meta):
            receive(meta)
        default:
            return
        }
    }

    private func receive(_ meta: LEMetaEvent) {
        switch meta {
        case .connectionComplete(let c):
            connectionCompleted(status: c.status, handle: c.connectionHandle, role: c.role, peerAddressType: c.peerAddressType,
                                peerAddress: c.peerAddress, state: LEConnectionState(connectionInterval: c.connectionInterval,
                                                                                     peripheralLatency: c.peripheralLatency,
                                                                                     supervisionTimeout: c.supervisionTimeout))
        case .enhancedConnectionComplete(let c):
            enhancedCompleted(c)
        case .enhancedConnectionCompleteV2(let c):
            enhancedCompleted(c.connection)
        case .connectionUpdateComplete(let c):
            connectionUpdated(c)
        case .dataLengthChange(let c):
            links[c.connectionHandle]?.connection.update {
                $0.maxTXOctets = c.maxTXOctets
                $0.maxRXOctets = c.maxRXOctets
            }
        case .phyUpdateComplete(let c):
            phyUpdated(c)
        default:
            return
        }
    }

    private func enhancedCompleted(_ c: LEMetaEvent.EnhancedConnectionComplete) {
        connectionCompleted(status: c.status, handle: c.connectionHandle, role: c.role, peerAddressType: c.peerAddressType,
                            peerAddress: c.peerAddress, state: LEConnectionState(connectionInterval: c.connectionInterval,
                                                                                 peripheralLatency: c.peripheralLatency,
                                                                                 supervisionTimeout: c.supervisionTimeout))
    }

    // MARK: Ending

    /// Ends the manager once: every link drops with Hardware Failure, every call ends.
    func end(_ cause: EndCause) {
        guard endCause == nil else { return }
        endCause = cause
        sender.end(cause)
        for handle in Array(links.keys) {
            linkDropped(handle, reason: cause.linkReason)
            tearDown(handle)
        }
        pendingConnect?.finish(.failure(.ended(cause)))
        pendingConnect = nil
        for waiting in connectTurnWaiters { waiting.waiter.resume(returning: true) }
        connectTurnWaiters = []
        incoming.finish()
        eventReader?.cancel()
    }
}
