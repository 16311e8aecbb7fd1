import HCI
import Synchronization

/// The state of an ``HCICommandFlow`` under one lock: its commands (queued and in flight), its
/// command credits and its router. Callers change it through the flow; the transport's reader
/// changes it in ``receive(_:)``, on the thread that read the packet, in arrival order, with no
/// hop to another task or actor (Core v5.4, Vol 4, Part E, 4.4 and 4.5).
///
/// No transport call, no continuation resume and no task cancellation runs under the lock: what
/// a change ends is collected, and resumed once the lock is let go. A packet may arrive from
/// inside its controller's lock (the virtual radio hands packets over under its own), so what
/// ``receive(_:)`` ends must not call back into the controller either: a command timer is
/// cancelled from a task of its own (a virtual clock's cancellation takes the radio's lock).
final class HCICommandFlowCore: Sendable {
    typealias Waiter = CheckedContinuation<Result<[UInt8], HCICommandError>, Never>

    private struct Command {
        var id: UInt64
        var packet: HCICommandPacket
        var completion: HCICommandCompletion
        var waiter: Waiter?
        var timer: Task<Void, Never>?
    }

    private struct State: ~Copyable {
        var queued: [Command] = []
        var inFlight: [Command] = []
        var credits = 1
        var pumping = false
        var isClosed = false
        /// How many times the controller was reset (``abandonCommands()``).
        var resets = 0
        var nextID: UInt64 = 0
        var router: HCIRouter
        /// Takes every Number Of Completed Packets event, on the thread that read it, instead
        /// of the routes (the connection layer's ACL credits).
        var completedPacketsHandler: (@Sendable (HCIEvent.NumberOfCompletedPackets) -> Void)?
        /// Hears every successful Disconnection Complete, on the thread that read it, before
        /// the packets after it (the connection layer's ACL queues stop at once); the event is
        /// still routed.
        var disconnectionHandler: (@Sendable (HCIEvent.DisconnectionComplete) -> Void)?
        /// Hears the handle and the router's number of every link a successful connection event
        /// opens, on the thread that read it and under this lock, before the event goes to any
        /// route; the event is routed as well.
        var connectionHandler: (@Sendable (UInt16, UInt64) -> Void)?

        mutating func take(_ id: UInt64) -> Command? {
            if let index = inFlight.firstIndex(where: { $0.id == id }) { return inFlight.remove(at: index) }
            if let index = queued.firstIndex(where: { $0.id == id }) { return queued.remove(at: index) }
            return nil
        }

        /// Whether a drain should start now; marks it started.
        mutating func startPump() -> Bool {
            guard !pumping, !isClosed, credits > 0, firstMaySend else { return false }
            pumping = true
            return true
        }

        /// Whether the first queued command may go now, credits allowing. HCI_Reset is a
        /// barrier: no command goes after it until its Command Complete (Core v5.4, Vol 4,
        /// Part E, 7.3.2), and it goes once the commands before it have been answered, so no
        /// answer of theirs is taken for the reset controller's.
        var firstMaySend: Bool {
            guard let first = queued.first else { return false }
            if inFlight.contains(where: { $0.packet.opcode == .reset }) { return false }
            return first.packet.opcode != .reset || inFlight.isEmpty
        }
    }

    /// A command's waiter with the result to resume it with.
    private typealias Ending = (waiter: Waiter, result: Result<[UInt8], HCICommandError>)

    /// What a packet leaves to do once the lock is let go.
    private struct Outcome {
        var endings: [Ending] = []
        var completed: (handler: @Sendable (HCIEvent.NumberOfCompletedPackets) -> Void, event: HCIEvent.NumberOfCompletedPackets)?
        var disconnected: (handler: @Sendable (HCIEvent.DisconnectionComplete) -> Void, event: HCIEvent.DisconnectionComplete)?
    }

    let transport: any HCITransport
    let clock: any Clock<Duration>
    let commandTimeout: Duration
    let executor: (any TaskExecutor)?
    let bufferReturn: HCIHostBufferReturn
    private let state: Mutex<State>

    init(transport: any HCITransport, clock: any Clock<Duration>, commandTimeout: Duration,
         executor: (any TaskExecutor)?) {
        self.transport = transport
        self.clock = clock
        self.commandTimeout = commandTimeout
        self.executor = executor
        bufferReturn = HCIHostBufferReturn(transport: transport, executor: executor)
        state = Mutex(State(router: HCIRouter(bufferReturn: bufferReturn)))
    }

    // MARK: Reading the transport

    /// Starts reading the transport: an ``HCIPacketHandover`` gives each packet to
    /// ``receive(_:)``, on the thread that read it when the transport is direct. The core is kept
    /// until the transport ends, and then shuts down.
    func startReading() {
        let handover = HCIPacketHandover(from: transport) { packet in self.receive(packet) }
        Task(executorPreference: executor) {
            await handover.run()
            self.shutDown()
        }
    }

    /// Matches a Command Complete or Command Status to its command, gives a Number Of Completed
    /// Packets event to its handler, or routes the packet.
    func receive(_ packet: HCIPacket) {
        finish([state.withLock { Self.receive(packet, &$0) }], pumping: Self.grantsCredits(packet))
    }

    private static func receive(_ packet: HCIPacket, _ state: inout State) -> Outcome {
        if case .event(let event) = packet {
            if let endings = consumeCompletion(event, &state) { return Outcome(endings: endings) }
            if event.code == .numberOfCompletedPackets, let handler = state.completedPacketsHandler,
               case .numberOfCompletedPackets(let completed)? = try? HCIEvent.decodingPastTrailingOctets(event).event {
                return Outcome(completed: (handler, completed))
            }
            if event.code == .disconnectionComplete, let handler = state.disconnectionHandler,
               case .disconnectionComplete(let complete)? = try? HCIEvent.decodingPastTrailingOctets(event).event,
               complete.status.isSuccess {
                state.router.route(packet)
                return Outcome(disconnected: (handler, complete))
            }
        }
        let onOpen = state.connectionHandler ?? { _, _ in }
        state.router.route(packet, onOpen: onOpen)
        return Outcome()
    }

    /// Gives every later Number Of Completed Packets event that decodes to `handler`, on the
    /// thread that read it, in order with the other packets, instead of routing it. Octets after
    /// its last entry are left out (``HCIEvent/decodingPastTrailingOctets(_:)``), so that no
    /// credit is lost to them; one that does not decode is still routed (and counted when no
    /// route takes it).
    func onNumberOfCompletedPackets(_ handler: @escaping @Sendable (HCIEvent.NumberOfCompletedPackets) -> Void) {
        state.withLock { $0.completedPacketsHandler = handler }
    }

    /// Calls `handler` with every later successful Disconnection Complete, on the thread that
    /// read it, before any later packet; the event is routed as well.
    func onDisconnectionComplete(_ handler: @escaping @Sendable (HCIEvent.DisconnectionComplete) -> Void) {
        state.withLock { $0.disconnectionHandler = handler }
    }

    /// Calls `handler` with the handle and the router's number of every link a later
    /// successful connection event opens, on the thread that read it and under the flow's lock,
    /// before the event goes to any route (so before any reader of the event can act on it);
    /// `handler` must only take locks of its own. The event is routed as well.
    func onConnectionComplete(_ handler: @escaping @Sendable (UInt16, UInt64) -> Void) {
        state.withLock { $0.connectionHandler = handler }
    }

    /// Whether `packet` may grant command credits (a drain may then start).
    private static func grantsCredits(_ packet: HCIPacket) -> Bool {
        guard case .event(let event) = packet else { return false }
        return event.code == .commandComplete || event.code == .commandStatus
    }

    /// Applies the credits of a Command Complete or Command Status and ends the command it
    /// answers. Returns nil when the event answers none of this flow's commands (it is routed).
    private static func consumeCompletion(_ packet: HCIEventPacket, _ state: inout State) -> [Ending]? {
        let opcode: HCIOpcode
        let returnParameters: [UInt8]
        let isStatusSuccess: Bool
        switch packet.code {
        case .commandComplete:
            guard let event = try? HCIEvent.CommandComplete(decoding: packet.parameters[...]) else { return nil }
            state.credits = Int(event.numHCICommandPackets)
            opcode = event.commandOpcode
            returnParameters = event.returnParameters
            isStatusSuccess = false
            if opcode == HCIReset.opcode, returnParameters.first == HCIStatus.success.rawValue {
                state.router.controllerWasReset()
            }
        case .commandStatus:
            guard let event = try? HCIEvent.CommandStatus(decoding: packet.parameters[...]) else { return nil }
            state.credits = Int(event.numHCICommandPackets)
            opcode = event.commandOpcode
            returnParameters = [event.status.rawValue]
            isStatusSuccess = event.status.isSuccess
        default:
            return nil
        }
        guard opcode != .noOperation,
              let index = state.inFlight.firstIndex(where: { command in
                  command.packet.opcode == opcode && !(isStatusSuccess && command.completion == .commandComplete)
              })
        else {
            // Credits only (a Command Complete for 0x0000, or another host's command): the event
            // is still routed, for whoever watches it.
            return nil
        }
        let command = state.inFlight.remove(at: index)
        if let timer = command.timer {
            // Not here: cancelling runs the timer's cancellation handler at once, and a packet
            // may arrive here from inside its controller's lock (the virtual radio's), which a
            // virtual clock's handler takes.
            Task { timer.cancel() }
        }
        return command.waiter.map { [($0, .success(returnParameters))] } ?? []
    }

    /// Resumes what a change ended, hands completed packets to their handler, and with
    /// `pumping` starts a drain when credits and queued commands allow.
    private func finish(_ outcomes: [Outcome], pumping: Bool = true) {
        for outcome in outcomes {
            for ending in outcome.endings { ending.waiter.resume(returning: ending.result) }
            if let completed = outcome.completed { completed.handler(completed.event) }
            if let disconnected = outcome.disconnected { disconnected.handler(disconnected.event) }
        }
        if pumping { pump() }
    }

    // MARK: Commands

    /// Queues `packet`, sends it when a credit allows, and waits for its answer. A
    /// `cancellable` call is refused to a cancelled caller and ends when its caller is
    /// cancelled; one that is not runs to its answer all the same. Either way the command is
    /// queued before the call first suspends, so commands keep their callers' order.
    nonisolated(nonsending) func submit(_ packet: HCICommandPacket, completion: HCICommandCompletion,
                                        cancellable: Bool = true) async -> Result<[UInt8], HCICommandError> {
        let id: UInt64? = state.withLock { state in
            guard !state.isClosed else { return nil }
            state.nextID &+= 1
            return state.nextID
        }
        guard let id else { return .failure(.closed(opcode: packet.opcode)) }
        let queue = { (waiter: Waiter) in
            // Registered under the lock before it is sent: nothing can answer it first.
            let refusal: HCICommandError? = self.state.withLock { state in
                if state.isClosed { return .closed(opcode: packet.opcode) }
                if cancellable, Task.isCancelled { return .cancelled(opcode: packet.opcode) }
                state.queued.append(Command(id: id, packet: packet, completion: completion, waiter: waiter,
                                            timer: self.armTimer(id)))
                return nil
            }
            if let refusal { return waiter.resume(returning: .failure(refusal)) }
            self.pump()
        }
        guard cancellable else { return await withCheckedContinuation(queue) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation(queue)
        } onCancel: {
            cancel(id, opcode: packet.opcode)
        }
    }

    /// Ends command `id` with ``HCICommandError/cancelled(opcode:)`` for its cancelled caller.
    /// A command already sent stays in flight without a caller: the controller still answers it
    /// (Vol 4, Part E, 4.4), and that Command Complete or Command Status must end it, not a later
    /// command with the same opcode. Its timer still runs, so an answer that never comes frees
    /// the credit as a timeout does.
    private func cancel(_ id: UInt64, opcode: HCIOpcode) {
        let (waiter, timer) = state.withLock { state -> (Waiter?, Task<Void, Never>?) in
            if let index = state.inFlight.firstIndex(where: { $0.id == id }) {
                defer { state.inFlight[index].waiter = nil }
                return (state.inFlight[index].waiter, nil)
            }
            guard let command = state.take(id) else { return (nil, nil) }
            return (command.waiter, command.timer)
        }
        timer?.cancel()
        waiter?.resume(returning: .failure(.cancelled(opcode: opcode)))
    }

    private func armTimer(_ id: UInt64) -> Task<Void, Never> {
        TimeoutSleep.timer(after: commandTimeout, on: clock) { [weak self] in self?.timedOut(id) }
    }

    private func timedOut(_ id: UInt64) {
        let ended = state.withLock { state -> (waiter: Waiter?, opcode: HCIOpcode)? in
            let wasSent = state.inFlight.contains { $0.id == id }
            guard let command = state.take(id) else { return nil }
            // A lost answer, or a controller that set Num_HCI_Command_Packets to 0 and then
            // granted nothing for a whole timeout with no command outstanding: take one credit
            // back, as BlueZ does when its command timer fires, or the flow could never send
            // again (not even HCI_Reset, the usual way out).
            if wasSent || (state.credits == 0 && state.inFlight.isEmpty) { state.credits = max(state.credits, 1) }
            return (command.waiter, command.packet.opcode)
        }
        guard let ended else { return }
        ended.waiter?.resume(returning: .failure(.timeout(opcode: ended.opcode, after: commandTimeout)))
        pump()
    }

    /// Starts a drain when none runs, a credit is free and a command waits.
    private func pump() {
        guard state.withLock({ $0.startPump() }) else { return }
        Task(executorPreference: executor) { await self.drain() }
    }

    /// Sends queued commands while credits last, one at a time and in order.
    private func drain() async {
        while true {
            let next: Command? = state.withLock { state in
                guard !state.isClosed, state.credits > 0, state.firstMaySend else {
                    state.pumping = false
                    return nil
                }
                let command = state.queued.removeFirst()
                state.credits -= 1
                state.inFlight.append(command)
                return command
            }
            guard let next else { return }
            do {
                try await transport.send(.command(next.packet))
            } catch {
                let command = state.withLock { state -> Command? in
                    guard let command = state.take(next.id) else { return nil }
                    state.credits += 1
                    return command
                }
                command?.timer?.cancel()
                command?.waiter?.resume(returning: .failure(.transport(opcode: next.packet.opcode, error)))
            }
        }
    }

    // MARK: Routes

    /// A new event route (see ``HCICommandFlow/events(_:capacity:label:)``), or one already
    /// ended when the flow is closed.
    func events(_ selector: HCIEventSelector, capacity: Int, label: String,
                lettingUnclaimedLinksGo: Bool = false) -> HCIEventRoute {
        state.withLock { state in
            guard !state.isClosed else { return HCIEventRoute(reader: .ended()) }
            if lettingUnclaimedLinksGo { state.router.letUnclaimedLinksGo() }
            state.nextID &+= 1
            let id = state.nextID
            return state.router.addEventRoute(id: id, selector, capacity: capacity, label: label) { [weak self] in
                // Never under the lock: the reader may go while the router holds it.
                guard let self else { return }
                Task { self.removeRoute(id) }
            }
        }
    }

    private func removeRoute(_ id: UInt64) { state.withLock { $0.router.removeEventRoute(id: id) } }

    /// The ACL route of `handle` (see ``HCICommandFlow/acl(handle:)``).
    func acl(handle: UInt16) -> HCIACLRoute? {
        state.withLock { state in
            guard !state.isClosed else {
                return HCIACLRoute(reader: .ended(), link: 0, bufferReturn: bufferReturn)
            }
            return state.router.claimACL(handle: handle)
        }
    }

    /// How many times ``abandonCommands()`` ran: once per controller reset
    /// (``HCICommandFlow/controllerResets``).
    var resets: Int { state.withLock { $0.resets } }

    /// Finishes every route made so far (see ``HCICommandFlow/controllerReset()``).
    func finishRoutes() { state.withLock { $0.router.finishAll(discardingEvents: true) } }

    /// Ends the commands in flight and the queued ones with
    /// ``HCICommandError/controllerReset(opcode:)``: the controller lost its state, so answers
    /// will not come, and the queued commands were meant for the state that is gone. HCI_Reset,
    /// which waits for the commands in flight, then goes at once, not after their timeouts. The
    /// flow keeps one credit for it: after a Hardware Error the host resets the controller
    /// (Vol 4, Part E, 7.7.16), whatever Num_HCI_Command_Packets last said.
    func abandonCommands() {
        let ended = state.withLock { state -> [Command] in
            state.resets += 1
            defer {
                state.inFlight = []
                state.queued = []
            }
            state.credits = max(state.credits, 1)
            return state.inFlight + state.queued
        }
        for command in ended {
            command.timer?.cancel()
            command.waiter?.resume(returning: .failure(.controllerReset(opcode: command.packet.opcode)))
        }
    }

    var statistics: HCIRoutingStatistics { state.withLock { $0.router.currentStatistics } }

    var credits: Int { state.withLock { $0.credits } }
    var queuedCount: Int { state.withLock { $0.queued.count } }
    var inFlightCount: Int { state.withLock { $0.inFlight.count } }
    var isClosed: Bool { state.withLock { $0.isClosed } }

    // MARK: Closing

    /// Resumes every waiting command with ``HCICommandError/closed(opcode:)`` and finishes
    /// every route; later commands fail at once. Once only.
    func shutDown() {
        let waiting = state.withLock { state -> [Command] in
            guard !state.isClosed else { return [] }
            state.isClosed = true
            defer {
                state.inFlight = []
                state.queued = []
            }
            state.router.finishAll()
            return state.inFlight + state.queued
        }
        for command in waiting {
            command.timer?.cancel()
            command.waiter?.resume(returning: .failure(.closed(opcode: command.packet.opcode)))
        }
    }
}
