import HCI
import L2CAP
import Synchronization

/// One link's incoming ACL data, taken on the thread that routes it (``HCIACLRoute/consume(_:)``):
/// reassembled into L2CAP PDUs (Core v5.4, Vol 3, Part A, 7.2, with the limits of
/// ``ACLReassembler``), the ATT PDUs of CID 0x0004 handed to the link's bearer at once, with no
/// task between the router and the ATT engine. The rest (signaling, SMP, other CIDs, and what
/// went wrong) goes in order to ``items``, which the connection manager reads on its actor.
final class LELinkReceiver: Sendable {
    /// What the manager handles for the link.
    enum Item: Sendable {
        /// A B-frame on a channel other than ATT.
        case frame(L2CAPBasicFrame)
        /// A reassembly problem, or packets the route lost, for the manager's diagnostics.
        case problem(String)
        /// The start of a PDU dropped as longer than the link's limit, on a channel other than
        /// ATT: an oversized signaling command still gets its Command Reject.
        case oversized(ACLOversizedPDU)
    }

    /// How many items wait for the manager: 256; more are dropped and counted in
    /// ``droppedItems`` (a peer flooding signaling gets bounded memory).
    static let itemCapacity = 256

    let handle: UInt16
    /// Non-ATT frames and problems, in arrival order; finishes when the route does.
    let items = HCIRouteChannel<Item>(capacity: LELinkReceiver.itemCapacity)
    private let bearer: LEConnectionATTBearer
    private let state: Mutex<(reassembler: ACLReassembler, droppedItems: Int)>

    /// A receiver for the link on `handle`, whose L2CAP PDUs are at most `maximumPayloadLength`
    /// octets (the link's ATT_MTU: larger ones are diagnosed and dropped by the reassembler).
    init(handle: UInt16, bearer: LEConnectionATTBearer, maximumPayloadLength: Int) {
        self.handle = handle
        self.bearer = bearer
        state = Mutex((ACLReassembler(configuration: .init(maximumPayloadLength: maximumPayloadLength,
                                                           maximumPendingHandles: 1)), 0))
    }

    /// Items dropped because the manager's queue was full.
    var droppedItems: Int { state.withLock { $0.droppedItems } }

    /// Takes one delivery of the link's route; nil ends the items.
    func receive(_ delivery: HCIRouted<HCIACLDataPacket>?) {
        guard let delivery else {
            items.finish()
            return
        }
        let handle = self.handle
        let (outcome, lost): (ACLReassemblyOutcome?, String?) = state.withLock { state in
            switch delivery {
            case .overflow(let dropped):
                let abandoned = state.reassembler.reset(handle: handle)
                return (nil, "handle 0x\(String(handle, radix: 16)): \(dropped) ACL packets lost to a full queue"
                    + (abandoned.map { "; \($0.reason)" } ?? ""))
            case .packet(let packet):
                return (state.reassembler.push(packet), nil)
            }
        }
        if let lost { enqueue(.problem(lost)) }
        guard let outcome else { return }
        for diagnostic in outcome.diagnostics { enqueue(.problem(diagnostic.description)) }
        if let oversized = outcome.oversized, oversized.channelID != .att { enqueue(.oversized(oversized)) }
        guard let frame = outcome.pdu?.frame else { return }
        if frame.channelID == .att {
            bearer.deliver(frame.payload)
        } else {
            enqueue(.frame(frame))
        }
    }

    private func enqueue(_ item: Item) {
        if items.yield(item) == .dropped { state.withLock { $0.droppedItems += 1 } }
    }
}
