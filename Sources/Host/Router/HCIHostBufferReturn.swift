import HCI
import Synchronization

/// The host's half of flow control from the controller to the host (Core v5.4, Vol 4, Part E,
/// 4.2): counts the ACL data packets readers take out of the router's queues, per link, and
/// returns those buffers to the controller with HCI_Host_Number_Of_Completed_Packets (7.3.40)
/// once ``threshold`` of them are waiting to go back, whatever their links.
///
/// A buffer is the host's from the moment the controller hands the packet over until a reader
/// takes it out of its route's queue; the queues never hold more than the buffers the host
/// declared (HCI_Host_Buffer_Size, 7.3.39), so with the control on they cannot overflow. What a
/// link's reader takes after the link's Disconnection Complete is not returned: the controller
/// frees a link's buffers when the link ends, and the handle may already name a new link.
///
/// Off until ``enable(hostTotal:)``; shared by the router (links open and close on the flow's
/// actor) and the readers of ``HCIACLRoute`` (in their own tasks), hence its lock.
final class HCIHostBufferReturn: Sendable {
    fileprivate struct State {
        var isOn = false
        var threshold = 1
        /// Open links by the router's link number: their handle, and how many packets readers
        /// took from their queue.
        var links: [UInt64: (handle: UInt16, taken: Int)] = [:]
        /// Taken and not yet returned, per handle.
        var waiting: [UInt16: Int] = [:]
        var waitingTotal = 0
        var returned = 0
    }

    private let state = Mutex(State())
    private let transport: any HCITransport
    /// Where a batch due on the routing thread is sent from: the stack's executor, or the pool.
    private let executor: (any TaskExecutor)?

    init(transport: any HCITransport, executor: (any TaskExecutor)? = nil) {
        self.transport = transport
        self.executor = executor
    }

    /// Starts counting: the controller now holds back ACL data once `hostTotal` packets are
    /// the host's. Returns buffers in batches of an eighth of that (at least 1), so that at most
    /// that many are held back from the controller at any time.
    func enable(hostTotal: Int) {
        state.withLock { state in
            state.isOn = true
            state.threshold = max(1, hostTotal / 8)
        }
    }

    /// Stops counting (the controller was reset, which turns its flow control off): what was
    /// taken and not yet returned is forgotten; links opened later are counted again once
    /// ``enable(hostTotal:)`` is called again.
    func disable() {
        state.withLock { state in
            state.isOn = false
            state.waiting = [:]
            state.waitingTotal = 0
        }
    }

    /// Whether the control is on.
    var isOn: Bool { state.withLock { $0.isOn } }

    /// The buffers returned to the controller so far.
    var returnedCount: Int { state.withLock { $0.returned } }

    /// A link's queue opened on `handle`.
    func open(link: UInt64, handle: UInt16) {
        state.withLock { $0.links[link] = (handle, 0) }
    }

    /// A link ended (its Disconnection Complete, or the transport): its buffers are free at the
    /// controller, so nothing taken from it later, or waiting now, goes back.
    func close(link: UInt64) {
        state.withLock { state in
            guard let handle = state.links.removeValue(forKey: link)?.handle else { return }
            state.forgetWaiting(on: handle)
        }
    }

    /// A reader took one ACL packet of `link` out of its queue: returns the batch that is due,
    /// for the caller to ``send(_:)`` (synchronous, so that the reader counts it on its own
    /// isolation without a hop).
    func taken(link: UInt64) -> [HCIHostNumberOfCompletedPackets.Entry]? {
        state.withLock { state -> [HCIHostNumberOfCompletedPackets.Entry]? in
            guard state.isOn, let handle = state.links[link]?.handle else { return nil }
            state.links[link]?.taken += 1
            return state.add(1, on: handle)
        }
    }

    /// The router let go of packets no reader will take: `count` on `handle` that no link took
    /// (an unknown handle), or what was left in the queue of `link` when its reader stopped
    /// (`delivered` in all). Their buffers go back with the next batch; returns a batch that is
    /// due, for the caller to ``send(_:)``.
    func discarded(handle: UInt16, count: Int = 1) -> [HCIHostNumberOfCompletedPackets.Entry]? {
        state.withLock { state in state.isOn ? state.add(count, on: handle) : nil }
    }

    /// As ``discarded(handle:count:)`` for the queue of `link`, which held `delivered` packets
    /// in all; the link is closed.
    func abandoned(link: UInt64, delivered: Int) -> [HCIHostNumberOfCompletedPackets.Entry]? {
        state.withLock { state in
            guard let (handle, taken) = state.links.removeValue(forKey: link), state.isOn else { return nil }
            return state.add(max(0, delivered - taken), on: handle)
        }
    }

    /// A Disconnection Complete for `handle`, which has no open link here (its packets were
    /// being discarded): the buffers counted for it and not yet returned are free at the
    /// controller, so they do not go back (Vol 4, Part E, 4.3), and none goes back under a
    /// newer link on the handle.
    func disconnected(handle: UInt16) {
        state.withLock { $0.forgetWaiting(on: handle) }
    }

    /// Returns buffers to the controller: outside command flow control (7.3.40), with no credit
    /// and no answer awaited. A transport that has closed has no controller left to return to.
    func send(_ entries: [HCIHostNumberOfCompletedPackets.Entry]) async {
        try? await transport.send(.command(HCIHostNumberOfCompletedPackets(entries: entries).packet))
    }

    /// ``send(_:)`` from a task on the stack's executor, for a batch that fell due where no
    /// task can wait (the routing thread).
    func sendSoon(_ entries: [HCIHostNumberOfCompletedPackets.Entry]) {
        Task(executorPreference: executor) { await self.send(entries) }
    }
}

extension HCIHostBufferReturn.State {
    /// Drops the buffers counted for `handle` and not yet returned (freed at the controller).
    fileprivate mutating func forgetWaiting(on handle: UInt16) {
        waitingTotal -= waiting.removeValue(forKey: handle) ?? 0
    }

    /// Counts `count` buffers of `handle` to return; the whole batch when it is due.
    fileprivate mutating func add(_ count: Int, on handle: UInt16) -> [HCIHostNumberOfCompletedPackets.Entry]? {
        guard count > 0 else { return nil }
        waiting[handle, default: 0] += count
        waitingTotal += count
        guard waitingTotal >= threshold else { return nil }
        let entries = waiting.sorted { $0.key < $1.key }.map { handle, count in
            HCIHostNumberOfCompletedPackets.Entry(connectionHandle: handle, hostNumCompletedPackets: UInt16(clamping: count))
        }
        returned += waitingTotal
        waiting = [:]
        waitingTotal = 0
        return entries
    }
}
