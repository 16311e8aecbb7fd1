import BLECore
import HCI

/// Advertising events on the air: scanners in range hear them (passive or active, legacy or
/// extended reports), initiators in range connect to them (Core v5.4, Vol 6, Part B, 4.4).
extension RadioWorld {
    /// The most advertising data one LE Extended Advertising Report carries: 255 octets of
    /// event parameters less the subevent code, Num_Reports and 24 octets of fixed fields
    /// (Vol 4, Part E, 7.7.65.13).
    static let extendedReportDataLimit = 229

    /// One advertising event of set `key`: every controller in range hears it in index order;
    /// then the next event is scheduled at the interval plus advDelay.
    func advertisingEvent(_ c: ControllerModel, set key: Int, generation: UInt64) {
        guard var set = c.advertisingSets[key], set.enabled, set.generation == generation,
              let address = c.ownAddress(set.ownAddressType, random: key == ControllerModel.legacySetKey ? c.randomAddress : set.randomAddress)
        else { return }
        set.eventsSent += 1
        c.advertisingSets[key] = set
        for other in controllers where other !== c && canHear(c, other) {
            // The advertising PDU itself can be lost at the receiver.
            if chance(other.faults.packetDropRate) { continue }
            hearAdvertising(scanner: other, advertiser: c, set: set, address: address)
            if connectIfInitiating(other, advertiser: c, setKey: key, set: set, address: address) { return }
        }
        if set.maxEvents > 0, set.eventsSent >= set.maxEvents, key != ControllerModel.legacySetKey {
            disableAdvertising(c, key: key)
            emit(LEMetaEvent.AdvertisingSetTerminated(status: .limitReached, advertisingHandle: set.handle, connectionHandle: 0,
                                                      numCompletedExtendedAdvertisingEvents: UInt8(min(set.eventsSent, 255))).packet, to: c)
            return
        }
        schedule(at: now + set.interval + (set.properties.contains(.highDutyCycleDirected) ? 0 : advDelay()),
                 .advertising(controller: c.index, set: key, generation: generation))
    }

    /// Whether a receiver that started at `start` with `interval` and `window` (µs) listens now.
    func listening(start: Micros, interval: Micros, window: Micros) -> Bool {
        window >= interval || (now - start) % max(interval, 1) < window
    }

    // MARK: Scanning

    func hearAdvertising(scanner s: ControllerModel, advertiser a: ControllerModel, set: AdvertisingSet, address: DeviceAddress) {
        guard s.scan.enabled, listening(start: s.scan.startedAt, interval: s.scan.interval, window: s.scan.window) else { return }
        // A scanner using the legacy commands hears only legacy PDUs (no AUX_ADV_IND).
        guard set.isLegacyPDU || s.family == .extended else { return }
        let own = s.ownAddress(s.scan.ownAddressType, random: s.randomAddress)
        let target = DeviceAddress(type: set.peerAddressType, address: set.peerAddress)
        if set.isDirected, own != target { return }
        if s.scan.filterPolicy == .basicFiltered, !s.accepts(address) { return }
        report(to: s, from: a, set: set, address: address, scanResponse: false)
        // Active scanning: SCAN_REQ (or AUX_SCAN_REQ), answered with the real scan response data.
        guard s.scan.active, set.isScannable, let own else { return }
        if set.filterPolicy == .filterScanRequests || set.filterPolicy == .filterBoth, !a.accepts(own) { return }
        if chance(a.faults.packetDropRate) || chance(s.faults.packetDropRate) { return }
        report(to: s, from: a, set: set, address: address, scanResponse: true)
    }

    /// One advertising (or scan response) report to scanner `s`: LE Advertising Report for a
    /// legacy scanner, LE Extended Advertising Report (fragmented at 229 octets, Data Status
    /// "more data to come" on all but the last) for an extended one; skipped as a duplicate when
    /// the filter is on and the same advertiser, kind and data were reported since scanning started.
    func report(to s: ControllerModel, from a: ControllerModel, set: AdvertisingSet, address: DeviceAddress, scanResponse: Bool) {
        // ADV_DIRECT_IND carries no advertising data (Vol 6, Part B, 2.3.1.2).
        let data = scanResponse ? set.scanResponse : (set.isLegacyPDU && set.isDirected ? [] : set.data)
        if s.scan.filterDuplicates {
            let key = DuplicateKey(addressType: address.type.rawValue, address: address.address, isScanResponse: scanResponse, data: data)
            guard s.scan.seen.insert(key).inserted else { return }
        }
        let rssi = measuredRSSI(a, s)
        if s.family != .extended {
            let type: LEAdvertisingReport.EventType
            if scanResponse { type = .scanRsp }
            else if set.isDirected { type = .advDirectInd }
            else if set.isConnectable { type = .advInd }
            else if set.isScannable { type = .advScanInd }
            else { type = .advNonconnInd }
            let report = LEAdvertisingReport(eventType: type, addressType: address.type, address: address.address, data: data, rssi: rssi)
            emit(LEMetaEvent.AdvertisingReport(reports: [report]).packet, to: s)
            return
        }
        var bits: UInt16 = 0
        if set.isConnectable { bits |= 0x0001 }
        if set.isScannable { bits |= 0x0002 }
        if set.isDirected { bits |= 0x0004 }
        if scanResponse { bits |= 0x0008 }
        if set.isLegacyPDU { bits |= 0x0010 }
        var chunks: [[UInt8]] = []
        var start = 0
        repeat {
            let end = min(data.count, start + Self.extendedReportDataLimit)
            chunks.append(Array(data[start..<end]))
            start = end
        } while start < data.count
        for (index, chunk) in chunks.enumerated() {
            let more = index < chunks.count - 1
            let report = LEExtendedAdvertisingReport(
                eventType: LEExtendedAdvertisingReport.EventType(rawValue: bits | (more ? 0x0020 : 0)),
                addressType: address.type, address: address.address, primaryPHY: 0x01,
                secondaryPHY: set.isLegacyPDU ? 0x00 : set.secondaryPHY.rawValue,
                advertisingSID: set.isLegacyPDU ? 0xFF : set.sid, txPower: 127, rssi: rssi,
                directAddressType: set.isDirected ? set.peerAddressType : .public,
                directAddress: set.isDirected ? set.peerAddress : .zero, data: chunk)
            emit(LEMetaEvent.ExtendedAdvertisingReport(reports: [report]).packet, to: s)
        }
    }

    // MARK: Initiating

    /// Connects initiator `i` to the advertiser when `i` is initiating, listening, wants this
    /// advertiser, and the advertiser accepts it (CONNECT_IND, Vol 6, Part B, 2.3.3.1).
    func connectIfInitiating(_ i: ControllerModel, advertiser a: ControllerModel, setKey: Int, set: AdvertisingSet,
                             address: DeviceAddress) -> Bool {
        guard let initiation = i.initiation, set.isConnectable,
              set.isLegacyPDU || initiation.extended,
              listening(start: initiation.startedAt, interval: initiation.scanInterval, window: initiation.scanWindow),
              let own = i.ownAddress(initiation.ownAddressType, random: i.randomAddress)
        else { return false }
        switch initiation.filterPolicy {
        case .filterAcceptList: guard i.accepts(address) else { return false }
        default: guard address == DeviceAddress(type: initiation.peerAddressType, address: initiation.peerAddress) else { return false }
        }
        if set.isDirected, own != DeviceAddress(type: set.peerAddressType, address: set.peerAddress) { return false }
        if set.filterPolicy == .filterConnectionRequests || set.filterPolicy == .filterBoth, !a.accepts(own) { return false }
        if chance(a.faults.packetDropRate) { return false }   // CONNECT_IND lost
        establish(central: i, peripheral: a, centralAddress: own, peripheralAddress: address, setKey: setKey, set: set,
                  parameters: initiation.parameters)
        return true
    }

    /// A new link: handles on both controllers, the first connection event 2.5 ms later
    /// (transmitWindowDelay 1.25 ms plus a 1.25 ms transmit window), the connection events
    /// at Connection_Interval_Min, and the completion events on both sides.
    func establish(central i: ControllerModel, peripheral a: ControllerModel, centralAddress: DeviceAddress,
                   peripheralAddress: DeviceAddress, setKey: Int, set: AdvertisingSet, parameters: LEConnectionParameters) {
        let centralHandle = allocateHandle(i), peripheralHandle = allocateHandle(a)
        let interval = Micros(parameters.connectionIntervalMin.microseconds)
        let link = Link(id: nextLinkID, central: (i.index, centralHandle, centralAddress),
                        peripheral: (a.index, peripheralHandle, peripheralAddress),
                        parameters: parameters, interval: interval, anchor: now + 2_500)
        nextLinkID += 1
        links[link.id] = link
        link.maxTxOctets = [27, 27]
        i.initiation = nil
        i.connections[centralHandle] = ConnectionEnd(link: link.id, role: .central)
        a.connections[peripheralHandle] = ConnectionEnd(link: link.id, role: .peripheral)
        disableAdvertising(a, key: setKey)
        // Either side whose host suggested longer PDUs starts the data length update at once
        // (LE Write Suggested Default Data Length, 7.8.35; Vol 6, Part B, 5.1.9).
        for (side, c) in [i, a].enumerated() where c.suggestedTxOctets > 27 {
            let byTime = UInt16(min(max(Int(c.suggestedTxTime) / 8 - 14, 27), 251))
            link.procedures.append(.dataLength(side: side, txOctets: min(c.suggestedTxOctets, byTime, c.configuration.maximumDataLength)))
        }
        emitConnectionComplete(i, status: .success, handle: centralHandle, role: .central, peer: peripheralAddress, link: link)
        emitConnectionComplete(a, status: .success, handle: peripheralHandle, role: .peripheral, peer: centralAddress, link: link)
        if setKey != ControllerModel.legacySetKey {
            emit(LEMetaEvent.AdvertisingSetTerminated(status: .success, advertisingHandle: set.handle, connectionHandle: peripheralHandle,
                                                      numCompletedExtendedAdvertisingEvents: UInt8(min(set.eventsSent, 255))).packet, to: a)
        }
        ensureConnectionEvent(link)
    }

    /// The next free handle of `c`: handles count up from the controller's own base
    /// (0x0040 + 0x00C0 per controller index, modulo 16), so two linked controllers never
    /// share a handle number.
    func allocateHandle(_ c: ControllerModel) -> UInt16 {
        while true {
            let handle = c.handleBase + c.nextHandleOffset % 0x80
            c.nextHandleOffset &+= 1
            if c.connections[handle] == nil { return handle }
        }
    }

    /// LE Enhanced Connection Complete when the host unmasked it, else LE Connection Complete
    /// (Vol 4, Part E, 7.7.65.1 and 7.7.65.10). `peer` and `link` are nil for failures.
    func emitConnectionComplete(_ c: ControllerModel, status: HCIStatus, handle: UInt16, role: LERole,
                                peer: DeviceAddress?, link: Link?) {
        let interval = LEConnectionInterval(rawValue: UInt16((link?.interval ?? 0) / 1_250))
        let latency = link?.latency ?? 0
        let timeout = LESupervisionTimeout(rawValue: UInt16((link?.timeout ?? 0) / 10_000))
        // Central_Clock_Accuracy: 50 ppm (0x05) at the peripheral; 0x00 at the central (7.7.65.1).
        let accuracy = LEClockAccuracy(rawValue: role == .peripheral && link != nil ? 0x05 : 0x00)
        if isEnabled(.enhancedConnectionComplete, at: c) {
            emit(LEMetaEvent.EnhancedConnectionComplete(
                status: status, connectionHandle: handle, role: role, peerAddressType: peer?.type ?? .public,
                peerAddress: peer?.address ?? .zero, connectionInterval: interval, peripheralLatency: latency,
                supervisionTimeout: timeout, centralClockAccuracy: accuracy).packet, to: c)
        } else {
            emit(LEMetaEvent.ConnectionComplete(
                status: status, connectionHandle: handle, role: role, peerAddressType: peer?.type ?? .public,
                peerAddress: peer?.address ?? .zero, connectionInterval: interval, peripheralLatency: latency,
                supervisionTimeout: timeout, centralClockAccuracy: accuracy).packet, to: c)
        }
    }
}
