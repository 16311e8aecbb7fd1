import BLECore

/// Merges LE advertising reports into one ``Advertisement`` per advertiser: advertising data and
/// scan-response data kept apart, extended-advertising fragments reassembled, truncation marked,
/// memory bounded (Core v5.4, Vol 4, Part E, 7.7.65.2 and 7.7.65.13; Vol 3, Part C, 11).
///
/// A pure value: no clocks, no I/O. Feed it every report in the order the controller sent them,
/// with the time it arrived when there is one; each call says what the report did (an ``Update``).
///
/// - Merging: reports are grouped by ``AdvertiserKey`` (Address, Address_Type and, for extended
///   advertising, Advertising_SID). A report replaces the payload of its kind: advertising data
///   or scan-response data (Event_Type SCAN_RSP, or bit 3 of an extended Event_Type). The other
///   payload is left as it was.
/// - Reassembly, truncation and the bounds of a chain are ``AdvertisingChainReassembler``'s, the
///   same joining the capture dissector runs: fragments with Data Status "more data to come" are
///   held until the report that ends their chain; a chain cut short (a report of the other kind,
///   or a fragment later than ``Limits/maximumFragmentGap``) is stored as it stands, truncated;
///   a chain that reaches ``Limits/maximumDataLength`` or ``Limits/maximumFragments`` is stored
///   truncated and its remaining fragments are ``Disposition/discarded``.
/// - Bounds: at most ``Limits/maximumAdvertisers`` advertisements (the least recently updated is
///   evicted to make room) and at most ``Limits/maximumPendingChains`` open chains (the least
///   recently extended is dropped, its fragments lost). Every eviction is reported in the
///   ``Update`` that caused it.
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
        /// The most reports one chain is joined from (at least 1). Default 64
        /// (``AdvertisingChainReassembler/Limits/maximumFragments``).
        public var maximumFragments: Int
        /// The longest wait between two fragments of one chain, for reports added with a time.
        /// Default 20 ms (``AdvertisingChainReassembler/Limits/maximumFragmentGap``).
        public var maximumFragmentGap: Duration

        /// Limits; counts below 1 are raised to 1, a negative gap to zero.
        public init(maximumAdvertisers: Int = 1024, maximumPendingChains: Int = 64,
                    maximumDataLength: Int = AdvertisingData.extendedMaximumLength,
                    maximumFragments: Int = 64, maximumFragmentGap: Duration = .milliseconds(20)) {
            self.maximumAdvertisers = max(1, maximumAdvertisers)
            self.maximumPendingChains = max(1, maximumPendingChains)
            self.maximumDataLength = max(1, maximumDataLength)
            self.maximumFragments = max(1, maximumFragments)
            self.maximumFragmentGap = max(.zero, maximumFragmentGap)
        }

        /// The chain bounds, for the reassembler.
        var chainLimits: AdvertisingChainReassembler.Limits {
            AdvertisingChainReassembler.Limits(maximumPendingChains: maximumPendingChains, maximumDataLength: maximumDataLength,
                                               maximumFragments: maximumFragments, maximumFragmentGap: maximumFragmentGap)
        }
    }

    /// What one report did to its own payload: ``AdvertisingChainReassembler/Disposition``. With
    /// ``Disposition/complete`` and ``Disposition/truncated`` the ``Update/advertisement`` holds
    /// the payload.
    public typealias Disposition = AdvertisingChainReassembler.Disposition

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

    var entries: [AdvertiserKey: Entry] = [:]
    /// The chains under way: the one joining, shared with the capture dissector.
    var chains: AdvertisingChainReassembler
    /// The report fields of each open chain's last fragment, for the payload it becomes.
    var chainMeta: [AdvertiserKey: Meta] = [:]
    /// Counts reports; orders entries by last use (not a time).
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
        chains = AdvertisingChainReassembler(limits: limits.chainLimits)
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
    public var pendingChainCount: Int { chains.pendingChainCount }

    /// The octets held in open fragment chains.
    public var pendingOctets: Int { chains.pendingOctets }

    /// Forgets the advertisement and any open chain for `key`; returns the advertisement.
    @discardableResult
    public mutating func removeAdvertisement(for key: AdvertiserKey) -> Advertisement? {
        chains.remove(key)
        chainMeta[key] = nil
        return entries.removeValue(forKey: key)?.advertisement
    }

    /// Forgets everything.
    public mutating func removeAll() {
        entries.removeAll()
        useOrder.removeAll()
        useOrderHead = 0
        chains.removeAll()
        chainMeta.removeAll()
    }

    // MARK: Adding reports

    /// Adds one report of an LE Advertising Report event (legacy advertising, subevent 0x02).
    ///
    /// Legacy data are never fragmented, so the report completes its payload: the disposition is
    /// ``Disposition/complete`` (or ``Disposition/truncated`` if the data exceed
    /// ``Limits/maximumDataLength``) and the update holds the advertisement. An extended
    /// advertiser with no ADI field shares the legacy key: its open chain, if any, is stored
    /// first, truncated (a legacy report never continues a chain).
    /// A SCAN_RSP fills the scan-response payload and leaves the
    /// connectable, scannable and directed properties as the advertising reports set them; an
    /// unknown Event_Type fills the advertising payload and leaves them too. `time` is when the
    /// report arrived, on any clock that only moves forward (nil: unknown).
    public mutating func add(_ report: LEAdvertisingReport, at time: Duration? = nil) -> Update {
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
        return process(key: key, isScanResponse: type.isScanResponse, status: .complete, data: report.data, meta: meta, time: time, standsAlone: true)
    }

    /// Adds one report of an LE Extended Advertising Report event (subevent 0x0D).
    ///
    /// `time` is when the report arrived, on any clock that only moves forward (nil: unknown,
    /// which leaves a chain bounded by its size and its fragment count alone).
    ///
    /// - Returns: ``Disposition/pending`` while a chain is open (Data Status "more data to come");
    ///   ``Disposition/complete`` or ``Disposition/truncated`` with the updated advertisement when
    ///   the report ends a payload; ``Disposition/discarded`` for fragments of a chain cut at a
    ///   bound.
    public mutating func add(_ report: LEExtendedAdvertisingReport, at time: Duration? = nil) -> Update {
        let type = report.eventType
        let meta = Meta(properties: (type.isConnectable, type.isScannable, type.isDirected), isLegacy: type.isLegacy,
                        rssi: report.rssi, txPower: report.txPower, primaryPHY: report.primaryPHY,
                        secondaryPHY: report.secondaryPHY, periodicAdvertisingInterval: report.periodicAdvertisingInterval)
        let key = AdvertiserKey(address: report.address, addressType: report.addressType, advertisingSID: report.advertisingSID)
        return process(key: key, isScanResponse: type.isScanResponse, status: type.isLegacy ? .complete : type.dataStatus, data: report.data, meta: meta, time: time,
                       standsAlone: type.isLegacy)
    }

    mutating func process(key: AdvertiserKey, isScanResponse: Bool, status: LEExtendedAdvertisingReport.DataStatus,
                          data: [UInt8], meta: Meta, time: Duration?, standsAlone: Bool) -> Update {
        tick &+= 1
        let outcome = chains.add(key: key, isScanResponse: isScanResponse, status: status, data: data, at: time,
                                 standsAlone: standsAlone)
        var update = Update(disposition: outcome.disposition, advertisement: nil, evictions: [])
        if let cut = outcome.cutShort {
            // Stored with the report fields of the chain's own last fragment.
            store(cut, meta: chainMeta.removeValue(forKey: key) ?? meta, into: &update)
        }
        for dropped in outcome.evicted {
            chainMeta[dropped.key] = nil
            update.evictions.append(.pendingChain(dropped.key, isScanResponse: dropped.isScanResponse, octets: dropped.data.count))
        }
        switch outcome.disposition {
        case .pending:
            chainMeta[key] = meta
        case .complete, .truncated:
            // Only a chain (more than one fragment) had report fields kept.
            if let payload = outcome.payload {
                if payload.fragments > 1 { chainMeta[key] = nil }
                store(payload, meta: meta, into: &update)
            }
        case .discarded:
            break  // a discarded fragment's chain was dropped or cut, its fields let go then
        }
        return update
    }

    /// Stores a finished payload in the key's advertisement (making room if it is new) and puts
    /// the updated advertisement in `update`.
    mutating func store(_ payload: AdvertisingChainReassembler.Payload, meta: Meta, into update: inout Update) {
        let key = payload.key
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
        Self.apply(payload: AdvertisingData(decoding: payload.data), isScanResponse: payload.isScanResponse, truncated: payload.isTruncated,
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
