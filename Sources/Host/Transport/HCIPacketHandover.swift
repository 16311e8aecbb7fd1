import HCI
import Synchronization

/// Takes every packet an ``HCITransport`` receives, in order, and gives each to one `deliver`
/// closure, until the transport ends.
///
/// A ``HCIDirectTransport`` (an H4 stream, a virtual controller's port) hands each packet over on
/// the thread that read it, with no task between. The packets it had already put in its
/// `packets` stream before the redirect (its backlog) go first: until ``run()`` has delivered
/// them, packets handed over directly wait here, in order. Any other transport's `packets` are
/// read in ``run()``.
///
/// `deliver` runs under this handover's lock, one packet at a time, so the order of the calls is
/// the order of the packets whichever thread has them (Core v5.4, Vol 4, Part A: the HCI
/// transport keeps the packets' order). It must not wait, and it must not hand a packet back to
/// the same transport's receiving side.
final class HCIPacketHandover: Sendable {
    private struct State {
        /// How many packets the source's `packets` stream held when it was redirected; nil for
        /// a transport that is not direct.
        var backlog: Int?
        var isDirect = false
        var held: [HCIPacket] = []
    }

    /// The transport whose packets this handover takes.
    let source: any HCITransport
    private let deliver: @Sendable (HCIPacket) -> Void
    private let state = Mutex(State())

    /// Takes `source`'s packets from now on: a direct transport hands them to this handover
    /// from here, the rest of them wait in its stream until ``run()``.
    ///
    /// - Parameter deliver: called with each packet, in order, one at a time.
    init(from source: any HCITransport, deliver: @escaping @Sendable (HCIPacket) -> Void) {
        self.source = source
        self.deliver = deliver
        guard let direct = source as? any HCIDirectTransport else { return }
        // Weak: the transport may keep its receiver after it ends; ``run()`` keeps the handover.
        let backlog = direct.redirectPackets { [weak self] packet in self?.receive(packet) }
        state.withLock { state in
            state.backlog = backlog
            // Nothing to read first: direct from now on.
            if backlog == 0 { goDirect(&state) }
        }
    }

    /// Delivers the source's packets until it ends: returns when its `packets` stream
    /// finishes. Call it once.
    func run() async {
        var packets = source.packets.makeAsyncIterator()
        guard let backlog = state.withLock({ $0.backlog }) else {
            while let packet = await packets.next() { state.withLock { _ in deliver(packet) } }
            return
        }
        var ended = false
        // A backlog of 0 went direct when the handover was made.
        if backlog > 0 {
            for _ in 0..<backlog {
                guard let packet = await packets.next() else { ended = true; break }
                state.withLock { _ in deliver(packet) }
            }
            state.withLock { goDirect(&$0) }
        }
        // The stream carries no more packets; it finishes when the transport ends.
        if !ended { while await packets.next() != nil {} }
    }

    /// Delivers the packets held while the backlog was read, and delivers the next ones as they
    /// come.
    private func goDirect(_ state: inout State) {
        for packet in state.held { deliver(packet) }
        state.held = []
        state.isDirect = true
    }

    /// A packet handed over directly: delivered now, or held until the backlog has gone.
    private func receive(_ packet: HCIPacket) {
        state.withLock { state in
            guard state.isDirect else { return state.held.append(packet) }
            deliver(packet)
        }
    }
}
