import BLECore
import HCI

/// Connection events (Core v5.4, Vol 6, Part B, 4.5): data and control PDUs both ways,
/// acknowledgement and retransmission, instants, the supervision timeout. Only events with
/// something to carry are simulated: an idle link costs nothing however long it lasts.
extension RadioWorld {
    /// The inter frame space between PDUs: 150 µs (Vol 6, Part B, 4.1.1).
    static let interFrameSpace: Micros = 150
    /// How many connection events after the one that carries it an instant falls (Vol 6, Part
    /// B, 5.1.1 asks for at least 6).
    static let instantDelay: UInt64 = 6

    /// The air time of a data channel PDU with `octets` of payload on `phy`, in µs: preamble,
    /// access address, header, payload and CRC (Vol 6, Part B, 2.1 and 2.4).
    static func airTime(octets: Int, phy: LEPHY) -> Micros {
        phy == .le2M ? Micros(11 + octets) * 4 : Micros(10 + octets) * 8
    }

    /// Schedules the link's next connection event if it has work and none is scheduled: the
    /// next anchor point for traffic, or the earliest pending instant.
    func ensureConnectionEvent(_ link: Link) {
        guard link.scheduledAt == nil, link.silentSide == nil else { return }
        let central = controllers[link.controllers[0]], peripheral = controllers[link.controllers[1]]
        guard canHear(central, peripheral) else { return }
        let counter: UInt64
        if hasSendableTraffic(link) {
            counter = link.firstCounter(notBefore: now)
        } else if let instant = link.instants.map(\.counter).min() {
            counter = max(instant, link.firstCounter(notBefore: now))
        } else {
            return
        }
        link.generation &+= 1
        link.scheduledCounter = counter
        link.scheduledAt = link.time(ofCounter: counter)
        schedule(at: link.time(ofCounter: counter), .connectionEvent(link: link.id, generation: link.generation))
    }

    func connectionEvent(_ link: Link) {
        link.scheduledAt = nil
        let counter = link.scheduledCounter
        link.lastCounter = counter
        applyInstants(link, counter: counter)
        guard links[link.id] != nil else { return }
        let central = controllers[link.controllers[0]], peripheral = controllers[link.controllers[1]]
        guard link.silentSide == nil, canHear(central, peripheral) else {
            eventFailed(link)
            return
        }
        var completed = [0, 0]
        // Zero-length packets from a host carry nothing: they complete at once.
        for side in 0...1 {
            while let head = link.queues[side].first, head.data.isEmpty {
                link.queues[side].removeFirst()
                completed[side] += 1
            }
        }
        var budget = link.interval
        var heard = false
        var ended = false
        // At least one exchange, so an event run only for an instant still hears the peer.
        repeat {
            if let procedure = link.procedures.first {
                // A control PDU and its answer (or acknowledgement) take one exchange.
                if chance(peripheral.faults.packetDropRate) || chance(central.faults.packetDropRate) {
                    ended = true
                    break
                }
                heard = true
                link.procedures.removeFirst()
                budget -= 2 * Self.airTime(octets: 27, phy: .le1M) + 2 * Self.interFrameSpace
                if run(procedure, on: link, counter: counter) { return }   // terminated
                continue
            }
            // Central to peripheral (data the peripheral's host has no room for waits).
            let centralPDU = canSend(link, side: 0) ? nextPDU(link, side: 0) : nil
            if chance(peripheral.faults.packetDropRate) {
                ended = true
                break
            }
            heard = true
            if let pdu = centralPDU, link.inFlight[0] == nil {
                deliver(pdu, on: link, to: 1)
                link.inFlight[0] = pdu.data.count
            }
            // Peripheral to central: its PDU carries the acknowledgement of the central's.
            let peripheralPDU = canSend(link, side: 1) ? nextPDU(link, side: 1) : nil
            if chance(central.faults.packetDropRate) {
                ended = true
                break
            }
            if let pdu = centralPDU { completed[0] += acknowledge(link, side: 0, octets: pdu.data.count) }
            if let pdu = peripheralPDU {
                if link.inFlight[1] == nil { deliver(pdu, on: link, to: 0) }
                completed[1] += acknowledge(link, side: 1, octets: pdu.data.count)
            }
            budget -= Self.airTime(octets: centralPDU?.data.count ?? 0, phy: link.txPHY[0])
                + Self.airTime(octets: peripheralPDU?.data.count ?? 0, phy: link.txPHY[1]) + 2 * Self.interFrameSpace
        } while budget > 0 && hasSendableTraffic(link) && !ended
        if heard {
            link.lastHeard = now
            link.failing = false
            disarmSupervision(link)
        } else {
            eventFailed(link)
        }
        for side in 0...1 where completed[side] > 0 {
            let c = controllers[link.controllers[side]]
            c.buffersInUse = max(0, c.buffersInUse - completed[side])
            emit(HCIEvent.NumberOfCompletedPackets(entries: [
                .init(connectionHandle: link.handles[side], numCompletedPackets: UInt16(completed[side])),
            ]).packet, to: c)
        }
        ensureConnectionEvent(link)
    }

    /// The data PDU side `side` sends next: up to connEffectiveMaxTxOctets of its oldest
    /// packet, LLID start for the first of an L2CAP PDU (Vol 6, Part B, 2.4); nil for an empty PDU.
    func nextPDU(_ link: Link, side: Int) -> HCIACLDataPacket? {
        guard let head = link.queues[side].first else { return nil }
        let end = min(head.data.count, head.sent + (link.inFlight[side] ?? Int(link.maxTxOctets[side])))
        return HCIACLDataPacket(handle: link.handles[1 - side],
                                packetBoundary: head.isStart && head.sent == 0 ? .firstFlushable : .continuing,
                                data: Array(head.data[head.sent..<end]))
    }

    /// Hands a received PDU to the host of side `receiver` as one ACL packet.
    func deliver(_ pdu: HCIACLDataPacket, on link: Link, to receiver: Int) {
        let c = controllers[link.controllers[receiver]]
        hostTookACL(c, handle: pdu.handle)
        send(.acl(pdu), to: c)
    }

    /// The peer acknowledged `octets` of side `side`'s head packet; returns 1 when that
    /// completes the packet.
    func acknowledge(_ link: Link, side: Int, octets: Int) -> Int {
        guard !link.queues[side].isEmpty else { return 0 }
        link.inFlight[side] = nil
        link.queues[side][0].sent += octets
        guard link.queues[side][0].sent >= link.queues[side][0].data.count else { return 0 }
        link.queues[side].removeFirst()
        return 1
    }

    // MARK: Procedures

    /// Runs a control procedure at connection event `counter`; returns true when it ended the link.
    func run(_ procedure: LinkProcedure, on link: Link, counter: UInt64) -> Bool {
        switch procedure {
        case .connectionUpdate(let parameters):
            let interval = Micros(parameters.connectionIntervalMin.microseconds)
            link.instants.append((counter + Self.instantDelay, .connectionUpdate(parameters, interval: interval)))
        case .dataLength(let side, let octets):
            let before = (0...1).map { effectiveLengths(link, side: $0) }
            link.requestedTxOctets[side] = octets
            for s in 0...1 {
                let peerMaxRx = controllers[link.controllers[1 - s]].configuration.maximumDataLength
                link.maxTxOctets[s] = min(link.requestedTxOctets[s], peerMaxRx)
            }
            for s in 0...1 where effectiveLengths(link, side: s) != before[s] {
                let (tx, rx) = effectiveLengths(link, side: s)
                emit(LEMetaEvent.DataLengthChange(connectionHandle: link.handles[s], maxTXOctets: tx,
                                                  maxTXTime: .init(rawValue: (tx + 14) * 8), maxRXOctets: rx,
                                                  maxRXTime: .init(rawValue: (rx + 14) * 8)).packet,
                     to: controllers[link.controllers[s]])
            }
        case .phy(let side, let tx, let rx):
            let centralTX = side == 0 ? tx : rx, peripheralTX = side == 0 ? rx : tx
            if centralTX == link.txPHY[0], peripheralTX == link.txPHY[1] {
                // No change: only the initiating host hears the (unchanged) PHYs (7.7.65.12).
                emit(LEMetaEvent.PHYUpdateComplete(connectionHandle: link.handles[side], txPHY: link.txPHY[side],
                                                   rxPHY: link.txPHY[1 - side]).packet, to: controllers[link.controllers[side]])
            } else {
                link.instants.append((counter + Self.instantDelay, .phy(initiator: side, centralTX: centralTX, peripheralTX: peripheralTX)))
            }
        case .readRemoteFeatures(let side):
            let peer = controllers[link.controllers[1 - side]]
            emit(LEMetaEvent.ReadRemoteFeaturesComplete(connectionHandle: link.handles[side],
                                                        leFeatures: peer.configuration.leFeatures).packet,
                 to: controllers[link.controllers[side]])
        case .terminate(let side, let reason):
            var reasons: [HCIStatus?] = [nil, nil]
            reasons[side] = .connectionTerminatedByLocalHost
            reasons[1 - side] = reason
            endLink(link, reasons: reasons)
            return true
        }
        return false
    }

    /// (connEffectiveMaxTxOctets, connEffectiveMaxRxOctets) at side `side`.
    func effectiveLengths(_ link: Link, side: Int) -> (UInt16, UInt16) {
        (link.maxTxOctets[side], link.maxTxOctets[1 - side])
    }

    /// Applies the changes whose instant is `counter` or earlier, with their completion events.
    func applyInstants(_ link: Link, counter: UInt64) {
        let due = link.instants.filter { $0.counter <= counter }
        link.instants.removeAll { $0.counter <= counter }
        for (instant, change) in due {
            switch change {
            case .connectionUpdate(let parameters, let interval):
                let changed = interval != link.interval || parameters.maxLatency != link.latency
                    || Micros(parameters.supervisionTimeout.microseconds) != link.timeout
                link.anchor = link.time(ofCounter: instant)
                link.anchorCounter = instant
                link.interval = interval
                link.latency = parameters.maxLatency
                link.timeout = Micros(parameters.supervisionTimeout.microseconds)
                link.parameters = parameters
                // The central's host always hears the outcome; the peripheral's only of a change (7.7.65.3).
                for side in 0...1 where side == 0 || changed {
                    emit(LEMetaEvent.ConnectionUpdateComplete(
                        connectionHandle: link.handles[side], connectionInterval: .init(rawValue: UInt16(interval / 1_250)),
                        peripheralLatency: link.latency, supervisionTimeout: .init(rawValue: UInt16(link.timeout / 10_000))).packet,
                         to: controllers[link.controllers[side]])
                }
            case .phy(_, let centralTX, let peripheralTX):
                link.txPHY = [centralTX, peripheralTX]
                for side in 0...1 {
                    emit(LEMetaEvent.PHYUpdateComplete(connectionHandle: link.handles[side], txPHY: link.txPHY[side],
                                                       rxPHY: link.txPHY[1 - side]).packet, to: controllers[link.controllers[side]])
                }
            }
        }
    }

    // MARK: Losing the link

    /// A connection event in which nothing got through: the supervision timer runs from the
    /// last event known good (Vol 6, Part B, 4.5.2).
    func eventFailed(_ link: Link) {
        if !link.failing {
            link.failing = true
            link.lastHeard = max(link.lastHeard, now - link.interval)
        }
        armSupervision(link)
    }

    func armSupervision(_ link: Link) {
        guard !link.supervisionArmed else { return }
        link.supervisionArmed = true
        link.supervisionGeneration &+= 1
        schedule(at: link.lastHeard + link.timeout, .supervisionTimeout(link: link.id, generation: link.supervisionGeneration))
    }

    func disarmSupervision(_ link: Link) {
        guard link.supervisionArmed else { return }
        link.supervisionArmed = false
        link.supervisionGeneration &+= 1
    }

    /// No PDU for connSupervisionTimeout: both hosts that still listen hear Connection Timeout (0x08).
    func supervisionTimedOut(_ link: Link) {
        var reasons: [HCIStatus?] = [.connectionTimeout, .connectionTimeout]
        if let silent = link.silentSide { reasons[silent] = nil }
        endLink(link, reasons: reasons)
    }

    /// Side `side` stops answering (its controller was reset): its end goes now, silently; the
    /// other ends at its supervision timeout.
    func goSilent(_ link: Link, side: Int) {
        if link.silentSide != nil && link.silentSide != side {
            endLink(link, reasons: [nil, nil])
            return
        }
        let c = controllers[link.controllers[side]]
        c.connections[link.handles[side]] = nil
        c.buffersInUse = max(0, c.buffersInUse - link.queues[side].count)
        link.queues[side] = []
        link.inFlight[side] = nil
        link.procedures.removeAll { procedure in
            switch procedure {
            case .dataLength(let s, _), .phy(let s, _, _), .readRemoteFeatures(let s), .terminate(let s, _): return s == side
            case .connectionUpdate: return side == 0
            }
        }
        link.silentSide = side
        link.generation &+= 1
        link.scheduledAt = nil
        link.failing = true
        link.lastHeard = max(link.lastHeard, now)
        disarmSupervision(link)
        armSupervision(link)
    }

    /// Removes the link; each side with a reason hears Disconnection Complete with it (7.7.5),
    /// and its buffers held for the link are freed (no Number Of Completed Packets for them).
    func endLink(_ link: Link, reasons: [HCIStatus?]) {
        links[link.id] = nil
        link.generation &+= 1
        disarmSupervision(link)
        for side in 0...1 where link.silentSide != side {
            let c = controllers[link.controllers[side]]
            guard c.connections[link.handles[side]]?.link == link.id else { continue }
            c.connections[link.handles[side]] = nil
            c.buffersInUse = max(0, c.buffersInUse - link.queues[side].count)
            c.hostBuffersInUse[link.handles[side]] = nil      // freed with the link (Vol 4, Part E, 4.2)
            if let reason = reasons[side] {
                emit(HCIEvent.DisconnectionComplete(connectionHandle: link.handles[side], reason: reason).packet, to: c)
            }
        }
    }

    /// Range changed for `c`: links that can hear again resume; links that cannot arm their
    /// supervision timers.
    func rangeChanged(_ c: ControllerModel) {
        for end in c.connections.values {
            guard let link = links[end.link] else { continue }
            let central = controllers[link.controllers[0]], peripheral = controllers[link.controllers[1]]
            if canHear(central, peripheral), link.silentSide == nil {
                link.failing = false
                link.lastHeard = now
                disarmSupervision(link)
                ensureConnectionEvent(link)
            } else {
                link.generation &+= 1
                link.scheduledAt = nil
                if !link.failing {
                    link.failing = true
                    link.lastHeard = now
                }
                armSupervision(link)
            }
        }
    }
}
