import BLECore

/// Merges LE advertising reports into one ``Advertisement`` per advertiser: advertising data and
/// scan-response data kept apart, extended-advertising fragments reassembled, truncation marked,
/// memory bounded (Core v5.4, Vol 4, Part E, 7.7.65.2 and 7.7.65.13; Vol 3, Part C, 11).
///
/// A pure value: no clocks, no I/O. Feed it every report in the order the controller sent them;
/// each call says what the report did (an ``Update``).
///
/// - Merging: reports are grouped by ``AdvertiserKey`` (Address, Address_Type and, for extended
///   advertising, Advertising_SID). A report replaces the payload of its kind: advertising data
///   or scan-response data (Event_Type SCAN_RSP, or bit 3 of an extended Event_Type). The other
///   payload is left as it was.
/// - Reassembly: an extended report whose Data Status is 0b01 ("incomplete, more data to come")
///   is held; the following reports of the same key and kind are appended until one with Data
///   Status complete (0b00), truncated (0b10) or reserved (0b11, treated as truncated) ends the
///   chain. The controller sends the fragments of one advertiser and SID in order.
/// - Truncation: the payload is marked truncated (``Advertisement/isAdvertisingDataTruncated``,
///   ``Advertisement/isScanResponseDataTruncated``) when the controller says so, when a report of
///   the other kind arrives while a chain is still open (the open chain is stored as it stands,
///   truncated), or when the reassembled data reach ``Limits/maximumDataLength``.
/// - Bounds: at most ``Limits/maximumAdvertisers`` advertisements (the least recently updated is
///   evicted to make room), at most ``Limits/maximumPendingChains`` open chains (the least
///   recently extended is dropped, its fragments lost), at most ``Limits/maximumDataLength``
///   octets per payload (1650 by default, the most extended advertising can carry). Every
///   eviction is reported in the ``Update`` that caused it.
/// - Discarding: a chain that is still going when it is dropped or cut at the maximum length
///   leaves a small marker (at most ``Limits/maximumPendingChains`` of them, the oldest forgotten
///   first) so its remaining fragments, up to and including the one that ends it, are
///   ``Disposition/discarded`` rather than taken for a new payload. A report of the other kind
///   clears the marker. A chain cut short by a report of the other kind leaves no marker: the
///   other kind shows that the chain's end was lost, so the next report starts afresh.
public struct AdvertisementAccumulator: Sendable {
    /// The bounds the accumulator keeps to.
    public struct Limits: Hashable, Sendable {
        /// The most advertisements kept at once (at least 1). Default 1024.
        public var maximumAdvertisers: Int
        /// The most fragment chains open at once (at least 1). Default 64.
        public var maximumPendingChains: Int
        /// The most octets kept per payload (at least 1). Default 1650, the largest extended
        /// advertising or scan-response data (Vol 4, Part E, 7.7.65.13; Vol 6, Part B, 2.3.4.9).
        public var maximumDataLength: Int

        /// Limits; values below 1 are raised to 1.
        public init(maximumAdvertisers: Int = 1024, maximumPendingChains: Int = 64,
                    maximumDataLength: Int = AdvertisingData.extendedMaximumLength) {
            self.maximumAdvertisers = max(1, maximumAdvertisers)
            self.maximumPendingChains = max(1, maximumPendingChains)
            self.maximumDataLength = max(1, maximumDataLength)
        }
    }

    /// What one report did to its own payload.
    public enum Disposition: Hashable, Sendable {
        /// The report completed a payload, alone or as the last fragment of a chain; the
        /// ``Update/advertisement`` holds it.
        case complete
        /// The report ended a payload that is incomplete: Data Status truncated or reserved, or
        /// the reassembled data reached ``Limits/maximumDataLength`` (what fits is kept). The
        /// ``Update/advertisement`` holds what arrived, marked truncated.
        case truncated
        /// The report is a fragment with more data to come; it is held until the chain ends.
        case pending
        /// The report is a later fragment of a chain that was cut at ``Limits/maximumDataLength``
        /// or dropped to make room; its data are dropped (the chain is forgotten when the
        /// fragment that ends it arrives).
        case discarded
    }

    /// Something the accumulator let go of to stay within its ``Limits``.
    public enum Eviction: Hashable, Sendable {
        /// The least recently updated advertisement, forgotten to make room for a new advertiser.
        case advertisement(Advertisement)
        /// The least recently extended open fragment chain, dropped to make room for a new one:
        /// its `octets` octets of advertising data (or scan-response data) are lost, and its
        /// remaining fragments will be ``Disposition/discarded``.
        case pendingChain(AdvertiserKey, isScanResponse: Bool, octets: Int)
    }

    /// What one report did.
    public struct Update: Hashable, Sendable {
        /// What happened to the report's own data.
        public var disposition: Disposition
        /// The advertisement as stored after the report, when the report changed it: always for
        /// ``Disposition/complete`` and ``Disposition/truncated``; for ``Disposition/pending``
        /// only when the report also cut short an open chain of the other kind (which is stored
        /// truncated); nil otherwise.
        public var advertisement: Advertisement?
        /// What was evicted to make room, oldest first; usually empty.
        public var evictions: [Eviction]
    }

    /// The accumulator's bounds.
    public let limits: Limits

    struct Entry: Sendable {
        var advertisement: Advertisement
        var lastUse: UInt64
    }

    /// The report fields that describe the advertising, carried with a payload to the Advertisement.
    struct Meta: Sendable {
        /// Connectable, scannable, directed; nil when the report does not say (a legacy SCAN_RSP,
        /// or an unknown legacy Event_Type), so the stored values are kept.
        var properties: (connectable: Bool, scannable: Bool, directed: Bool)?
        var isLegacy: Bool
        var rssi: Int8
        var txPower: Int8
        var primaryPHY: UInt8
        var secondaryPHY: UInt8
        var periodicAdvertisingInterval: UInt16
    }

    struct Chain: Sendable {
        var isScanResponse: Bool
        var data: [UInt8]
        var lastUse: UInt64
        var meta: Meta
    }

    /// A chain whose remaining fragments are to be dropped until the one that ends it.
    struct Discarding: Sendable {
        var isScanResponse: Bool
        var lastUse: UInt64
    }

    var entries: [AdvertiserKey: Entry] = [:]
    var chains: [AdvertiserKey: Chain] = [:]
    var discarding: [AdvertiserKey: Discarding] = [:]
    /// Counts reports; orders entries and chains by last use (not a time).
    var tick: UInt64 = 0
    /// Advertisers in the order of their last use, oldest first; an element is stale when its
    /// key was used again later (its tick is no longer the entry's `lastUse`). Finds the least
    /// recently used advertiser in amortised O(1), where a scan of every entry per new
    /// advertiser would make a flood of addresses quadratic.
    var useOrder: [(key: AdvertiserKey, tick: UInt64)] = []
    var useOrderHead = 0

    /// An empty accumulator.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    // MARK: Reading

    /// Every advertisement kept, ordered by key (address, address type, SID).
    public var advertisements: [Advertisement] {
        entries.values.map(\.advertisement).sorted { $0.key < $1.key }
    }

    /// The advertisement kept for `key`.
    public subscript(key: AdvertiserKey) -> Advertisement? { entries[key]?.advertisement }

    /// The number of advertisements kept.
    public var count: Int { entries.count }

    /// The number of fragment chains waiting for more data.
    public var pendingChainCount: Int { chains.count }

    /// The octets held in open fragment chains.
    public var pendingOctets: Int { chains.values.reduce(0) { $0 + $1.data.count } }

    /// Forgets the advertisement and any open chain for `key`; returns the advertisement.
    @discardableResult
    public mutating func removeAdvertisement(for key: AdvertiserKey) -> Advertisement? {
        chains[key] = nil
        discarding[key] = nil
        return entries.removeValue(forKey: key)?.advertisement
    }

    /// Forgets everything.
    public mutating func removeAll() {
        entries.removeAll()
        useOrder.removeAll()
        useOrderHead = 0
        chains.removeAll()
        discarding.removeAll()
    }

    // MARK: Adding reports

    /// Adds one report of an LE Advertising Report event (legacy advertising, subevent 0x02).
    ///
    /// Legacy data are never fragmented, so the report completes its payload: the disposition is
    /// ``Disposition/complete`` (or ``Disposition/truncated`` if the data exceed
    /// ``Limits/maximumDataLength``) and the update holds the advertisement. (The one exception:
    /// an extended advertiser with no ADI field shares the legacy key, and while its chain is
    /// open a legacy report of the same kind ends that chain like any report would.)
    /// A SCAN_RSP fills the scan-response payload and leaves the
    /// connectable, scannable and directed properties as the advertising reports set them; an
    /// unknown Event_Type fills the advertising payload and leaves them too.
    public mutating func add(_ report: LEAdvertisingReport) -> Update {
        let type = report.eventType
        let properties: (connectable: Bool, scannable: Bool, directed: Bool)?
        switch type {
        case .advInd: properties = (true, true, false)
        case .advDirectInd: properties = (true, false, true)
        case .advScanInd: properties = (false, true, false)
        case .advNonconnInd: properties = (false, false, false)
        default: properties = nil
        }
        let meta = Meta(properties: properties, isLegacy: true, rssi: report.rssi, txPower: 127,
                        primaryPHY: 0x01, secondaryPHY: 0x00, periodicAdvertisingInterval: 0)
        let key = AdvertiserKey(address: report.address, addressType: report.addressType)
        return process(key: key, isScanResponse: type.isScanResponse, status: .complete, data: report.data, meta: meta)
    }

    /// Adds one report of an LE Extended Advertising Report event (subevent 0x0D).
    ///
    /// - Returns: ``Disposition/pending`` while a chain is open (Data Status "more data to come");
    ///   ``Disposition/complete`` or ``Disposition/truncated`` with the updated advertisement when
    ///   the report ends a payload; ``Disposition/discarded`` for fragments past the maximum length.
    public mutating func add(_ report: LEExtendedAdvertisingReport) -> Update {
        let type = report.eventType
        let meta = Meta(properties: (type.isConnectable, type.isScannable, type.isDirected), isLegacy: type.isLegacy,
                        rssi: report.rssi, txPower: report.txPower, primaryPHY: report.primaryPHY,
                        secondaryPHY: report.secondaryPHY, periodicAdvertisingInterval: report.periodicAdvertisingInterval)
        let key = AdvertiserKey(address: report.address, addressType: report.addressType, advertisingSID: report.advertisingSID)
        return process(key: key, isScanResponse: type.isScanResponse, status: type.dataStatus, data: report.data, meta: meta)
    }

    mutating func process(key: AdvertiserKey, isScanResponse: Bool, status: LEExtendedAdvertisingReport.DataStatus,
                          data: [UInt8], meta: Meta) -> Update {
        tick &+= 1
        var update = Update(disposition: .complete, advertisement: nil, evictions: [])
        let moreToCome = status == .incompleteMoreToCome
        let maximum = limits.maximumDataLength

        if let marker = discarding[key] {
            if marker.isScanResponse == isScanResponse {
                if moreToCome { discarding[key]?.lastUse = tick } else { discarding[key] = nil }
                update.disposition = .discarded
                return update
            }
            discarding[key] = nil
        }

        if var chain = chains.removeValue(forKey: key) {
            if chain.isScanResponse != isScanResponse {
                // The other kind of data arrived while this chain waited for more: its end was
                // lost. Store what it has, truncated, and handle the report on its own below.
                store(key: key, isScanResponse: chain.isScanResponse, data: chain.data, truncated: true,
                      meta: chain.meta, into: &update)
            } else if data.count > maximum - chain.data.count {
                chain.data.append(contentsOf: data.prefix(maximum - chain.data.count))
                store(key: key, isScanResponse: isScanResponse, data: chain.data, truncated: true, meta: meta, into: &update)
                update.disposition = .truncated
                if moreToCome { markDiscarding(key, isScanResponse: isScanResponse) }
                return update
            } else {
                chain.data.append(contentsOf: data)
                if moreToCome {
                    chain.meta = meta
                    chain.lastUse = tick
                    chains[key] = chain
                    update.disposition = .pending
                    return update
                }
                let truncated = status != .complete
                store(key: key, isScanResponse: isScanResponse, data: chain.data, truncated: truncated, meta: meta, into: &update)
                update.disposition = truncated ? .truncated : .complete
                return update
            }
        }

        // No open chain of this kind for the key: the report starts a payload.
        let overflow = data.count > maximum
        let kept = overflow ? Array(data.prefix(maximum)) : data
        if moreToCome && !overflow {
            if chains.count >= limits.maximumPendingChains,
               let oldest = chains.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                chains[oldest.key] = nil
                markDiscarding(oldest.key, isScanResponse: oldest.value.isScanResponse)
                update.evictions.append(.pendingChain(oldest.key, isScanResponse: oldest.value.isScanResponse,
                                                      octets: oldest.value.data.count))
            }
            chains[key] = Chain(isScanResponse: isScanResponse, data: kept, lastUse: tick, meta: meta)
            update.disposition = .pending
            return update
        }
        let truncated = overflow || status != .complete
        store(key: key, isScanResponse: isScanResponse, data: kept, truncated: truncated, meta: meta, into: &update)
        update.disposition = truncated ? .truncated : .complete
        if moreToCome { markDiscarding(key, isScanResponse: isScanResponse) }
        return update
    }

    /// Remembers that the rest of `key`'s chain is to be dropped, forgetting the oldest such
    /// marker when there are ``Limits/maximumPendingChains`` already.
    mutating func markDiscarding(_ key: AdvertiserKey, isScanResponse: Bool) {
        if discarding[key] == nil, discarding.count >= limits.maximumPendingChains,
           let oldest = discarding.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            discarding[oldest.key] = nil
        }
        discarding[key] = Discarding(isScanResponse: isScanResponse, lastUse: tick)
    }

    /// Stores a finished payload in the key's advertisement (making room if it is new) and puts
    /// the updated advertisement in `update`.
    mutating func store(key: AdvertiserKey, isScanResponse: Bool, data: [UInt8], truncated: Bool,
                        meta: Meta, into update: inout Update) {
        let index: Dictionary<AdvertiserKey, Entry>.Index
        if let existing = entries.index(forKey: key) {
            index = existing
        } else {
            if entries.count >= limits.maximumAdvertisers, let oldest = popLeastRecentlyUsed() {
                update.evictions.append(.advertisement(oldest))
            }
            entries[key] = Entry(advertisement: Advertisement(key: key), lastUse: tick)
            guard let created = entries.index(forKey: key) else { return }
            index = created
        }
        entries.values[index].lastUse = tick
        noteUse(of: key)
        Self.apply(payload: AdvertisingData(decoding: data), isScanResponse: isScanResponse, truncated: truncated,
                   meta: meta, to: &entries.values[index].advertisement)
        update.advertisement = entries.values[index].advertisement
    }

    /// Records that `key` was used at the current tick, compacting the order when most of it
    /// is stale.
    mutating func noteUse(of key: AdvertiserKey) {
        useOrder.append((key, tick))
        if useOrder.count > 4 * max(entries.count, 64) {
            useOrder = entries.map { ($0.key, $0.value.lastUse) }.sorted { $0.tick < $1.tick }
            useOrderHead = 0
        }
    }

    /// Removes and returns the least recently used advertiser.
    mutating func popLeastRecentlyUsed() -> Advertisement? {
        while useOrderHead < useOrder.count {
            let (key, tick) = useOrder[useOrderHead]
            useOrderHead += 1
            if useOrderHead > 1024, useOrderHead * 2 > useOrder.count {
                useOrder.removeFirst(useOrderHead)
                useOrderHead = 0
            }
            if let entry = entries[key], entry.lastUse == tick {
                entries[key] = nil
                return entry.advertisement
            }
        }
        return nil
    }

    static func apply(payload: AdvertisingData, isScanResponse: Bool, truncated: Bool, meta: Meta,
                      to a: inout Advertisement) {
        if isScanResponse {
            a.scanResponseData = payload
            a.isScanResponseDataTruncated = truncated
        } else {
            a.advertisingData = payload
            a.isAdvertisingDataTruncated = truncated
        }
        if let p = meta.properties {
            a.isConnectable = p.connectable
            a.isScannable = p.scannable
            a.isDirected = p.directed
        }
        a.isLegacy = meta.isLegacy
        a.rssi = meta.rssi == 127 ? nil : meta.rssi
        a.txPower = meta.txPower == 127 ? nil : meta.txPower
        a.primaryPHY = meta.primaryPHY
        a.secondaryPHY = meta.secondaryPHY
        a.periodicAdvertisingInterval = meta.periodicAdvertisingInterval
        a.payloadCount += 1
    }
}
