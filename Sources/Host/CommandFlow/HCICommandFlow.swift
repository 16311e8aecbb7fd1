import BLECore
import HCI

/// Sends HCI commands to a controller and returns their outcome, while every other packet from
/// the controller flows on to subscribers (Core v5.4, Vol 4, Part E, 4.4 "Command flow control"
/// and 4.5 "Command error handling").
///
/// - Flow control: the flow starts with one command credit (4.4: after power-on or a reset, the
///   host sends one command until it hears Command Complete or Command Status). Each Command
///   Complete and Command Status sets the credit to its Num_HCI_Command_Packets, so 0 stops
///   further commands until an event (often a Command Complete for opcode 0x0000) grants more.
///   Commands wait in order, and are sent in the order they were called.
/// - Matching: a Command Complete or Command Status ends the oldest command in flight with its
///   Command_Opcode. Either event may end any command (4.5: an unknown command gets whichever
///   the controller chooses), except that Command Status with Status 0x00 does not end a command
///   that returns through Command Complete.
/// - Outcomes: the decoded return parameters; ``HCICommandError/status(_:opcode:)`` with the HCI
///   error code; ``HCICommandError/timeout(opcode:after:)`` when nothing answers within
///   ``commandTimeout`` (counted from the call, on the injected clock; a credit is then restored,
///   as BlueZ does, so one lost answer, or credits withheld with nothing outstanding, does not
///   stall the flow forever);
///   ``HCICommandError/closed(opcode:)`` when the transport ends; each call is resumed exactly once.
/// - Routing: everything else (other events, Command Complete and Command Status that match no
///   command of this flow, as the kernel's own commands give on a raw socket, ACL data) goes
///   through the flow's router: events by code and LE subevent to each route of ``events(_:capacity:label:)``
///   whose selector takes them, ACL data by connection handle to the link's route
///   (``acl(handle:)``), opened by the link's connection event before that event is routed.
///   Each route is a bounded queue whose overflow is counted and reported in the stream
///   (``HCIRouted/overflow(dropped:)``); what no route takes is counted in
///   ``routingStatistics``. Matching and routing run as packets arrive, whatever command is
///   outstanding, so nothing is lost while a command waits: on the thread that read the packet
///   for a transport that hands packets over directly (``HCIDirectTransport``: H4 streams, the
///   virtual radio's ports), with no hop to a task; in a reading task otherwise.
/// - State: commands, credits and routes live under one lock (``HCICommandFlowCore``) shared by
///   callers and the transport's reader; the actor holds none of them.
///
/// ```swift
/// let flow = HCICommandFlow(transport: transport)
/// let buffer = try await flow.send(HCILEReadBufferSize())       // HCILEReadBufferSize.ReturnParameters
/// for await delivery in await flow.events([.event(.disconnectionComplete)], label: "links") { ... }
/// ```
public actor HCICommandFlow {
    /// The default command timeout: 2 s, BlueZ's HCI_CMD_TIMEOUT (the specification sets none).
    public static let defaultCommandTimeout: Duration = .seconds(2)

    /// How long a command may wait for its Command Complete or Command Status, from the call.
    public nonisolated var commandTimeout: Duration { core.commandTimeout }
    /// Where the flow's tasks run (its reading loop, command timers, the sender), and the tasks
    /// of the layers on it (the connection manager, the links' ATT engines, GATT clients and
    /// servers): a task executor such as LinuxBluetooth's `HostExecutor`, or the cooperative
    /// pool when nil.
    public nonisolated var executor: (any TaskExecutor)? { core.executor }

    private let core: HCICommandFlowCore

    /// A flow over `transport`, which it reads from now on (it is the transport's one reader),
    /// until the transport ends.
    ///
    /// - Parameters:
    ///   - clock: the clock for command timeouts (a test clock in tests).
    ///   - commandTimeout: how long a command may wait for its answer; 2 s by default.
    ///   - executor: where the flow's tasks run (``executor``); nil for the cooperative pool.
    public init(transport: any HCITransport, clock: any Clock<Duration> = ContinuousClock(),
                commandTimeout: Duration = HCICommandFlow.defaultCommandTimeout,
                executor: (any TaskExecutor)? = nil) {
        core = HCICommandFlowCore(transport: transport, clock: clock, commandTimeout: commandTimeout, executor: executor)
        // Reading keeps the core until the transport ends (``close()`` ends it).
        core.startReading()
    }

    /// The number of command credits: how many commands the flow may send now.
    public var commandCredits: Int { core.credits }

    /// The number of commands waiting for a credit (not yet sent).
    public var queuedCommandCount: Int { core.queuedCount }

    /// The number of commands sent and waiting for Command Complete or Command Status.
    public var commandsInFlight: Int { core.inFlightCount }

    /// Whether the flow has ended (its transport closed, or ``close()`` was called).
    public var closed: Bool { core.isClosed }

    // MARK: Commands

    /// Sends `command` and returns its return parameters.
    ///
    /// - Throws: ``HCICommandError/status(_:opcode:)`` for a non-zero Status;
    ///   ``HCICommandError/malformedReturnParameters(opcode:_:)`` when Status 0x00 comes with
    ///   return parameters that do not decode; ``HCICommandError/timeout(opcode:after:)``,
    ///   ``HCICommandError/closed(opcode:)``, ``HCICommandError/transport(opcode:_:)`` and
    ///   ``HCICommandError/cancelled(opcode:)`` as their cases say.
    @discardableResult
    public nonisolated(nonsending) func send<C: HCICommand>(_ command: C) async throws(HCICommandError) -> C.ReturnParameters {
        let returnParameters = try await core.submit(command.packet, completion: C.completion).get()
        return try Self.decode(C.self, returnParameters)
    }

    /// `C`'s return parameters from what its Command Complete (or Command Status) carried.
    private static func decode<C: HCICommand>(_: C.Type, _ returnParameters: [UInt8]) throws(HCICommandError) -> C.ReturnParameters {
        let result: HCICommandResult<C.ReturnParameters>
        do {
            result = try C.result(fromReturnParameters: returnParameters[...])
        } catch {
            throw .malformedReturnParameters(opcode: C.opcode, error)
        }
        switch result {
        case .success(let parameters): return parameters
        case .failure(let status, _): throw .status(status, opcode: C.opcode)
        }
    }

    /// Sends `command` as ``send(_:)`` does (queued in call order), but beyond the caller's
    /// cancellation: the call returns with the controller's answer (or the command timeout, or
    /// the flow's end) even when the calling task is cancelled.
    ///
    /// For the commands that change what the controller is doing (HCI_Disconnect, the create
    /// connection commands, scan and advertising enables): a command cancelled on the host
    /// after it left still runs at the controller (Vol 4, Part E, 4.4), and one refused to a
    /// cancelled caller (a disconnection from cleanup code) never runs at all; either way the
    /// host would lose step with the controller. A caller that must not start such a command
    /// once cancelled checks `Task.isCancelled` first.
    ///
    /// - Throws: as ``send(_:)``, except ``HCICommandError/cancelled(opcode:)``.
    @discardableResult
    public nonisolated(nonsending) func sendIgnoringCancellation<C: HCICommand>(_ command: C) async throws(HCICommandError)
        -> C.ReturnParameters {
        let returnParameters = try await core.submit(command.packet, completion: C.completion, cancellable: false).get()
        return try Self.decode(C.self, returnParameters)
    }

    /// Sends a command packet this package may not know, and returns its Return_Parameters as
    /// received (Status first). For a command that ends with Command Status, the "return
    /// parameters" are the Status octet alone.
    ///
    /// - Throws: ``HCICommandError/status(_:opcode:)`` when the first octet (Status) is not
    ///   0x00; ``HCICommandError/malformedReturnParameters(opcode:_:)`` when there is no octet
    ///   at all; otherwise as ``send(_:)``.
    @discardableResult
    public nonisolated(nonsending) func send(packet: HCICommandPacket, completion: HCICommandCompletion = .commandComplete)
        async throws(HCICommandError) -> [UInt8] {
        let returnParameters = try await core.submit(packet, completion: completion).get()
        guard let first = returnParameters.first else {
            throw .malformedReturnParameters(opcode: packet.opcode,
                                             .truncated(field: "Status", offset: 0, needed: 1, available: 0))
        }
        let status = HCIStatus(rawValue: first)
        guard status.isSuccess else { throw .status(status, opcode: packet.opcode) }
        return returnParameters
    }

    /// Sends an ACL data packet at once (no command credit is involved; ACL flow control, by
    /// Number Of Completed Packets, belongs to the connection layer). It runs on the caller's
    /// executor, straight to the transport, without a hop to the flow's actor.
    ///
    /// - Throws: the transport's error (``HCITransportError/closed`` once the flow has closed
    ///   its transport, or the transport has ended).
    public nonisolated(nonsending) func send(acl packet: HCIACLDataPacket) async throws(HCITransportError) {
        try await core.transport.send(.acl(packet))
    }

    // MARK: Inbound

    /// The default capacity of an event route: 256 events.
    public static let defaultEventCapacity = 256

    /// A route for the events `selector` takes (decode them with `HCIEvent(packet:)`), in arrival
    /// order, through a queue of `capacity` events. Open it before sending the command whose
    /// events you want. The route finishes when the transport closes, and at once (its queued
    /// events dropped) when the controller is reset (``controllerReset()``); it goes when its
    /// reader stops (drops the route, or its task is cancelled).
    ///
    /// - Parameters:
    ///   - capacity: how many events the queue holds for a reader that falls behind; more are
    ///     dropped, counted and reported (``HCIRouted/overflow(dropped:)``).
    ///   - label: names the route in ``routingStatistics``.
    public func events(_ selector: HCIEventSelector, capacity: Int = HCICommandFlow.defaultEventCapacity,
                       label: String) -> HCIEventRoute {
        core.events(selector, capacity: capacity, label: label)
    }

    /// The ACL data of the link on connection `handle`, in arrival order: the route its LE
    /// Connection Complete (or LE Enhanced Connection Complete) opened, holding what arrived
    /// since, or a new route when no such event was seen. It finishes after the handle's
    /// Disconnection Complete, or when the transport closes. A link has one reader. Links are
    /// claimed in the order of their connection events: one that ended and was let go unread
    /// (the router keeps 8) gets a route that has already ended. After HCI_Reset completes, and
    /// when a connection manager starts on this flow, the links nobody claimed are let go.
    ///
    /// - Returns: nil when the link already has its reader.
    public func acl(handle: UInt16) -> HCIACLRoute? { core.acl(handle: handle) }

    /// ``acl(handle:)`` from any isolation, at once: the connection manager claims each link's
    /// route while it handles the link's connection event, so that the links of a reused handle
    /// claim their routes in the order of their events, as the router hands them out.
    nonisolated func claimACL(handle: UInt16) -> HCIACLRoute? { core.acl(handle: handle) }

    /// ``events(_:capacity:label:)`` for a connection manager, which claims the links whose
    /// connection events it reads: in the same step, the links nobody claimed (their events came
    /// before this route, so no manager will claim them) are let go, their buffers returned to
    /// the controller, so that the manager gets only its own links' routes.
    nonisolated func connectionManagerEvents(_ selector: HCIEventSelector, capacity: Int, label: String) -> HCIEventRoute {
        core.events(selector, capacity: capacity, label: label, lettingUnclaimedLinksGo: true)
    }

    /// Turns on the host's half of flow control from the controller to the host (Core v5.4,
    /// Vol 4, Part E, 4.2), once the controller has accepted HCI_Host_Buffer_Size with
    /// `hostTotal` ACL buffers and HCI_Set_Controller_To_Host_Flow_Control: from then on each ACL
    /// packet a reader takes from its route goes back to the controller, in batches of an eighth
    /// of `hostTotal`, with HCI_Host_Number_Of_Completed_Packets. ``ControllerBringUp`` calls it.
    public func returnACLBuffers(hostTotal: Int) { core.bufferReturn.enable(hostTotal: hostTotal) }

    /// How many times ``controllerReset()`` has run on this flow: what was started before a
    /// reset (an advertiser's advertising, say) compares it, to send nothing to the reset
    /// controller on the lost state's behalf.
    public nonisolated var controllerResets: Int { core.resets }

    /// The controller lost its state (it reported a Hardware Error, and is about to be reset and
    /// brought up again: Core v5.4, Vol 4, Part E, 7.7.16; HCI_Reset ends every connection,
    /// scan and advertising set, 7.3.2): every link's ACL route ends as if its Disconnection
    /// Complete had come (none will); every event route ends, the events it still held dropped,
    /// as they tell of the lost state (a scanner's discoveries finish; an advertiser stops
    /// watching for connections and counts as stopped; a connection manager ends); the commands
    /// in flight and those queued end with ``HCICommandError/controllerReset(opcode:)`` (answers
    /// will not come, and the queued ones were meant for the lost state); and flow control from
    /// the controller to the host stops until bring-up turns it on again. Commands sent, and
    /// routes made, afterwards are untouched.
    public func controllerReset() {
        core.abandonCommands()
        core.finishRoutes()
        core.bufferReturn.disable()
    }

    /// Whether the flow returns ACL buffers to the controller (``returnACLBuffers(hostTotal:)``).
    public var returnsACLBuffers: Bool { core.bufferReturn.isOn }

    /// How many ACL buffers the flow has returned to the controller.
    public var returnedACLBufferCount: Int { core.bufferReturn.returnedCount }

    /// What the router could not deliver since the flow started: events no route took, ACL
    /// data for unknown handles, and each route's overflow.
    public var routingStatistics: HCIRoutingStatistics { core.statistics }

    /// Gives every later Number Of Completed Packets event to `handler` on the thread that read
    /// it, in arrival order with the other packets, instead of routing it (Core v5.4, Vol 4,
    /// Part E, 7.7.19): the connection layer's ACL credits come back with no hop to a task. One
    /// handler; a later call replaces it. An event that does not decode is routed as before.
    nonisolated func onNumberOfCompletedPackets(_ handler: @escaping @Sendable (HCIEvent.NumberOfCompletedPackets) -> Void) {
        core.onNumberOfCompletedPackets(handler)
    }

    /// Calls `handler` with every later successful Disconnection Complete on the thread that
    /// read it, before any packet that came after it, and routes the event as before. The
    /// connection layer stops the link's outgoing ACL there: once the controller has reported
    /// the disconnection, it may give the handle to a new link, and nothing queued for the old
    /// one may reach the new one (Core v5.4, Vol 4, Part E, 4.3 and 7.7.5). One handler; a
    /// later call replaces it. Octets after the Reason are left out
    /// (``HCIEvent/decodingPastTrailingOctets(_:)``).
    nonisolated func onDisconnectionComplete(_ handler: @escaping @Sendable (HCIEvent.DisconnectionComplete) -> Void) {
        core.onDisconnectionComplete(handler)
    }

    /// Calls `handler` with the Connection_Handle of every later successful LE Connection
    /// Complete or LE Enhanced Connection Complete (v1 or v2), and the number of the link the
    /// router opened for it (``HCIACLRoute``'s), on the thread that read it, before the event
    /// goes to any route, and routes the event as before: the connection layer's sender knows of
    /// a link from its event on, so that a Disconnection Complete read before the manager has
    /// taken the link in still ends it (Core v5.4, Vol 4, Part E, 7.7.65.1, 7.7.5). `handler`
    /// runs under the flow's lock: it must only take locks of its own. One handler; a later
    /// call replaces it.
    nonisolated func onConnectionComplete(_ handler: @escaping @Sendable (UInt16, UInt64) -> Void) {
        core.onConnectionComplete(handler)
    }

    // MARK: Closing

    /// Ends the flow: closes the transport, resumes every waiting command with
    /// ``HCICommandError/closed(opcode:)`` and finishes every route's stream. Later commands
    /// throw ``HCICommandError/closed(opcode:)`` at once.
    public func close() async {
        core.shutDown()
        await core.transport.close()
    }
}
