import ATT
import BLECore
import HCI
import L2CAP

/// Walks a capture record by record: HCI, then ACL reassembly per connection handle and
/// direction, then L2CAP, then ATT, SMP and LE signaling; or, for over-the-air captures, the
/// link layer and the L2CAP it carries.
///
/// It remembers what earlier records taught it: connections (from LE Connection Complete and
/// CONNECT_IND), device names (from advertising data and Device Name reads), and each link's
/// GATT table (from the discovery in the same capture), and uses that to annotate later ATT
/// PDUs with GATT meaning. Nothing is required to be in order or complete: ACL data on a handle
/// with no connection event is decoded all the same, as real snoop logs need.
///
/// Memory stays bounded whatever the capture holds: links, devices, controllers and
/// over-the-air connections are kept in tables with a capacity (``Limits``); past it, the
/// least recently used are evicted, and the report says how many.
///
/// ```swift
/// var dissector = Dissector()
/// for record in file.readAll().records {
///     print(dissector.dissect(record).line)
/// }
/// print(dissector.report.renderedLines.joined(separator: "\n"))
/// ```
public struct Dissector: Sendable {
    /// How much the dissector remembers. The defaults are far above any real capture seen;
    /// they exist so that a crafted one cannot exhaust memory.
    public struct Limits: Sendable, Hashable {
        /// Live links (connection handles per controller, access addresses over the air).
        public var links = 4096
        /// Ended links kept for the report, with their GATT tables; later ones are counted only.
        public var listedEndedLinks = 1024
        /// Devices (advertisers and peers).
        public var devices = 16_384
        /// Controllers (Linux monitor indexes) with their reassembly state.
        public var controllers = 1024
        /// Handles with an L2CAP PDU under way, per controller and direction; past it, the PDU
        /// touched least recently is abandoned (a capture can leave one incomplete forever).
        public var pendingPDUsPerLane = 32
        /// Extended advertising chains joining at once, per controller
        /// (``AdvertisingChainReassembler/Limits/maximumPendingChains``); each holds at most 1650 octets.
        public var pendingAdvertisingChainsPerController = 16

        public init() {}
    }

    public let limits: Limits
    var links: BoundedTable<LinkID, LinkState>
    /// Links that ended, in the order they ended, up to ``Limits/listedEndedLinks``.
    var ended: [LinkState] = []
    var unlistedEndedLinks = 0
    var devices: BoundedTable<BluetoothAddress, SeenDevice>
    var controllers: BoundedTable<Int, ControllerState>
    var air: AirState
    var counts = Counts()
    var firstTimestamp: Int64?
    var lastTimestamp: Int64?

    /// What the dissector keeps per controller (per Linux monitor index; one for other formats):
    /// ACL reassembly, and the extended advertising chains being joined (the scanner's
    /// ``AdvertisingChainReassembler``, with at most ``Limits/pendingAdvertisingChainsPerController``
    /// chains). Advertising data are not accumulated beyond that: a device's name comes from the
    /// payload that carries it, which costs nothing to remember (an accumulator per controller
    /// would hold two decoded payloads per advertiser, hundreds of megabytes on a crafted capture).
    struct ControllerState: Sendable {
        var reassembly: DirectionalReassembly
        var advertising: AdvertisingChainReassembler
    }

    struct Counts: Sendable {
        var records = 0
        var malformed = 0
        var attByOpcode: [UInt8: Int] = [:]
        var smp = 0
        var signaling = 0
        var hciCommands = 0
        var hciEvents = 0
        var acl = 0
        var linkLayer = 0
    }

    /// A dissector that remembers at most `limits`.
    public init(limits: Limits = Limits()) {
        self.limits = limits
        links = BoundedTable(capacity: limits.links)
        devices = BoundedTable(capacity: limits.devices)
        controllers = BoundedTable(capacity: limits.controllers)
        air = AirState(capacity: limits.links, pendingPDUs: limits.pendingPDUsPerLane)
    }

    /// Decodes `record` in the light of every record before it, and learns from it.
    public mutating func dissect(_ record: CaptureRecord) -> DissectedPacket {
        counts.records += 1
        var relativeTime: Int64 = 0
        if record.timestampError == nil {
            let first = firstTimestamp ?? record.timestamp
            firstTimestamp = first
            lastTimestamp = record.timestamp
            relativeTime = record.timestamp &- first
        }
        var packet = DissectedPacket(index: record.index, timestamp: record.timestamp, relativeTime: relativeTime,
                                     direction: record.direction, controllerIndex: record.controllerIndex,
                                     content: .unsupported(.btsnoopH4, octets: 0))
        if let error = record.timestampError {
            packet.notes.append("timestamp unusable: \(error)")
            packet.hasTimestamp = false
        }
        switch record.packet {
        case let .hci(type, payload):
            dissectHCI(type: type, payload: payload, into: &packet)
        case let .monitor(opcode, payload):
            packet.content = .monitor(opcode, payload: payload)
        case .linkLayer(let ll):
            counts.linkLayer += 1
            dissectLinkLayer(ll, into: &packet)
        case let .packetLogger(type, payload):
            packet.content = .packetLogger(type, payload: payload)
        case let .unsupported(linkType, payload):
            packet.content = .unsupported(linkType, octets: payload.count)
        case let .malformed(linkType, payload, error):
            packet.content = .malformed(layer: linkType.description, reason: error.description, octets: payload)
        }
        if case .malformed = packet.content { counts.malformed += 1 }
        if let content = packet.l2capContent, content.isMalformed { counts.malformed += 1 }
        return packet
    }

    // MARK: HCI

    mutating func dissectHCI(type: HCIPacketType, payload: [UInt8], into packet: inout DissectedPacket) {
        let hci: HCIPacket
        do { hci = try HCIPacket(type: type, payload: payload[...]) } catch {
            packet.content = .malformed(layer: "HCI \(type)", reason: error.description, octets: payload)
            return
        }
        switch hci {
        case .command(let command):
            counts.hciCommands += 1
            packet.content = .command(command, try? HCICommandValue(packet: command))
        case .event(let eventPacket):
            counts.hciEvents += 1
            let event: HCIEvent
            do { event = try HCIEvent(packet: eventPacket) } catch {
                // An advertising report event cut short or lying in a later report still carries
                // the reports before it: their advertisers count (the line stays malformed).
                let kept = learnSalvagedReports(eventPacket, packet: &packet)
                let reason = error.description + (kept == 0 ? "" : " (the \(kept) report\(kept == 1 ? "" : "s") before it counted)")
                packet.content = .malformed(layer: "HCI Event \(eventPacket.code)", reason: reason, octets: payload)
                return
            }
            let advertising = learn(from: event, packet: &packet)
            packet.content = .event(eventPacket, event, advertising: advertising)
        case .acl(let acl):
            counts.acl += 1
            let direction = packet.direction
            let outcome = withController(packet.controllerIndex) { $0.reassembly.push(acl, direction: direction) }
            let stage = l2capStage(outcome, link: .hci(controller: packet.controllerIndex, handle: acl.handle), packet: &packet)
            packet.content = .acl(acl, stage)
        case .sco(let sco):
            packet.content = .sco(sco)
        case .iso(let iso):
            packet.content = .iso(iso)
        }
    }

    /// Runs `body` on the state of `controller` in place.
    mutating func withController<R>(_ controller: UInt16?, _ body: (inout ControllerState) -> R) -> R {
        let pending = limits.pendingPDUsPerLane
        let chains = AdvertisingChainReassembler.Limits(maximumPendingChains: limits.pendingAdvertisingChainsPerController)
        return controllers.update(controller.map(Int.init) ?? -1,
                                  default: ControllerState(reassembly: DirectionalReassembly(pendingPDUs: pending),
                                                           advertising: AdvertisingChainReassembler(limits: chains)), body)
    }

    /// Learns connections, disconnections, encryption and advertisers from an event; returns
    /// the advertising reports it carried, decoded, for the packet's line.
    mutating func learn(from event: HCIEvent, packet: inout DissectedPacket) -> [AdvertisingSummary] {
        let controller = packet.controllerIndex
        switch event {
        case .leMeta(let meta):
            switch meta {
            case .connectionComplete(let c) where c.status.isSuccess:
                openLink(controller: controller, handle: c.connectionHandle, record: packet.index,
                         peer: c.peerAddress, peerType: c.peerAddressType, role: c.role.description)
            case .enhancedConnectionComplete(let c) where c.status.isSuccess:
                openLink(controller: controller, handle: c.connectionHandle, record: packet.index,
                         peer: c.peerAddress, peerType: c.peerAddressType, role: c.role.description)
            case .enhancedConnectionCompleteV2(let c) where c.status.isSuccess:
                openLink(controller: controller, handle: c.connectionHandle, record: packet.index,
                         peer: c.peerAddress, peerType: c.peerAddressType, role: c.role.description)
            case .advertisingReport(let e):
                return e.reports.map { see($0, packet: &packet) }
            case .extendedAdvertisingReport(let e):
                return e.reports.map { see($0, packet: &packet) }
            default:
                break
            }
        case .disconnectionComplete(let d) where d.status.isSuccess:
            let id = LinkID.hci(controller: controller, handle: d.connectionHandle)
            // A handle is reused after a disconnection: forget half-reassembled PDUs on it.
            withController(controller) { $0.reassembly.reset(handle: d.connectionHandle) }
            if var link = links.removeValue(forKey: id) {
                link.disconnectReason = d.reason.description
                link.lastRecord = packet.index
                end(link)
            }
        case .encryptionChange(let e) where e.status.isSuccess:
            let id = LinkID.hci(controller: controller, handle: e.connectionHandle)
            if links[id] != nil { withLink(id, record: packet.index) { $0.isEncrypted = e.encryptionEnabled.rawValue != 0 } }
        default:
            break
        }
        return []
    }

    /// Keeps an ended (or evicted) link for the report, up to the limit. A link the report would
    /// not list anyway (no connection event, no ATT) is let go.
    mutating func end(_ link: LinkState) {
        guard link.connectionEventSeen || link.attPDUCount > 0 else { return }
        if ended.count < limits.listedEndedLinks { ended.append(link) } else { unlistedEndedLinks += 1 }
    }

    mutating func openLink(controller: UInt16?, handle: UInt16, record: Int, peer: BluetoothAddress,
                           peerType: LEAddressType, role: String) {
        let id = LinkID.hci(controller: controller, handle: handle)
        if let stale = links.removeValue(forKey: id) { end(stale) }
        withLink(id, record: record) { link in
            link.peerAddress = peer
            link.peerAddressType = peerType.description
            link.role = role
            link.connectionEventSeen = true
        }
        if devices[peer] == nil {
            devices.update(peer, default: SeenDevice(address: peer, addressType: peerType.description, firstRecord: record)) { _ in }
        }
    }

    // MARK: L2CAP

    /// Runs `body` on the state of link `id` in place (created at `record` if new); a link
    /// evicted to make room is kept for the report as ended.
    mutating func withLink<R>(_ id: LinkID, record: Int, _ body: (inout LinkState) -> R) -> R {
        var evicted: [LinkState] = []
        let result = links.update(id, default: LinkState(id: id, record: record), evicted: { evicted.append($0) }, body)
        for link in evicted { end(link) }
        return result
    }

    /// What a reassembly outcome means for the packet: a fragment kept for later, a fragment
    /// dropped, or a complete L2CAP PDU, which is decoded and teaches the link.
    mutating func l2capStage(_ outcome: DirectionalReassembly.Outcome, link: LinkID,
                             packet: inout DissectedPacket) -> DissectedPacket.L2CAPStage {
        // Over the air there is no connection handle to name (the reassembler uses a stand-in).
        if case .air = link {
            packet.notes += outcome.result.diagnostics.map(\.reason)
        } else {
            packet.notes += outcome.result.diagnostics.map(\.description)
        }
        guard let pdu = outcome.result.pdu else { return outcome.isPending ? .fragment : .dropped }
        var content = L2CAPContent.decode(pdu.frame)
        let direction = packet.direction
        let record = packet.index
        let name: (BluetoothAddress, String)? = withLink(link, record: record) { state in
            state.lastRecord = record
            switch content {
            case .att(let att, _):
                content = .att(att, annotation: state.track(att, direction: direction))
                if let name = state.gatt.deviceName, let peer = state.peerAddress { return (peer, name) }
            case .attMalformed:
                state.attPDUCount += 1
            default:
                break
            }
            return nil
        }
        if let (peer, deviceName) = name, devices[peer] != nil {
            devices.update(peer, default: SeenDevice(address: peer, addressType: "", firstRecord: record)) { $0.name = deviceName }
        }
        switch content {
        case .att(let att, _):
            counts.attByOpcode[att.opcode.rawValue, default: 0] += 1
        case .attMalformed(let payload, _):
            if let opcode = payload.first { counts.attByOpcode[opcode, default: 0] += 1 }
        case .smp, .smpMalformed:
            counts.smp += 1
        case .signaling, .signalingMalformed:
            counts.signaling += 1
        case .other:
            break
        }
        return .complete(pdu.frame, content)
    }
}

/// One ACL reassembler per direction, for one controller or one over-the-air connection: the
/// two directions of a handle interleave, and each must be reassembled on its own.
struct DirectionalReassembly: Sendable {
    /// A reassembly result, and whether the packet's PDU is still under way (a fragment kept).
    struct Outcome: Sendable {
        var result: ACLReassemblyOutcome
        var isPending: Bool
    }

    let configuration: ACLReassembler.Configuration
    var lanes: [CaptureDirection: ACLReassembler] = [:]

    init(pendingPDUs: Int) {
        configuration = ACLReassembler.Configuration(maximumPendingHandles: pendingPDUs, evictsLeastRecentWhenFull: true)
    }

    mutating func push(_ acl: HCIACLDataPacket, direction: CaptureDirection) -> Outcome {
        // Without a direction both sides share one lane: a whole PDU from one side must not
        // abandon the other side's PDU under way, so it is delivered on its own.
        if direction == .unknown, acl.packetBoundary.isStart, lanes[direction]?.isReassembling(handle: acl.handle) == true,
           let frame = Self.wholeFrame(acl.data) {
            return Outcome(result: ACLReassemblyOutcome(pdu: ACLReassembledPDU(handle: acl.handle, frame: frame)), isPending: false)
        }
        let result = lanes[direction, default: ACLReassembler(configuration: configuration)].push(acl)
        let pending = lanes[direction]?.isReassembling(handle: acl.handle) ?? false
        return Outcome(result: result, isPending: pending)
    }

    /// The L2CAP basic frame that `data` holds exactly, if it holds one whole.
    static func wholeFrame(_ data: [UInt8]) -> L2CAPBasicFrame? {
        guard data.count >= L2CAPBasicFrame.headerLength,
              data.count == L2CAPBasicFrame.headerLength + (Int(data[0]) | Int(data[1]) << 8) else { return nil }
        return try? L2CAPBasicFrame(decoding: data)
    }

    /// Forgets what is under way on `handle` in both directions (its connection ended).
    mutating func reset(handle: UInt16) {
        for direction in lanes.keys { lanes[direction]?.reset(handle: handle) }
    }
}
