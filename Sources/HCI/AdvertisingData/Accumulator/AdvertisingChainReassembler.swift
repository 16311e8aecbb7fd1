import BLECore

/// Joins the fragments of extended advertising reports into whole payloads before anyone parses
/// them as AD structures, by advertiser (address, address type and Advertising_SID: an
/// ``AdvertiserKey``) and kind (advertising data or scan-response data), with every chain bounded
/// in size, in fragments and in time (Core v5.4, Vol 4, Part E, 7.7.65.13; Vol 6, Part B, 2.3.4).
///
/// The one implementation of chain joining: ``AdvertisementAccumulator`` (and so the scanner)
/// and the capture dissector both use it, so a capture decodes the way a scan sees the air.
/// A pure value: no clocks, no I/O. Feed it every report in the order the controller sent them,
/// legacy ones too, with the time it arrived when there is one. A legacy report is never part of
/// a chain: it stands alone, and ends (cut short) an open chain of an extended advertiser without
/// an ADI field, whose key it shares.
///
/// - Joining: an extended report whose Data Status is 0b01 ("incomplete, more data to come")
///   opens or extends the chain of its key; the next reports of the same key and kind are
///   appended until one with Data Status complete (0b00), truncated (0b10) or reserved (0b11,
///   taken as truncated) ends it. Fragments of other keys may come in between (a controller
///   follows several chains at once); they never mix, and a different SID is a different chain.
/// - Cut short: a report of the same key but the other kind, a legacy report, or one that arrives more than
///   ``Limits/maximumFragmentGap`` after the chain's last fragment, ends the open chain as it
///   stands, truncated (``Outcome/cutShort``), and is then taken on its own, as the start of a
///   new payload: an abandoned chain's fragments never end up in front of the next chain's.
/// - Bounds: at most ``Limits/maximumDataLength`` octets (what fits is kept, marked truncated),
///   at most ``Limits/maximumFragments`` fragments per chain, and at most
///   ``Limits/maximumPendingChains`` chains open at once (the least recently extended is dropped:
///   ``Outcome/evicted``). A chain cut at a bound, or dropped, leaves a marker (at most
///   ``Limits/maximumPendingChains`` of them, the oldest forgotten first) so its remaining
///   fragments, up to the one that ends it, are ``Disposition/discarded`` rather than taken for a
///   new payload. The marker goes when the chain ends, when a report of the other kind arrives,
///   or when no fragment has come for ``Limits/maximumFragmentGap``. A chain whose "more data"
///   never ends therefore costs one truncated payload and then nothing but discarded reports.
public struct AdvertisingChainReassembler: Sendable {
    /// The bounds the reassembler keeps to.
    public struct Limits: Hashable, Sendable {
        /// The most chains open at once (at least 1). Default 64.
        public var maximumPendingChains: Int
        /// The most octets of one payload (at least 1). Default 1650, the largest extended
        /// advertising or scan-response data (Vol 4, Part E, 7.7.65.13; Vol 6, Part B, 2.3.4.9).
        public var maximumDataLength: Int
        /// The most reports (fragments) one chain is joined from (at least 1); the fragment that
        /// reaches it with "more data" still set ends the chain, truncated. Default 64: the
        /// largest payload in fragments of 26 octets, where controllers send up to 229 per report.
        public var maximumFragments: Int
        /// The longest wait between two fragments of one chain, when the reports come with a
        /// time. A later fragment is taken as the start of a new chain, and the old one ends,
        /// truncated. Default 20 ms: the shortest interval between two events of one extended
        /// advertising set (Vol 6, Part B, 4.4.2.2.1), where the auxiliary packets of one event
        /// follow each other within a few milliseconds in practice.
        public var maximumFragmentGap: Duration

        /// Limits; counts below 1 are raised to 1, a negative gap to zero.
        public init(maximumPendingChains: Int = 64, maximumDataLength: Int = AdvertisingData.extendedMaximumLength,
                    maximumFragments: Int = 64, maximumFragmentGap: Duration = .milliseconds(20)) {
            self.maximumPendingChains = max(1, maximumPendingChains)
            self.maximumDataLength = max(1, maximumDataLength)
            self.maximumFragments = max(1, maximumFragments)
            self.maximumFragmentGap = max(.zero, maximumFragmentGap)
        }
    }

    /// What one report did to its own payload.
    public enum Disposition: Hashable, Sendable {
        /// The report completed a payload, alone or as the last fragment of a chain.
        case complete
        /// The report ended a payload that is incomplete: Data Status truncated or reserved, or
        /// the chain reached ``Limits/maximumDataLength`` or ``Limits/maximumFragments`` (what
        /// fits is kept).
        case truncated
        /// The report is a fragment with more data to come; it is held until the chain ends.
        case pending
        /// The report is a later fragment of a chain that was cut at a bound or dropped to make
        /// room; its data are dropped.
        case discarded
    }

    /// A payload as joined: one report's data, or a chain's.
    public struct Payload: Hashable, Sendable {
        /// Whose payload it is.
        public var key: AdvertiserKey
        /// Scan-response data (true) or advertising data (false).
        public var isScanResponse: Bool
        /// The octets joined, in order, at most ``Limits/maximumDataLength``.
        public var data: [UInt8]
        /// Whether the payload is incomplete (see ``Disposition/truncated``, ``Outcome/cutShort``).
        public var isTruncated: Bool
        /// How many reports it was joined from (1 for a report on its own).
        public var fragments: Int
    }

    /// What one report did.
    public struct Outcome: Hashable, Sendable {
        /// What happened to the report's own data.
        public var disposition: Disposition
        /// The payload the report ended (``Disposition/complete`` or ``Disposition/truncated``).
        public var payload: Payload?
        /// The open chain of the same key that the report ended before being taken on its own
        /// (the other kind arrived, or ``Limits/maximumFragmentGap`` passed), truncated.
        public var cutShort: Payload?
        /// Open chains of other keys dropped to make room, truncated, oldest first.
        public var evicted: [Payload]
        /// Which fragment of its chain the report is, from 1 (1 for a report on its own or the
        /// first of a chain; 0 for a discarded one).
        public var fragment: Int
    }

    /// The reassembler's bounds.
    public let limits: Limits

    struct Chain: Sendable {
        var isScanResponse: Bool
        var data: [UInt8]
        var fragments: Int
        var lastUse: UInt64
        var lastTime: Duration?
    }

    /// A chain whose remaining fragments are to be dropped until the one that ends it.
    struct Discarding: Sendable {
        var isScanResponse: Bool
        var lastUse: UInt64
        var lastTime: Duration?
    }

    var chains: [AdvertiserKey: Chain] = [:]
    var discarding: [AdvertiserKey: Discarding] = [:]
    /// Counts reports; orders chains and markers by last use (not a time).
    var tick: UInt64 = 0

    /// An empty reassembler.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The number of chains waiting for more data.
    public var pendingChainCount: Int { chains.count }

    /// The octets held in open chains.
    public var pendingOctets: Int { chains.values.reduce(0) { $0 + $1.data.count } }

    /// Whether `key` has a chain open.
    public func isPending(_ key: AdvertiserKey) -> Bool { chains[key] != nil }

    /// Adds one report of an LE Extended Advertising Report event (subevent 0x0D), which arrived
    /// at `time` (any clock that only moves forward; nil when unknown, which leaves only the
    /// size and fragment bounds).
    /// A report of a legacy advertising PDU (Event_Type bit 4) stands alone.
    public mutating func add(_ report: LEExtendedAdvertisingReport, at time: Duration? = nil) -> Outcome {
        let type = report.eventType
        return add(key: AdvertiserKey(address: report.address, addressType: report.addressType, advertisingSID: report.advertisingSID),
                   isScanResponse: type.isScanResponse, status: type.isLegacy ? .complete : type.dataStatus, data: report.data,
                   at: time, standsAlone: type.isLegacy)
    }

    /// Adds one report of an LE Advertising Report event (subevent 0x02): legacy data are never
    /// fragmented, so it completes a payload of its own (after ending an open chain of its key).
    public mutating func add(_ report: LEAdvertisingReport, at time: Duration? = nil) -> Outcome {
        add(key: AdvertiserKey(address: report.address, addressType: report.addressType),
            isScanResponse: report.eventType.isScanResponse, status: .complete, data: report.data, at: time, standsAlone: true)
    }

    /// Adds one report's data: `status` is its Data Status, `time` when it arrived (as above);
    /// `standsAlone` for a legacy report, which cannot continue a chain.
    public mutating func add(key: AdvertiserKey, isScanResponse: Bool, status: LEExtendedAdvertisingReport.DataStatus,
                             data: [UInt8], at time: Duration? = nil, standsAlone: Bool = false) -> Outcome {
        tick &+= 1
        var outcome = Outcome(disposition: .complete, payload: nil, cutShort: nil, evicted: [], fragment: 1)
        let moreToCome = status == .incompleteMoreToCome && !standsAlone
        let maximum = limits.maximumDataLength

        // Most reports stand alone while no chain is open: no lookup at all then.
        if !discarding.isEmpty, let marker = discarding[key] {
            if marker.isScanResponse == isScanResponse && !standsAlone && !isLate(time, after: marker.lastTime) {
                if moreToCome {
                    discarding[key] = Discarding(isScanResponse: isScanResponse, lastUse: tick, lastTime: time ?? marker.lastTime)
                } else {
                    discarding[key] = nil
                }
                outcome.disposition = .discarded
                outcome.fragment = 0
                return outcome
            }
            discarding[key] = nil
        }

        if !chains.isEmpty, var chain = chains.removeValue(forKey: key) {
            if chain.isScanResponse != isScanResponse || standsAlone || isLate(time, after: chain.lastTime) {
                // The chain's end was lost: keep what it has, truncated, and take the report on its own.
                outcome.cutShort = Payload(key: key, isScanResponse: chain.isScanResponse, data: chain.data,
                                           isTruncated: true, fragments: chain.fragments)
            } else {
                chain.fragments += 1
                outcome.fragment = chain.fragments
                let room = maximum - chain.data.count
                if data.count > room || (moreToCome && chain.fragments >= limits.maximumFragments) {
                    chain.data.append(contentsOf: data.prefix(room))
                    outcome.payload = Payload(key: key, isScanResponse: isScanResponse, data: chain.data,
                                              isTruncated: true, fragments: chain.fragments)
                    outcome.disposition = .truncated
                    if moreToCome { markDiscarding(key, isScanResponse: isScanResponse, time: time ?? chain.lastTime) }
                    return outcome
                }
                chain.data.append(contentsOf: data)
                if moreToCome {
                    chain.lastUse = tick
                    chain.lastTime = time ?? chain.lastTime
                    chains[key] = chain
                    outcome.disposition = .pending
                    return outcome
                }
                let truncated = status != .complete
                outcome.payload = Payload(key: key, isScanResponse: isScanResponse, data: chain.data,
                                          isTruncated: truncated, fragments: chain.fragments)
                outcome.disposition = truncated ? .truncated : .complete
                return outcome
            }
        }

        // No open chain of this kind for the key: the report starts a payload.
        let overflow = data.count > maximum
        let kept = overflow ? Array(data.prefix(maximum)) : data
        if moreToCome && !overflow && limits.maximumFragments > 1 {
            if chains.count >= limits.maximumPendingChains,
               let oldest = chains.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                chains[oldest.key] = nil
                markDiscarding(oldest.key, isScanResponse: oldest.value.isScanResponse, time: oldest.value.lastTime)
                outcome.evicted.append(Payload(key: oldest.key, isScanResponse: oldest.value.isScanResponse,
                                               data: oldest.value.data, isTruncated: true, fragments: oldest.value.fragments))
            }
            chains[key] = Chain(isScanResponse: isScanResponse, data: kept, fragments: 1, lastUse: tick, lastTime: time)
            outcome.disposition = .pending
            return outcome
        }
        let truncated = overflow || status != .complete
        outcome.payload = Payload(key: key, isScanResponse: isScanResponse, data: kept, isTruncated: truncated, fragments: 1)
        outcome.disposition = truncated ? .truncated : .complete
        if moreToCome { markDiscarding(key, isScanResponse: isScanResponse, time: time) }
        return outcome
    }

    /// Ends every open chain and returns them, truncated, oldest first (at the end of a capture,
    /// or when a scan stops); markers are forgotten too.
    public mutating func finish() -> [Payload] {
        let open = chains.sorted { $0.value.lastUse < $1.value.lastUse }.map { key, chain in
            Payload(key: key, isScanResponse: chain.isScanResponse, data: chain.data, isTruncated: true, fragments: chain.fragments)
        }
        removeAll()
        return open
    }

    /// Forgets the open chain and marker of `key`.
    public mutating func remove(_ key: AdvertiserKey) {
        chains[key] = nil
        discarding[key] = nil
    }

    /// Forgets every open chain and marker.
    public mutating func removeAll() {
        chains.removeAll()
        discarding.removeAll()
    }

    /// Whether a report at `time` comes more than ``Limits/maximumFragmentGap`` after `last`
    /// (never when either time is unknown, or when time went backwards).
    func isLate(_ time: Duration?, after last: Duration?) -> Bool {
        guard let time, let last else { return false }
        return time - last > limits.maximumFragmentGap
    }

    /// Remembers that the rest of `key`'s chain is to be dropped, forgetting the oldest such
    /// marker when there are ``Limits/maximumPendingChains`` already.
    mutating func markDiscarding(_ key: AdvertiserKey, isScanResponse: Bool, time: Duration?) {
        if discarding[key] == nil, discarding.count >= limits.maximumPendingChains,
           let oldest = discarding.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            discarding[oldest.key] = nil
        }
        discarding[key] = Discarding(isScanResponse: isScanResponse, lastUse: tick, lastTime: time)
    }
}
