import BLECore
import HCI
import L2CAP

/// Over-the-air connections, by access address (Core v5.4, Vol 6, Part B, 2.1.2).
struct AirState: Sendable {
    struct Connection: Sendable {
        var crcInit: UInt32?
        /// Set once LL_START_ENC_REQ went by: later non-empty payloads are encrypted
        /// (Core v5.4, Vol 6, Part B, 5.1.3.1).
        var encrypted = false
        /// L2CAP reassembly from LL data PDUs, per direction; every PDU uses stand-in handle 0,
        /// since each connection has reassemblers of its own.
        var reassembly: DirectionalReassembly
        /// The last data PDUs (empty ones too), per direction, to recognise retransmissions.
        var history: [CaptureDirection: [SentPDU]] = [:]
        /// The connection interval from CONNECT_IND, in microseconds, when it was captured.
        var intervalMicroseconds: Int64?
        /// When the previous data PDU was captured, and the direction given or inferred for it.
        var previous: (timestamp: Int64, direction: CaptureDirection)?

        /// The central's first packet of the last connection event believed seen (its anchor point).
        var anchor: Int64?
        /// Evidence on whether the capture's timing can be trusted: data PDUs seen, those that
        /// opened a new connection event, and new events that fell on (or just after) a
        /// predicted anchor point against those that fell anywhere else.
        var packets = 0, newEvents = 0, anchorHits = 0, anchorMisses = 0

        /// Whether timing tells the directions apart: a real capture soon shows packets answered
        /// inside events and events on the anchor grid; a capture with made-up timestamps (every
        /// packet a second apart, say) shows neither. Until it is confirmed, directions stay unknown.
        var isTimingUsable: Bool {
            // Confirmed: packets answered inside an event, or events found on the anchor grid.
            let confirmed = packets - newEvents >= 2 || anchorHits >= 2
            if !confirmed || anchorMisses > anchorHits + 2 { return false }
            return packets < 8 || newEvents * 10 <= packets * 9
        }

        /// The direction of a data PDU captured at `timestamp` without one (Core v5.4, Vol 6,
        /// Part B, 4.5.1): in every connection event the central transmits first, at the event's
        /// anchor point, and the two then alternate T_IFS (150 us) apart; anchor points are a
        /// connection interval apart.
        ///
        /// A packet more than half an interval (3 ms when the interval is unknown) after the
        /// previous one opens a new event. With the interval known from CONNECT_IND, its offset
        /// from the predicted anchor point tells who sent it: within 150 us, the central; 150 us
        /// to 2.5 ms later, the peripheral answering a central packet the sniffer missed (the
        /// shortest central packet, an empty PDU, takes 80 us on LE 1M, then T_IFS). Anything
        /// else (a connection update moved the anchor) restarts from the central. Inside an event
        /// the directions alternate; a packet missed inside an event flips the guess until the
        /// next event. When the timing proves unusable (``isTimingUsable``), the direction stays
        /// unknown.
        mutating func inferDirection(at timestamp: Int64) -> CaptureDirection {
            packets += 1
            let newEventGap = max((intervalMicroseconds ?? 6000) / 2, 1000)
            let direction: CaptureDirection
            let gap = previous.map { timestamp &- $0.timestamp }
            if let previous, let gap, gap >= 0, gap <= newEventGap, previous.direction != .unknown {
                direction = previous.direction.reversed
            } else {
                newEvents += 1
                if let anchor, let interval = intervalMicroseconds, interval > 0, timestamp > anchor {
                    let elapsed = timestamp - anchor
                    let predicted = anchor + (elapsed + interval / 2) / interval * interval
                    let offset = timestamp - predicted
                    if abs(offset) <= 150 {
                        anchorHits += 1
                        direction = .centralToPeripheral
                        self.anchor = timestamp
                    } else if offset > 150, offset <= 2500 {
                        anchorHits += 1
                        direction = .peripheralToCentral
                        self.anchor = predicted
                    } else {
                        anchorMisses += 1
                        direction = .centralToPeripheral
                        self.anchor = timestamp
                    }
                } else {
                    direction = .centralToPeripheral
                    anchor = timestamp
                }
            }
            self.previous = (timestamp, direction)
            // Timing that does not fit the connection's events (made-up timestamps) cannot tell
            // the sides apart, and a wrong guess would drop real PDUs as retransmissions.
            return isTimingUsable ? direction : .unknown
        }
    }

    /// What a retransmission must repeat: SN, LLID and payload (Core v5.4, Vol 6, Part B, 4.5.9).
    struct SentPDU: Sendable, Equatable {
        var sn: UInt8
        var llid: UInt8
        var payload: [UInt8]
    }

    var connections: BoundedTable<UInt32, Connection>
    let pendingPDUs: Int

    init(capacity: Int, pendingPDUs: Int) {
        connections = BoundedTable(capacity: capacity)
        self.pendingPDUs = pendingPDUs
    }

    /// Runs `body` on the connection with `accessAddress` in place, creating it if new.
    mutating func update<R>(_ accessAddress: UInt32, _ body: (inout Connection) -> R) -> R {
        connections.update(accessAddress, default: Connection(reassembly: DirectionalReassembly(pendingPDUs: pendingPDUs)), body)
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
        case .advertising where !Self.isAdvertisingCRCValid(ll):
            // A bit error would invent a device, or a connection with a wrong CRCInit.
            packet.content = .linkLayer(ll, .badCRC)
        case .advertising(let adv):
            var data: AdvertisingData?
            if let octets = adv.advertisingData { data = AdvertisingData(decoding: octets) }
            // SCAN_REQ and CONNECT_IND come from the scanner or initiator, not the advertiser.
            if let advA = adv.advA, adv.pduType != .scanReq, adv.pduType != .connectInd {
                let connectable = adv.pduType == .advInd || adv.pduType == .advDirectInd
                seeAdvertiser(advA, type: adv.advAAddressType, rssi: ll.sniffer.rssi.map { Int8(clamping: $0) },
                              connectable: connectable, name: data?.localName?.string, record: packet.index)
            }
            if case let .connectIndication(initA, advA, llData) = adv.payload {
                let aa = llData.accessAddress
                // A new connection, even on an access address seen before: nothing carries over.
                let pending = air.pendingPDUs
                air.update(aa) {
                    $0 = AirState.Connection(reassembly: DirectionalReassembly(pendingPDUs: pending))
                    $0.crcInit = llData.crcInit
                    $0.intervalMicroseconds = Int64(llData.interval) * 1250  // 1.25 ms units
                }
                let id = LinkID.air(accessAddress: aa)
                if let stale = links.removeValue(forKey: id) { end(stale) }
                withLink(id, record: packet.index) { link in
                    link.peerAddress = advA
                    link.peerAddressType = adv.advAAddressType.description
                    link.localAddress = initA
                    link.connectionEventSeen = true
                }
            }
            packet.content = .linkLayer(ll, .advertising(data))
        case .data(let data):
            let given = Self.airDirection(ll)
            let timestamp = packet.timestamp
            let inferred = air.update(ll.accessAddress) { connection -> CaptureDirection in
                if given != .unknown {
                    connection.previous = (timestamp, given)
                    return given
                }
                return connection.inferDirection(at: timestamp)
            }
            packet.direction = inferred
            packet.isDirectionInferred = given == .unknown
            packet.content = .linkLayer(ll, dissectDataPDU(data, record: ll, packet: &packet))
        case .isochronous:
            packet.content = .linkLayer(ll, .linkControl)
        }
    }

    /// Whether an advertising physical channel PDU's CRC holds: as the capture header says when
    /// the sniffer checked, else computed with the advertising CRCInit 0x555555 (Core v5.4,
    /// Vol 6, Part B, 3.1.1).
    static func isAdvertisingCRCValid(_ ll: LinkLayerRecord) -> Bool {
        ll.sniffer.isCRCValid ?? ll.isCRCValid(crcInit: LinkLayerCRC.advertisingCRCInit)
    }

    /// The direction of a data PDU from the capture header (the LINKTYPE 256 pseudo-header's
    /// PDU type, the nRF Sniffer's direction flag); unknown without one.
    static func airDirection(_ ll: LinkLayerRecord) -> CaptureDirection { ll.sniffer.direction }

    /// What the link layer makes of a data PDU before L2CAP sees it.
    enum AirVerdict {
        case badCRC, badMIC, retransmission, encrypted, empty
        case control(LLControlOpcode)
        case l2cap(HCIACLDataPacket)
    }

    mutating func dissectDataPDU(_ pdu: DataChannelPDU, record ll: LinkLayerRecord,
                                 packet: inout DissectedPacket) -> DissectedPacket.LinkLayerStage {
        let aa = ll.accessAddress
        let id = LinkID.air(accessAddress: aa)
        let direction = packet.direction
        withLink(id, record: packet.index) { $0.lastRecord = packet.index }
        let verdict: AirVerdict = air.update(aa) { connection in Self.judge(pdu, ll, direction: direction, connection: &connection) }
        switch verdict {
        case .badCRC:
            return .badCRC
        case .badMIC:
            return .badMIC
        case .retransmission:
            packet.notes.append("link-layer retransmission (SN \(pdu.sn))")
            return .retransmission
        case .encrypted:
            return .encrypted
        case .empty:
            return .linkControl
        case .control(let opcode):
            if opcode == .startEncReq { withLink(id, record: packet.index) { $0.isEncrypted = true } }
            return .linkControl
        case .l2cap(let acl):
            let outcome = air.update(aa) { $0.reassembly.push(acl, direction: direction) }
            return .l2cap(l2capStage(outcome, link: id, packet: &packet))
        }
    }

    /// Checks one data PDU against its connection's state and updates that state.
    ///
    /// - CRC: from the capture header when the sniffer checked it, else against the
    ///   CONNECT_IND's CRCInit.
    /// - MIC: a packet the sniffer decrypted with a MIC that does not match (Core v5.4, Vol 6,
    ///   Part E, 1) is a bad MIC: its payload is neither the plaintext nor usable ciphertext.
    /// - Retransmission: the same SN, LLID and payload as the sender's previous PDU, which a
    ///   receiver that did not acknowledge it gets again (Core v5.4, Vol 6, Part B, 4.5.9): the
    ///   previous PDU in the same direction, given or inferred. Without a direction nothing is
    ///   judged a retransmission, since the sender's previous PDU cannot be told (a repeat is
    ///   then decoded again, as tshark does).
    /// - Encryption: as the capture header says when it says (the nRF Sniffer's encryption
    ///   bit); otherwise, after LL_START_ENC_REQ, non-empty payloads are encrypted unless the
    ///   header says the capture decrypted them.
    static func judge(_ pdu: DataChannelPDU, _ ll: LinkLayerRecord, direction: CaptureDirection,
                      connection: inout AirState.Connection) -> AirVerdict {
        let sniffer = ll.sniffer
        if let valid = sniffer.isCRCValid {
            if !valid { return .badCRC }
        } else if let crcInit = connection.crcInit, !ll.isCRCValid(crcInit: crcInit) {
            return .badCRC
        }
        if sniffer.isMICValid == false { return .badMIC }
        let sent = AirState.SentPDU(sn: pdu.sn, llid: pdu.llid.rawValue, payload: pdu.payload)
        var history = connection.history[direction] ?? []
        let isRetransmission = direction != .unknown && !pdu.payload.isEmpty && history.last == sent
        history.append(sent)
        if history.count > 2 { history.removeFirst() }
        connection.history[direction] = history
        if isRetransmission { return .retransmission }
        if pdu.payload.isEmpty { return .empty }
        let encrypted = sniffer.isEncrypted ?? connection.encrypted
        if encrypted && !sniffer.isDecrypted { return .encrypted }
        switch pdu.content {
        case .control(let opcode, _):
            if opcode == .startEncReq { connection.encrypted = true }
            return .control(opcode)
        case .l2capStart(let octets):
            return .l2cap(HCIACLDataPacket(handle: 0, packetBoundary: .firstFlushable, data: octets))
        case .l2capContinuation(let octets):
            return .l2cap(HCIACLDataPacket(handle: 0, packetBoundary: .continuing, data: octets))
        case .empty, .reserved:
            return .empty
        }
    }
}
