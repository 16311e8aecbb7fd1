import BLECore
import HCI
import L2CAP

/// Over-the-air connections, by access address (Core v5.4, Vol 6, Part B, 2.1.2).
struct AirState: Sendable {
    struct Connection: Sendable {
        /// A 12-bit stand-in for a connection handle, so the HCI reassembler can serve.
        var pseudoHandle: UInt16
        var crcInit: UInt32?
        /// Set once LL_START_ENC_REQ went by: later non-empty payloads are encrypted
        /// (Core v5.4, Vol 6, Part B, 5.1.3.1).
        var encrypted = false
        /// The last data PDUs with a payload, per direction, to recognise retransmissions.
        var recent: [CaptureDirection: [(sn: UInt8, llid: UInt8, payload: [UInt8])]] = [:]
    }
    var connections: [UInt32: Connection] = [:]

    mutating func connection(_ accessAddress: UInt32) -> Connection {
        if let c = connections[accessAddress] { return c }
        let c = Connection(pseudoHandle: UInt16(truncatingIfNeeded: connections.count) & 0x0FFF)
        connections[accessAddress] = c
        return c
    }
}

extension AdvertisingChannelPDU {
    /// The address type of AdvA: the RxAdd bit in SCAN_REQ and CONNECT_IND, where TxAdd
    /// describes the scanner or initiator; the TxAdd bit otherwise (Core v5.4, Vol 6, Part B, 2.3).
    var advAAddressType: LEAddressType {
        let random = pduType == .scanReq || pduType == .connectInd ? rxAdd : txAdd
        return random ? .random : .public
    }

    /// The address type of the scanner or initiator (ScanA, InitA): the TxAdd bit.
    var senderAddressType: LEAddressType { txAdd ? .random : .public }
}

extension Dissector {
    /// Decodes a link-layer packet: advertising PDUs teach devices and connections; data PDUs
    /// are checked (CRC, retransmission, encryption) and their L2CAP fragments reassembled.
    mutating func dissectLinkLayer(_ ll: LinkLayerRecord, into packet: inout DissectedPacket) {
        switch ll.pdu {
        case .advertising(let adv):
            var data: AdvertisingData?
            if let octets = adv.advertisingData { data = AdvertisingData(decoding: octets) }
            // SCAN_REQ and CONNECT_IND come from the scanner or initiator, not the advertiser.
            if let advA = adv.advA, adv.pduType != .scanReq, adv.pduType != .connectInd {
                let connectable = adv.pduType == .advInd || adv.pduType == .advDirectInd
                seeAdvertiser(advA, type: adv.advAAddressType, rssi: ll.pseudoHeader.flatMap { $0.flags.isSignalPowerValid ? $0.signalPower : nil },
                              connectable: connectable, name: data?.localName?.string, record: packet.index)
            }
            if case let .connectIndication(initA, advA, llData) = adv.payload {
                let aa = llData.accessAddress
                var connection = air.connection(aa)
                connection.crcInit = llData.crcInit
                air.connections[aa] = connection
                var link = LinkState(id: .air(accessAddress: aa), record: packet.index)
                link.peerAddress = advA
                link.peerAddressType = adv.advAAddressType.description
                link.localAddress = initA
                link.connectionEventSeen = true
                links[.air(accessAddress: aa)] = link
            }
            packet.content = .linkLayer(ll, .advertising(data))
        case .data(let data):
            packet.direction = Self.airDirection(ll)
            packet.content = .linkLayer(ll, dissectDataPDU(data, record: ll, packet: &packet))
        case .isochronous:
            packet.content = .linkLayer(ll, .linkControl)
        }
    }

    /// The direction of a data PDU from the LINKTYPE 256 pseudo-header's PDU type; unknown
    /// without one.
    static func airDirection(_ ll: LinkLayerRecord) -> CaptureDirection {
        switch ll.pseudoHeader?.flags.pduType {
        case .dataCentralToPeripheral?: return .centralToPeripheral
        case .dataPeripheralToCentral?: return .peripheralToCentral
        default: return .unknown
        }
    }

    mutating func dissectDataPDU(_ pdu: DataChannelPDU, record ll: LinkLayerRecord,
                                 packet: inout DissectedPacket) -> DissectedPacket.LinkLayerStage {
        let aa = ll.accessAddress
        var connection = air.connection(aa)
        defer { air.connections[aa] = connection }
        withLink(.air(accessAddress: aa), record: packet.index) { $0.lastRecord = packet.index }

        let crcBad: Bool
        if let flags = ll.pseudoHeader?.flags, flags.isCRCChecked {
            crcBad = !flags.isCRCValid
        } else if let crcInit = connection.crcInit {
            crcBad = !ll.isCRCValid(crcInit: crcInit)
        } else {
            crcBad = false
        }
        if crcBad { return .badCRC }
        if pdu.payload.isEmpty { return .linkControl }

        // A retransmission repeats SN and payload (Core v5.4, Vol 6, Part B, 4.5.9). Without a
        // direction, the two directions alternate, so compare with the last two PDUs.
        let lane = packet.direction
        var recent = connection.recent[lane] ?? []
        let depth = lane == .unknown ? 2 : 1
        if recent.suffix(depth).contains(where: { $0.sn == pdu.sn && $0.llid == pdu.llid.rawValue && $0.payload == pdu.payload }) {
            packet.notes.append("link-layer retransmission (SN \(pdu.sn))")
            return .retransmission
        }
        recent.append((pdu.sn, pdu.llid.rawValue, pdu.payload))
        if recent.count > 2 { recent.removeFirst() }
        connection.recent[lane] = recent

        let decrypted = ll.pseudoHeader?.flags.isDecrypted ?? false
        if connection.encrypted && !decrypted { return .encrypted }

        switch pdu.content {
        case .control(let opcode, _):
            if opcode == .startEncReq {
                connection.encrypted = true
                links[.air(accessAddress: aa)]?.isEncrypted = true
            }
            return .linkControl
        case .l2capStart(let octets), .l2capContinuation(let octets):
            let boundary: HCIACLDataPacket.PacketBoundary = pdu.llid == .start ? .firstFlushable : .continuing
            let acl = HCIACLDataPacket(handle: connection.pseudoHandle, packetBoundary: boundary, data: octets)
            let reassemblyLane = ReassemblyLane(controller: nil, direction: lane, air: true)
            return .l2cap(reassemble(acl, lane: reassemblyLane, link: .air(accessAddress: aa), packet: &packet))
        case .empty, .reserved:
            return .linkControl
        }
    }
}
