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
/// ```swift
/// var dissector = Dissector()
/// for record in file.readAll().records {
///     print(dissector.dissect(record).summary)
/// }
/// print(dissector.report.renderedLines.joined(separator: "\n"))
/// ```
public struct Dissector: Sendable {
    var links: [LinkID: LinkState] = [:]
    var devices: [BluetoothAddress: SeenDevice] = [:]
    /// One ACL reassembler per controller and direction: the two directions of a handle
    /// interleave, and each must be reassembled on its own.
    var reassemblers: [ReassemblyLane: ACLReassembler] = [:]
    var accumulators: [UInt16: AdvertisementAccumulator] = [:]
    var air = AirState()
    var counts = Counts()
    var firstTimestamp: Int64?
    var lastTimestamp: Int64?

    struct ReassemblyLane: Hashable {
        var controller: UInt16?
        var direction: CaptureDirection
        var air: Bool
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

    public init() {}

    /// Decodes `record` in the light of every record before it, and learns from it.
    public mutating func dissect(_ record: CaptureRecord) -> DissectedPacket {
        counts.records += 1
        let first = firstTimestamp ?? record.timestamp
        firstTimestamp = first
        lastTimestamp = record.timestamp
        var packet = DissectedPacket(index: record.index, timestamp: record.timestamp,
                                     relativeTime: record.timestamp &- first, direction: record.direction,
                                     controllerIndex: record.controllerIndex, content: .unsupported(.btsnoopH4, octets: 0))
        switch record.packet {
        case let .hci(type, payload):
            dissectHCI(type: type, payload: payload, into: &packet)
        case let .monitor(opcode, payload):
            packet.content = .monitor(opcode, payload: payload)
        case .linkLayer(let ll):
            counts.linkLayer += 1
            dissectLinkLayer(ll, into: &packet)
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
                packet.content = .malformed(layer: "HCI Event \(eventPacket.code)", reason: error.description, octets: payload)
                return
            }
            let advertising = learn(from: event, packet: packet)
            packet.content = .event(eventPacket, event, advertising: advertising)
        case .acl(let acl):
            counts.acl += 1
            let lane = ReassemblyLane(controller: packet.controllerIndex, direction: packet.direction, air: false)
            let link = LinkID.hci(controller: packet.controllerIndex, handle: acl.handle)
            let stage = reassemble(acl, lane: lane, link: link, packet: &packet)
            packet.content = .acl(acl, stage)
        case .sco(let sco):
            packet.content = .sco(sco)
        case .iso(let iso):
            packet.content = .iso(iso)
        }
    }

    /// Learns connections, disconnections, encryption and advertisers from an event; returns
    /// the advertising reports it carried, decoded, for the packet's line.
    mutating func learn(from event: HCIEvent, packet: DissectedPacket) -> [AdvertisingSummary] {
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
                return e.reports.map { report in
                    let update = accumulators[controller ?? 0, default: AdvertisementAccumulator()].add(report)
                    return seeReport(report.address, report.addressType, eventType: report.eventType.description,
                                     connectable: report.eventType.isConnectable, rssi: report.rssi, data: report.data,
                                     merged: update.advertisement, record: packet.index)
                }
            case .extendedAdvertisingReport(let e):
                return e.reports.map { report in
                    let update = accumulators[controller ?? 0, default: AdvertisementAccumulator()].add(report)
                    return seeReport(report.address, report.addressType, eventType: report.eventType.description,
                                     connectable: report.eventType.isConnectable, rssi: report.rssi, data: report.data,
                                     merged: update.advertisement, record: packet.index)
                }
            default:
                break
            }
        case .disconnectionComplete(let d) where d.status.isSuccess:
            let id = LinkID.hci(controller: controller, handle: d.connectionHandle)
            links[id]?.disconnectReason = d.reason.description
            links[id]?.lastRecord = packet.index
            // A handle is reused after a disconnection: forget half-reassembled PDUs on it.
            for lane in reassemblers.keys where lane.controller == controller && !lane.air {
                _ = reassemblers[lane]?.reset(handle: d.connectionHandle)
            }
            if var link = links.removeValue(forKey: id) {
                link.id = id
                closed.append(link)
            }
        case .encryptionChange(let e) where e.status.isSuccess:
            links[.hci(controller: controller, handle: e.connectionHandle)]?.isEncrypted = e.encryptionEnabled.rawValue != 0
        default:
            break
        }
        return []
    }

    /// Links that ended, in the order they ended; kept for the report.
    var closed: [LinkState] = []

    mutating func openLink(controller: UInt16?, handle: UInt16, record: Int, peer: BluetoothAddress,
                           peerType: LEAddressType, role: String) {
        let id = LinkID.hci(controller: controller, handle: handle)
        if let stale = links.removeValue(forKey: id) { closed.append(stale) }
        var link = LinkState(id: id, record: record)
        link.peerAddress = peer
        link.peerAddressType = peerType.description
        link.role = role
        link.connectionEventSeen = true
        links[id] = link
        if devices[peer] == nil {
            devices[peer] = SeenDevice(address: peer, addressType: peerType.description, firstRecord: record)
        }
    }

    /// Records one advertising report's advertiser and returns the report, decoded, for the line.
    /// The name comes from the accumulator's merged advertisement (advertising data and scan
    /// response together, extended fragments reassembled) when it has one. The accumulator is
    /// mutated in place by the caller: a copy out of the dictionary would copy its whole state.
    mutating func seeReport(_ address: BluetoothAddress, _ type: LEAddressType, eventType: String, connectable: Bool,
                            rssi rawRSSI: Int8, data octets: [UInt8], merged: Advertisement?, record: Int) -> AdvertisingSummary {
        let rssi = rawRSSI == 127 ? nil : rawRSSI  // 127: RSSI not available
        let data = AdvertisingData(decoding: octets)
        seeAdvertiser(address, type: type, rssi: rssi, connectable: connectable,
                      name: merged?.localName?.string ?? data.localName?.string, record: record)
        return AdvertisingSummary(address: address, addressType: type, eventType: eventType, rssi: rssi, data: data)
    }

    mutating func seeAdvertiser(_ address: BluetoothAddress, type: LEAddressType, rssi: Int8?, connectable: Bool,
                                name: String?, record: Int) {
        var device = devices[address] ?? SeenDevice(address: address, addressType: type.description, firstRecord: record)
        device.advertisingReports += 1
        if let rssi { device.lastRSSI = rssi }
        device.connectable = device.connectable || connectable
        if let name, !name.isEmpty { device.name = name }
        devices[address] = device
    }

    // MARK: L2CAP

    /// Runs `body` on the state of `id` in place (created at `record` if new): a copy out of
    /// the dictionary would copy the link's whole GATT table for every PDU.
    mutating func withLink<R>(_ id: LinkID, record: Int, _ body: (inout LinkState) -> R) -> R {
        body(&links[id, default: LinkState(id: id, record: record)])
    }

    /// Feeds one ACL packet to its lane's reassembler; on a complete PDU, decodes it and lets
    /// the link learn from it.
    mutating func reassemble(_ acl: HCIACLDataPacket, lane: ReassemblyLane, link: LinkID,
                             packet: inout DissectedPacket) -> DissectedPacket.L2CAPStage {
        let outcome = reassemblers[lane, default: ACLReassembler()].push(acl)
        packet.notes += outcome.diagnostics.map(\.description)
        guard let pdu = outcome.pdu else { return outcome.isAwaitingMoreFragments ? .fragment : (packet.notes.isEmpty ? .fragment : .dropped) }
        var content = L2CAPContent.decode(pdu.frame)
        let direction = packet.direction
        withLink(link, record: packet.index) { state in
            state.lastRecord = packet.index
            switch content {
            case .att(let att, _):
                content = .att(att, annotation: state.track(att, direction: direction))
            case .attMalformed:
                state.attPDUCount += 1
            default:
                break
            }
        }
        switch content {
        case .att(let att, _):
            counts.attByOpcode[att.opcode.rawValue, default: 0] += 1
            if let link = links[link], let name = link.gatt.deviceName, let peer = link.peerAddress { devices[peer]?.name = name }
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
