import BLECore
import HCI
import L2CAP
import Synchronization

/// The links' outgoing L2CAP PDUs: ACL flow control (``ACLFlowControl``: the controller's
/// buffers as credits, each link's bounded queue, fragments of the controller's data length,
/// links in turn), and the senders waiting on it, under one lock. A sender hands its PDU to the
/// controller from its own task, with no hop to the connection manager's actor; the flow's
/// reading thread tells it of each connection event and Disconnection Complete as it reads
/// them, the manager tells it when links open, drop and go, and Number Of Completed Packets
/// gives back the credits (Core v5.4, Vol 4, Part E, 4.1.1; Vol 3, Part A, 7.2).
///
/// No transport call and no continuation resume runs under the lock.
final class LEACLSender: Sendable {
    private typealias Waiter = CheckedContinuation<Result<Void, LEConnectionError>, Never>

    /// One link the manager told of.
    private struct Link {
        /// Which link on its handle this is: each ``open(_:)`` makes a new one, so a sender that
        /// waited through a link's end never queues on the link that took its handle (it fails
        /// with the Reason of the link before, when the sender still knows it, else with
        /// Unknown Connection Identifier).
        var generation: UInt64
        /// The router's number for the link (``HCIACLRoute``'s), when the manager gave it.
        var link: UInt64?
        /// Its Disconnection Complete's Reason, once it dropped.
        var dropped: HCIStatus?
        /// The Reason of the link before it on the handle, for that link's late senders.
        var previousReason: HCIStatus?
        /// Where the link's connection learns its Reason: set before any of the link's senders
        /// is failed, so a caller that finds the link gone can name why.
        let reason: OneShot<HCIStatus>
    }

    private struct State {
        var flowControl: ACLFlowControl
        /// The links the manager knows, dropped ones until the manager forgets them.
        var links: [UInt16: Link] = [:]
        /// Per handle, the links whose connection event the reading thread has passed and the
        /// manager has not opened yet, oldest first, by the router's number, each with the
        /// Reason of a Disconnection Complete that came for it before its opening.
        var announced: [UInt16: [(link: UInt64, reason: HCIStatus?)]] = [:]
        var generations: UInt64 = 0
        var endCause: LEConnectionManager.EndCause?
        var ticketWaiters: [ACLFlowControl.Ticket: Waiter] = [:]
        /// Outcomes of sends that finished while their sender was draining the queue itself.
        var finishedTickets: [ACLFlowControl.Ticket: Result<Void, LEConnectionError>] = [:]
        /// Sends that nobody waits for (``trySend(channel:payload:on:)``): their outcomes are
        /// let go when they finish, not kept, so answers to a flood of requests hold nothing.
        var unawaitedTickets: Set<ACLFlowControl.Ticket> = []
        var roomWaiters: [UInt16: [CheckedContinuation<Void, Never>]] = [:]
        var pumping = false

        /// Why `handle` cannot take a PDU, or nil when it can; with `generation`, for that link
        /// on the handle only.
        func refusal(_ handle: UInt16, of generation: UInt64? = nil) -> LEConnectionError? {
            if let endCause { return .ended(endCause) }
            guard let link = links[handle] else { return .disconnected(reason: .unknownConnectionIdentifier) }
            if let generation, generation != link.generation {
                return .disconnected(reason: link.previousReason ?? .unknownConnectionIdentifier)
            }
            if let reason = link.dropped { return .disconnected(reason: reason) }
            return nil
        }

        /// Ends the send of `ticket` with `outcome`: returns its waiter, or keeps the outcome for
        /// a sender that drained the queue itself and has not started waiting (an unawaited
        /// send's outcome is let go).
        mutating func complete(_ ticket: ACLFlowControl.Ticket, _ outcome: Result<Void, LEConnectionError>)
            -> (Waiter, Result<Void, LEConnectionError>)? {
            if let waiter = ticketWaiters.removeValue(forKey: ticket) { return (waiter, outcome) }
            if unawaitedTickets.remove(ticket) != nil { return nil }
            finishedTickets[ticket] = outcome
            return nil
        }
    }

    private let flow: HCICommandFlow
    private let executor: (any TaskExecutor)?
    /// Called once, when the transport refuses a packet: the manager then ends.
    private let transportFailure = Mutex<(@Sendable () -> Void)?>(nil)
    private let state: Mutex<State>

    init(flow: HCICommandFlow, flowControl: ACLFlowControl) {
        self.flow = flow
        executor = flow.executor
        state = Mutex(State(flowControl: flowControl))
    }

    /// What to do, once, when the transport refuses a packet (the manager ends).
    func onTransportFailure(_ action: @escaping @Sendable () -> Void) {
        transportFailure.withLock { $0 = action }
    }

    // MARK: Sending

    /// Sends `payload` on L2CAP channel `channel` of the link on `handle`, and returns once the
    /// controller has all of it. Waits for room in the link's queue and for ACL credits; runs on
    /// the caller's executor.
    ///
    /// - Throws: ``LEConnectionError/disconnected(reason:)`` when the link drops first (or had);
    ///   ``LEConnectionError/ended(_:)`` when the manager ends.
    nonisolated(nonsending) func send(channel: L2CAPChannelID, payload: [UInt8], on handle: UInt16) async throws(LEConnectionError) {
        let pdu = L2CAPBasicFrame(channelID: channel, payload: payload).encoded
        let ticket: ACLFlowControl.Ticket
        let drains: Bool
        // The link this send is for: a wait for room that outlives it ends, rather than queue
        // the PDU on a newer link with the same handle.
        var generation: UInt64?
        while true {
            let step: Result<(ACLFlowControl.Ticket, Bool)?, LEConnectionError> = state.withLock { state in
                if generation == nil { generation = state.links[handle]?.generation }
                if let refusal = state.refusal(handle, of: generation) { return .failure(refusal) }
                guard state.flowControl.hasRoom(on: handle) else { return .success(nil) }
                guard let ticket = state.flowControl.enqueue(pdu, on: handle) else {
                    return .failure(.disconnected(reason: .unknownConnectionIdentifier))
                }
                // Hand the controller what credits allow now, in this task: no task of its own
                // to start and wait for (the usual case, a link with credits to spare).
                let drains = !state.pumping
                state.pumping = true
                return .success((ticket, drains))
            }
            if let enqueued = try step.get() {
                (ticket, drains) = enqueued
                break
            }
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.refusal(handle, of: generation) != nil || state.flowControl.hasRoom(on: handle) { return true }
                    state.roomWaiters[handle, default: []].append(waiter)
                    return false
                }
                if ready { waiter.resume() }
            }
        }
        if drains { await drain(until: ticket) }
        if let outcome = state.withLock({ $0.finishedTickets.removeValue(forKey: ticket) }) { return try outcome.get() }
        let outcome = await withCheckedContinuation { (waiter: Waiter) in
            let done = state.withLock { state -> Result<Void, LEConnectionError>? in
                if let outcome = state.finishedTickets.removeValue(forKey: ticket) { return outcome }
                state.ticketWaiters[ticket] = waiter
                return nil
            }
            if let done { waiter.resume(returning: done) }
        }
        try outcome.get()
    }

    /// Queues `payload` on `channel` without waiting; false when the link's queue is full or
    /// the link is gone (signaling and SMP answers, which must not block the reader).
    func trySend(channel: L2CAPChannelID, payload: [UInt8], on handle: UInt16) -> Bool {
        let queued = state.withLock { state -> Bool in
            guard state.refusal(handle) == nil,
                  let ticket = state.flowControl.enqueue(L2CAPBasicFrame(channelID: channel, payload: payload).encoded, on: handle)
            else { return false }
            state.unawaitedTickets.insert(ticket)
            return true
        }
        if queued { pump() }
        return queued
    }

    /// Starts a drain in a task of its own when none runs and a packet waits.
    private func pump() {
        let starts = state.withLock { state -> Bool in
            guard !state.pumping, state.endCause == nil, state.flowControl.hasWaitingPackets else { return false }
            state.pumping = true
            return true
        }
        guard starts else { return }
        Task(executorPreference: executor) { await self.drain(until: nil) }
    }

    /// Hands the controller what credits allow, one sender at a time.
    ///
    /// A sender draining in its own task (`until` its PDU's ticket) stops once that PDU has
    /// left or failed, and leaves what other links still have queued to a drain in a task of its
    /// own: its call returns, and the actor it runs on (a link's ATT engine, the manager) is not
    /// held while other links keep the controller busy.
    private nonisolated(nonsending) func drain(until own: ACLFlowControl.Ticket?) async {
        while true {
            var handsOff = false
            let transmission = state.withLock { state -> ACLFlowControl.Transmission? in
                if let own, state.finishedTickets[own] != nil {
                    handsOff = state.endCause == nil && state.flowControl.hasWaitingPackets
                    if !handsOff { state.pumping = false }
                    return nil
                }
                guard state.endCause == nil, let transmission = state.flowControl.next() else {
                    state.pumping = false
                    return nil
                }
                return transmission
            }
            guard let transmission else {
                // Still marked as pumping: the task takes over the drain.
                if handsOff { Task(executorPreference: executor) { await self.drain(until: nil) } }
                return
            }
            let handle = transmission.packet.handle
            do {
                try await flow.send(acl: transmission.packet)
            } catch {
                let (failed, end) = state.withLock { state in
                    state.flowControl.unsent(handle: handle)
                    state.pumping = false
                    return (transmission.completedTicket.flatMap { state.complete($0, .failure(.ended(.transportClosed))) },
                            Self.endLocked(.transportClosed, &state))
                }
                end.resolveReasons()
                failed.map { $0.0.resume(returning: $0.1) }
                for waiter in end.roomWaiters { waiter.resume() }
                transportFailure.withLock { action in
                    defer { action = nil }
                    return action
                }?()
                return
            }
            guard let ticket = transmission.completedTicket else { continue }
            let (ending, waiters) = state.withLock { state in
                (state.complete(ticket, .success(())), state.roomWaiters.removeValue(forKey: handle) ?? [])
            }
            ending.map { $0.0.resume(returning: $0.1) }
            for waiter in waiters { waiter.resume() }
        }
    }

    // MARK: What the manager tells

    /// A successful connection event for `handle`, whose link the router numbered `link`, on
    /// the thread that read it, before the manager can take the link in with
    /// ``open(_:link:reason:)``: a Disconnection Complete read before that opening is kept for
    /// the link (``disconnected(_:reason:)``).
    func announce(_ handle: UInt16, link: UInt64) {
        state.withLock { state in
            guard state.links[handle]?.link != link else { return }     // opened already
            state.announced[handle, default: []].append((link, nil))
        }
    }

    /// A Disconnection Complete for `handle`, on the thread that read it: it ends the newest
    /// link on the handle, which is one announced and not yet opened when there is one (the
    /// controller gives a handle to a new link only after the old one's Disconnection Complete,
    /// Core v5.4, Vol 4, Part E, 7.7.5), else the open one (``drop(_:reason:)``).
    func disconnected(_ handle: UInt16, reason: HCIStatus) {
        let pending = state.withLock { state -> Bool in
            guard var list = state.announced[handle], !list.isEmpty else { return false }
            if list[list.count - 1].reason == nil { list[list.count - 1].reason = reason }
            state.announced[handle] = list
            return true
        }
        if !pending { drop(handle, reason: reason) }
    }

    /// A link formed on `handle`, the router's link number `link` (nil when unknown); its
    /// Reason goes to `reason` when it drops (or the sender ends), before any of its senders is
    /// failed. Its announcement is the one with its number (the announcements before it are of
    /// links the manager will never open, and are forgotten), or, when none has it (a link the
    /// router let go unread, whose route has a number of its own), the oldest one. When its
    /// Disconnection Complete has come already, it opens dropped.
    func open(_ handle: UInt16, link: UInt64? = nil, reason: OneShot<HCIStatus>) {
        let early = state.withLock { state -> HCIStatus? in
            var early: HCIStatus?
            if var list = state.announced[handle], !list.isEmpty {
                let index = link.flatMap { link in list.firstIndex { $0.link == link } } ?? 0
                early = list[index].reason
                list.removeFirst(index + 1)
                state.announced[handle] = list.isEmpty ? nil : list
            }
            state.flowControl.open(handle: handle)
            state.generations &+= 1
            state.links[handle] = Link(generation: state.generations, link: link, previousReason: state.links[handle]?.dropped,
                                       reason: reason)
            return early
        }
        if let early { drop(handle, reason: early) }
    }

    /// The open link on `handle` dropped with `reason` (the manager says so; the reading thread
    /// says it with ``disconnected(_:reason:)``): the link's Reason is set, then its credits
    /// come back, its queued sends and those waiting for room end with
    /// ``LEConnectionError/disconnected(reason:)``, and the credits may serve other links.
    func drop(_ handle: UInt16, reason: HCIStatus) {
        let error = LEConnectionError.disconnected(reason: reason)
        let (slot, endings, waiters) = state.withLock { state in
            guard let link = state.links[handle] else {
                return (OneShot<HCIStatus>?.none, [(Waiter, Result<Void, LEConnectionError>)](), [CheckedContinuation<Void, Never>]())
            }
            state.links[handle]?.dropped = reason
            let dropped = state.flowControl.close(handle: handle)?.droppedTickets ?? []
            return (link.reason, dropped.compactMap { state.complete($0, .failure(error)) }, state.roomWaiters.removeValue(forKey: handle) ?? [])
        }
        slot?.resolve(reason)
        for ending in endings { ending.0.resume(returning: ending.1) }
        for waiter in waiters { waiter.resume() }
        pump()
    }

    /// The link on `handle` is gone from the manager: later sends on it find no link.
    func forget(_ handle: UInt16) {
        state.withLock { state in
            if state.links[handle]?.dropped != nil { state.links[handle] = nil }
        }
    }

    /// Number Of Completed Packets: `entries`' credits come back (Vol 4, Part E, 7.7.19).
    func completed(_ entries: [HCIEvent.NumberOfCompletedPackets.Entry]) {
        state.withLock { state in
            for entry in entries {
                _ = state.flowControl.completed(handle: entry.connectionHandle, count: Int(entry.numCompletedPackets))
            }
        }
        pump()
    }

    /// The manager ended with `cause`: each link still up has its Reason set
    /// (``LEConnectionManager/EndCause/linkReason``), every later send fails with
    /// ``LEConnectionError/ended(_:)``, and senders waiting for room hear it.
    func end(_ cause: LEConnectionManager.EndCause) {
        let end = state.withLock { Self.endLocked(cause, &$0) }
        end.resolveReasons()
        for waiter in end.roomWaiters { waiter.resume() }
    }

    /// Who hears of the sender's end: the links still up, each told its Reason before any
    /// sender is failed, then the senders waiting for room.
    private struct Ending {
        var reasons: [OneShot<HCIStatus>] = []
        var reason = HCIStatus.hardwareFailure
        var roomWaiters: [CheckedContinuation<Void, Never>] = []

        func resolveReasons() {
            for slot in reasons { slot.resolve(reason) }
        }
    }

    private static func endLocked(_ cause: LEConnectionManager.EndCause, _ state: inout State) -> Ending {
        guard state.endCause == nil else { return Ending() }
        state.endCause = cause
        defer { state.roomWaiters = [:] }
        return Ending(reasons: state.links.values.filter { $0.dropped == nil }.map(\.reason), reason: cause.linkReason,
                      roomWaiters: state.roomWaiters.values.flatMap { $0 })
    }

    /// Send outcomes held for senders, and unawaited sends not yet finished: both go back to
    /// zero once every send has left or dropped (what keeps a flood of answers bounded).
    var heldTickets: Int {
        state.withLock { $0.finishedTickets.count + $0.ticketWaiters.count + $0.unawaitedTickets.count }
    }

    /// Senders waiting for room in their link's queue.
    var waitingForRoom: Int { state.withLock { $0.roomWaiters.values.reduce(0) { $0 + $1.count } } }

    /// Completions beyond what a link had outstanding, and for handles with no link.
    var excessCompletions: Int {
        state.withLock { $0.flowControl.excessCompletions + $0.flowControl.unknownHandleCompletions }
    }
}
