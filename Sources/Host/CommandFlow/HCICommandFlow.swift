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
///   ``routingStatistics``. Routing runs on the flow's actor as packets arrive, whatever command
///   is outstanding, so nothing is lost while a command waits.
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
    public let commandTimeout: Duration
    /// Where the flow's tasks run (its reading loop, command timers, the sender), and the tasks
    /// of the layers on it (the connection manager, the links' ATT engines, GATT clients and
    /// servers): a task executor such as LinuxBluetooth's `HostExecutor`, or the cooperative
    /// pool when nil.
    public nonisolated let executor: (any TaskExecutor)?

    private struct Command {
        var id: UInt64
        var packet: HCICommandPacket
        var completion: HCICommandCompletion
        var waiter: CheckedContinuation<Result<[UInt8], HCICommandError>, Never>?
        var timer: Task<Void, Never>?
    }

    private let transport: any HCITransport
    private let clock: any Clock<Duration>
    private var queued: [Command] = []
    private var inFlight: [Command] = []
    private var credits = 1
    private var pumping = false
    private var isClosed = false
    private var nextID: UInt64 = 0
    private var router: HCIRouter

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
        self.transport = transport
        self.clock = clock
        self.commandTimeout = commandTimeout
        self.executor = executor
        router = HCIRouter(bufferReturn: HCIHostBufferReturn(transport: transport))
        let packets = transport.packets
        // The reading loop runs on the flow's actor (the stream resumes it on the actor, not on
        // the task's executor), and keeps the flow until the transport ends
        // (``close()`` ends it).
        Task(executorPreference: executor) { [weak self] in await self?.read(packets) }
    }

    private func read(_ packets: AsyncStream<HCIPacket>) async {
        for await packet in packets { receive(packet) }
        transportEnded()
    }

    /// The number of command credits: how many commands the flow may send now.
    public var commandCredits: Int { credits }

    /// The number of commands waiting for a credit (not yet sent).
    public var queuedCommandCount: Int { queued.count }

    /// The number of commands sent and waiting for Command Complete or Command Status.
    public var commandsInFlight: Int { inFlight.count }

    /// Whether the flow has ended (its transport closed, or ``close()`` was called).
    public var closed: Bool { isClosed }

    // MARK: Commands

    /// Sends `command` and returns its return parameters.
    ///
    /// - Throws: ``HCICommandError/status(_:opcode:)`` for a non-zero Status;
    ///   ``HCICommandError/malformedReturnParameters(opcode:_:)`` when Status 0x00 comes with
    ///   return parameters that do not decode; ``HCICommandError/timeout(opcode:after:)``,
    ///   ``HCICommandError/closed(opcode:)``, ``HCICommandError/transport(opcode:_:)`` and
    ///   ``HCICommandError/cancelled(opcode:)`` as their cases say.
    @discardableResult
    public func send<C: HCICommand>(_ command: C) async throws(HCICommandError) -> C.ReturnParameters {
        let returnParameters = try await submit(command.packet, completion: C.completion).get()
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

    /// Sends a command packet this package may not know, and returns its Return_Parameters as
    /// received (Status first). For a command that ends with Command Status, the "return
    /// parameters" are the Status octet alone.
    ///
    /// - Throws: ``HCICommandError/status(_:opcode:)`` when the first octet (Status) is not
    ///   0x00; ``HCICommandError/malformedReturnParameters(opcode:_:)`` when there is no octet
    ///   at all; otherwise as ``send(_:)``.
    @discardableResult
    public func send(packet: HCICommandPacket, completion: HCICommandCompletion = .commandComplete) async throws(HCICommandError) -> [UInt8] {
        let returnParameters = try await submit(packet, completion: completion).get()
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
        try await transport.send(.acl(packet))
    }

    private func submit(_ packet: HCICommandPacket, completion: HCICommandCompletion) async -> Result<[UInt8], HCICommandError> {
        guard !isClosed else { return .failure(.closed(opcode: packet.opcode)) }
        nextID &+= 1
        let id = nextID
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Result<[UInt8], HCICommandError>, Never>) in
                // Runs on the actor: nothing can answer the command before it is registered.
                guard !Task.isCancelled else {
                    waiter.resume(returning: .failure(.cancelled(opcode: packet.opcode)))
                    return
                }
                var command = Command(id: id, packet: packet, completion: completion, waiter: waiter)
                command.timer = armTimer(id)
                queued.append(command)
                pump()
            }
        } onCancel: {
            Task { await self.cancel(id, opcode: packet.opcode) }
        }
    }

    /// Ends command `id` with ``HCICommandError/cancelled(opcode:)`` for its cancelled caller.
    /// A command already sent stays in flight without a caller: the controller still answers it
    /// (Vol 4, Part E, 4.4), and that Command Complete or Command Status must end it, not a later
    /// command with the same opcode. Its timer still runs, so an answer that never comes frees
    /// the credit as a timeout does.
    private func cancel(_ id: UInt64, opcode: HCIOpcode) {
        if let index = inFlight.firstIndex(where: { $0.id == id }) {
            let waiter = inFlight[index].waiter
            inFlight[index].waiter = nil
            waiter?.resume(returning: .failure(.cancelled(opcode: opcode)))
        } else {
            end(id, with: .failure(.cancelled(opcode: opcode)))
        }
    }

    private func armTimer(_ id: UInt64) -> Task<Void, Never> {
        let clock = self.clock
        let timeout = commandTimeout
        return Task { [weak self] in
            guard (try? await TimeoutSleep.sleep(on: clock, for: timeout)) != nil else { return }   // cancelled
            await self?.timedOut(id)
        }
    }


    /// Sends queued commands while credits last, one at a time and in order.
    private func pump() {
        guard !pumping else { return }
        pumping = true
        // On the stack's executor when it has one; otherwise a task on the flow itself, whose
        // drain then runs in order with the flow's other work.
        if let executor {
            Task(executorPreference: executor) { await self.drain() }
        } else {
            Task { await self.drain() }
        }
    }

    private func drain() async {
        defer { pumping = false }
        while !isClosed, credits > 0, !queued.isEmpty {
            let command = queued.removeFirst()
            credits -= 1
            inFlight.append(command)
            do {
                try await transport.send(.command(command.packet))
            } catch {
                end(command.id, with: .failure(.transport(opcode: command.packet.opcode, error)))
                credits += 1
            }
        }
    }

    private func timedOut(_ id: UInt64) {
        let wasSent = inFlight.contains { $0.id == id }
        guard let command = take(id) else { return }
        // A lost answer, or a controller that set Num_HCI_Command_Packets to 0 and then granted
        // nothing for a whole timeout with no command outstanding: take one credit back, as
        // BlueZ does when its command timer fires, or the flow could never send again (not even
        // HCI_Reset, the usual way out).
        if wasSent || (credits == 0 && inFlight.isEmpty) { credits = max(credits, 1) }
        command.waiter?.resume(returning: .failure(.timeout(opcode: command.packet.opcode, after: commandTimeout)))
        pump()
    }

    /// Ends command `id` (queued or in flight) with `result`, if it has not ended already.
    private func end(_ id: UInt64, with result: Result<[UInt8], HCICommandError>) {
        guard let command = take(id) else { return }
        command.timer?.cancel()
        command.waiter?.resume(returning: result)
    }

    private func take(_ id: UInt64) -> Command? {
        if let index = inFlight.firstIndex(where: { $0.id == id }) { return inFlight.remove(at: index) }
        if let index = queued.firstIndex(where: { $0.id == id }) { return queued.remove(at: index) }
        return nil
    }

    // MARK: Inbound

    /// The default capacity of an event route: 256 events.
    public static let defaultEventCapacity = 256

    /// A route for the events `selector` takes (decode them with `HCIEvent(packet:)`), in arrival
    /// order, through a queue of `capacity` events. Open it before sending the command whose
    /// events you want. The route finishes when the transport closes; it goes when its reader
    /// stops (drops the route, or its task is cancelled).
    ///
    /// - Parameters:
    ///   - capacity: how many events the queue holds for a reader that falls behind; more are
    ///     dropped, counted and reported (``HCIRouted/overflow(dropped:)``).
    ///   - label: names the route in ``routingStatistics``.
    public func events(_ selector: HCIEventSelector, capacity: Int = HCICommandFlow.defaultEventCapacity,
                       label: String) -> HCIEventRoute {
        guard !isClosed else { return HCIEventRoute(reader: Self.endedReader()) }
        nextID &+= 1
        let id = nextID
        return router.addEventRoute(id: id, selector, capacity: capacity, label: label) { [weak self] in
            Task { await self?.removeRoute(id) }
        }
    }

    /// The ACL data of the link on connection `handle`, in arrival order: the route its LE
    /// Connection Complete (or LE Enhanced Connection Complete) opened, holding what arrived
    /// since, or a new route when no such event was seen. It finishes after the handle's
    /// Disconnection Complete, or when the transport closes. A link has one reader.
    ///
    /// - Returns: nil when the link already has its reader.
    public func acl(handle: UInt16) -> HCIACLRoute? {
        guard !isClosed else {
            return HCIACLRoute(reader: Self.endedReader(), link: 0, bufferReturn: router.bufferReturn)
        }
        return router.claimACL(handle: handle)
    }

    /// A route's reader that has already ended (the flow is closed).
    private static func endedReader<Element: Sendable>() -> HCIRouteReader<Element> {
        let channel = HCIRouteChannel<Element>(capacity: 1)
        channel.finish()
        return HCIRouteReader(channel)
    }

    /// Turns on the host's half of flow control from the controller to the host (Core v5.4,
    /// Vol 4, Part E, 4.2), once the controller has accepted HCI_Host_Buffer_Size with
    /// `hostTotal` ACL buffers and HCI_Set_Controller_To_Host_Flow_Control: from then on each ACL
    /// packet a reader takes from its route goes back to the controller, in batches of an eighth
    /// of `hostTotal`, with HCI_Host_Number_Of_Completed_Packets. ``ControllerBringUp`` calls it.
    public func returnACLBuffers(hostTotal: Int) { router.bufferReturn.enable(hostTotal: hostTotal) }

    /// The controller lost its state (it reported a Hardware Error, and is about to be reset and
    /// brought up again: Core v5.4, Vol 4, Part E, 7.7.16): every link's ACL route ends as if its
    /// Disconnection Complete had come (none will), and flow control from the controller to the
    /// host stops until bring-up turns it on again. Commands and event routes are untouched.
    public func controllerReset() {
        router.endAllLinks()
        router.bufferReturn.disable()
    }

    /// Whether the flow returns ACL buffers to the controller (``returnACLBuffers(hostTotal:)``).
    public var returnsACLBuffers: Bool { router.bufferReturn.isOn }

    /// How many ACL buffers the flow has returned to the controller.
    public var returnedACLBufferCount: Int { router.bufferReturn.returnedCount }

    /// What the router could not deliver since the flow started: events no route took, ACL
    /// data for unknown handles, and each route's overflow.
    public var routingStatistics: HCIRoutingStatistics { router.currentStatistics }

    /// Removes event route `id`, whose reader stopped.
    private func removeRoute(_ id: UInt64) { router.removeEventRoute(id: id) }

    private func receive(_ packet: HCIPacket) {
        if case .event(let eventPacket) = packet, consumeCompletion(eventPacket) { return }
        router.route(packet)
    }

    /// Applies the credits of a Command Complete or Command Status and ends the command it
    /// answers; returns whether the event answered one of this flow's commands.
    private func consumeCompletion(_ packet: HCIEventPacket) -> Bool {
        let opcode: HCIOpcode
        let returnParameters: [UInt8]
        let isStatusSuccess: Bool
        switch packet.code {
        case .commandComplete:
            guard let event = try? HCIEvent.CommandComplete(decoding: packet.parameters[...]) else { return false }
            credits = Int(event.numHCICommandPackets)
            opcode = event.commandOpcode
            returnParameters = event.returnParameters
            isStatusSuccess = false
        case .commandStatus:
            guard let event = try? HCIEvent.CommandStatus(decoding: packet.parameters[...]) else { return false }
            credits = Int(event.numHCICommandPackets)
            opcode = event.commandOpcode
            returnParameters = [event.status.rawValue]
            isStatusSuccess = event.status.isSuccess
        default:
            return false
        }
        defer { pump() }
        guard opcode != .noOperation,
              let index = inFlight.firstIndex(where: { command in
                  command.packet.opcode == opcode && !(isStatusSuccess && command.completion == .commandComplete)
              })
        else { return false }
        end(inFlight[index].id, with: .success(returnParameters))
        return true
    }

    // MARK: Closing

    private func transportEnded() {
        shutDown()
    }

    /// Ends the flow: closes the transport, resumes every waiting command with
    /// ``HCICommandError/closed(opcode:)`` and finishes every route's stream. Later commands
    /// throw ``HCICommandError/closed(opcode:)`` at once.
    public func close() async {
        shutDown()
        await transport.close()
    }

    private func shutDown() {
        guard !isClosed else { return }
        isClosed = true
        let waiting = inFlight + queued
        inFlight = []
        queued = []
        for command in waiting {
            command.timer?.cancel()
            command.waiter?.resume(returning: .failure(.closed(opcode: command.packet.opcode)))
        }
        router.finishAll()
    }
}
