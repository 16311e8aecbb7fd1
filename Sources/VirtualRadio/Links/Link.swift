import HCI

/// One ACL packet from a host, held in the sending controller's buffer until every octet has
/// been acknowledged over the air (then it counts in Number Of Completed Packets).
struct QueuedACL {
    /// Whether the packet starts an L2CAP PDU (Packet_Boundary_Flag 0b00).
    var isStart: Bool
    var data: [UInt8]
    /// Octets already acknowledged by the peer.
    var sent = 0
}

/// A link-layer control procedure waiting for a connection event (Vol 6, Part B, 5.1).
enum LinkProcedure {
    /// LL_CONNECTION_UPDATE_IND from the central (5.1.1).
    case connectionUpdate(LEConnectionParameters)
    /// LL_LENGTH_REQ / LL_LENGTH_RSP started by `side` (5.1.9).
    case dataLength(side: Int, txOctets: UInt16)
    /// LL_PHY_REQ / LL_PHY_RSP / LL_PHY_UPDATE_IND started by `side` (5.1.10).
    case phy(side: Int, tx: LEPHY, rx: LEPHY)
    /// LL_FEATURE_REQ / LL_FEATURE_RSP started by `side` (5.1.4).
    case readRemoteFeatures(side: Int)
    /// LL_TERMINATE_IND from `side` (5.1.3).
    case terminate(side: Int, reason: HCIStatus)
}

/// A change that takes effect at a connection event counter (an instant, Vol 6, Part B, 5.5.1).
enum InstantChange {
    case connectionUpdate(LEConnectionParameters, interval: Micros)
    case phy(initiator: Int, centralTX: LEPHY, peripheralTX: LEPHY)
}

/// A connection between two controllers, seen from the air: its timing, its two directions of
/// data, its pending procedures. Side 0 is the central, side 1 the peripheral.
final class Link {
    let id: Int
    /// The controller index and connection handle at each side.
    var controllers: [Int]
    var handles: [UInt16]
    /// The device address each side used when the link formed.
    var addresses: [DeviceAddress]
    /// connInterval and connSupervisionTimeout, in µs; latency in events.
    var interval: Micros
    var latency: UInt16
    var timeout: Micros
    var parameters: LEConnectionParameters
    /// Time of the connection event numbered `anchorCounter`; events fall at anchor + k * interval.
    var anchor: Micros
    var anchorCounter: UInt64 = 0
    /// The counter of the last connection event run, nil before the first.
    var lastCounter: UInt64?
    /// ACL packets waiting at each side, oldest first.
    var queues: [[QueuedACL]] = [[], []]
    /// The octets of each side's PDU that reached the peer but is not yet acknowledged: it is
    /// retransmitted as it was and not delivered twice (Vol 6, Part B, 4.5.9).
    var inFlight: [Int?] = [nil, nil]
    /// connEffectiveMaxTxOctets at each side, and what each host asked for (LE Set Data Length).
    var maxTxOctets: [UInt16] = [27, 27]
    var requestedTxOctets: [UInt16] = [27, 27]
    /// The transmitter PHY at each side.
    var txPHY: [LEPHY] = [.le1M, .le1M]
    var procedures: [LinkProcedure] = []
    var instants: [(counter: UInt64, change: InstantChange)] = []
    /// The next scheduled connection event's time, and a generation that invalidates stale ones.
    var scheduledAt: Micros?
    var generation: UInt64 = 0
    var supervisionGeneration: UInt64 = 0
    var supervisionArmed = false
    /// A side whose controller was reset or powered off: it no longer answers.
    var silentSide: Int?
    /// The last time the link is known to have worked, and whether events are failing now.
    var lastHeard: Micros
    var failing = false
    /// The counter of the connection event scheduled at ``scheduledAt``.
    var scheduledCounter: UInt64 = 0

    init(id: Int, central: (controller: Int, handle: UInt16, address: DeviceAddress),
         peripheral: (controller: Int, handle: UInt16, address: DeviceAddress),
         parameters: LEConnectionParameters, interval: Micros, anchor: Micros) {
        self.id = id
        controllers = [central.controller, peripheral.controller]
        handles = [central.handle, peripheral.handle]
        addresses = [central.address, peripheral.address]
        self.parameters = parameters
        self.interval = interval
        latency = parameters.maxLatency
        timeout = Micros(parameters.supervisionTimeout.microseconds)
        self.anchor = anchor
        lastHeard = anchor
    }

    /// The address of the device at the other side from controller `controller`.
    func peerAddress(of controller: Int) -> DeviceAddress? { side(of: controller).map { addresses[1 - $0] } }

    /// The side (0 central, 1 peripheral) of controller `controller`.
    func side(of controller: Int) -> Int? { controllers.firstIndex(of: controller) }

    /// The time of connection event `counter`.
    func time(ofCounter counter: UInt64) -> Micros { anchor + Micros(counter - anchorCounter) * interval }

    /// The first connection event counter at or after `time` and after the last one run.
    func firstCounter(notBefore time: Micros) -> UInt64 {
        var counter = anchorCounter
        if time > anchor { counter += UInt64((time - anchor + interval - 1) / interval) }
        if let last = lastCounter, counter <= last { counter = last + 1 }
        return counter
    }
}
