import HCI
import Synchronization

/// One direction of a bridge between ``HCIDirectTransport``s: the packets a source redirects to
/// ``receive(_:)`` go to the destination with ``HCIDirectTransport/sendNow(_:)`` on the thread
/// that has them. Packets the source had already put in its `packets` stream (its backlog) go
/// first: until ``run(backlog:of:)`` has forwarded them, redirected packets wait here, in order.
final class HCIDirectForwarder: Sendable {
    private struct State {
        var isDirect = false
        var pending: [HCIPacket] = []
        var delivered = 0
        var undelivered = 0
    }

    private let destination: any HCIDirectTransport
    private let state = Mutex(State())

    init(to destination: any HCIDirectTransport) { self.destination = destination }

    /// Packets the destination took.
    var delivered: Int { state.withLock { $0.delivered } }
    /// Packets it refused (it had ended).
    var undelivered: Int { state.withLock { $0.undelivered } }

    /// A redirected packet: sent now, or kept until the backlog has gone.
    func receive(_ packet: HCIPacket) {
        state.withLock { state in
            guard state.isDirect else { return state.pending.append(packet) }
            send(packet, &state)
        }
    }

    /// Forwards the source's `backlog` packets from its stream, then what waited, then goes
    /// direct; when the source's stream finishes (the source has ended), closes both sides and
    /// returns.
    func run(backlog: Int, of source: any HCITransport) async {
        var packets = source.packets.makeAsyncIterator()
        var ended = false
        for _ in 0..<backlog {
            guard let packet = await packets.next() else { ended = true; break }
            state.withLock { send(packet, &$0) }
        }
        state.withLock { state in
            for packet in state.pending { send(packet, &state) }
            state.pending = []
            state.isDirect = true
        }
        if !ended { while await packets.next() != nil {} }
        await destination.close()
        await source.close()
    }

    /// Sends under the lock, so that the order of the packets is the order of the calls.
    private func send(_ packet: HCIPacket, _ state: inout State) {
        if destination.sendNow(packet) { state.delivered += 1 } else { state.undelivered += 1 }
    }
}
