import HCI

/// The host's half of duplicate filtering for an ``LEScanner`` with
/// ``LEScanParameters/filterDuplicates`` on. Filter_Duplicates asks the controller to drop
/// reports it has already sent (Core v5.4, Vol 4, Part E, 7.8.11 and 7.8.65), but a controller
/// keeps only a small table of advertisers, forgets it whenever scanning is re-enabled, and may
/// count a scan response or a changed RSSI as new (BlueZ's emulated controllers do not filter at
/// all). So the scanner also lets an advertisement through only when it differs from the last
/// one it let through for that advertiser: in its advertising data, its scan response, or how it
/// may be used (connectable, scannable, directed, legacy). A new RSSI alone is a duplicate, and
/// so is an empty scan response.
///
/// - Bounds: remembers at most ``capacity`` advertisers; when a new one would exceed it, the one
///   let through longest ago is forgotten (it passes again the next time it is heard).
struct LEDuplicateFilter {
    /// What makes two advertisements of one advertiser the same, for this filter. A payload not
    /// yet heard counts as an empty one: an empty scan response adds nothing to report.
    private struct Content: Hashable {
        var advertisingData: AdvertisingData
        var scanResponseData: AdvertisingData
        var isAdvertisingDataTruncated: Bool
        var isScanResponseDataTruncated: Bool
        var isConnectable: Bool
        var isScannable: Bool
        var isDirected: Bool
        var isLegacy: Bool

        init(_ advertisement: Advertisement) {
            advertisingData = advertisement.advertisingData ?? .empty
            scanResponseData = advertisement.scanResponseData ?? .empty
            isAdvertisingDataTruncated = advertisement.isAdvertisingDataTruncated
            isScanResponseDataTruncated = advertisement.isScanResponseDataTruncated
            isConnectable = advertisement.isConnectable
            isScannable = advertisement.isScannable
            isDirected = advertisement.isDirected
            isLegacy = advertisement.isLegacy
        }
    }

    /// The most advertisers remembered (at least 1).
    let capacity: Int
    /// What was last let through per advertiser, and when (a counter).
    private var passed: [AdvertiserKey: (content: Content, order: UInt64)] = [:]
    /// Every admission in order, oldest first from `head`; an entry whose order no longer matches
    /// `passed` is stale (the advertiser passed again later) and is skipped. Compacted when the
    /// log (consumed entries included) passes twice the capacity: at most `capacity` entries are
    /// live, so eviction stays O(1) amortized and memory O(capacity).
    private var admissions: [(key: AdvertiserKey, order: UInt64)] = []
    private var head = 0
    private var counter: UInt64 = 0

    /// A filter that remembers up to `capacity` advertisers (the accumulator's own bound, 1024, by default).
    init(capacity: Int = 1024) { self.capacity = max(1, capacity) }

    /// Whether `advertisement` should be reported: true the first time its advertiser is heard
    /// and whenever its content changed since it was last reported; remembers it if so.
    mutating func admit(_ advertisement: Advertisement) -> Bool {
        let content = Content(advertisement)
        if passed[advertisement.key]?.content == content { return false }
        if passed[advertisement.key] == nil, passed.count >= capacity { evictOldest() }
        counter &+= 1
        passed[advertisement.key] = (content, counter)
        admissions.append((advertisement.key, counter))
        // The whole log counts, the consumed prefix before `head` too: when every admission
        // evicts one, the live part stays at capacity while the prefix grows without end.
        if admissions.count > 2 * capacity { compact() }
        return true
    }

    /// Forgets the advertiser let through longest ago.
    private mutating func evictOldest() {
        while head < admissions.count {
            let entry = admissions[head]
            head += 1
            if passed[entry.key]?.order == entry.order {
                passed[entry.key] = nil
                return
            }
        }
    }

    /// The entries in the admission log, consumed and stale ones included (tests check the
    /// memory bound with it).
    var admissionLogCount: Int { admissions.count }

    /// Drops the consumed and stale admissions.
    private mutating func compact() {
        admissions = admissions[head...].filter { passed[$0.key]?.order == $0.order }
        head = 0
    }
}
