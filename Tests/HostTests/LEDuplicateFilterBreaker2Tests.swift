import BLECore
@testable import HCI
@testable import Host
import Testing

/// The duplicate filter's memory bound under churn: a scan in a crowded place hears a stream of
/// advertisers it never hears again (random private addresses rotate, Core v5.4, Vol 6, Part B,
/// 1.3.2.2), so the filter must forget as fast as it learns.
@Suite("LEDuplicateFilter: memory under churn (breaker 4)")
struct LEDuplicateFilterBreaker2Tests {
    private func advertisement(_ address: UInt64) -> Advertisement {
        var advertisement = Advertisement(key: AdvertiserKey(address: BluetoothAddress(address), addressType: .random))
        advertisement.advertisingData = AdvertisingData(decoding: [0x02, 0x01, 0x06])
        return advertisement
    }

    /// Every admission of a new advertiser past capacity evicts one: the live part of the
    /// admission log (`count - head`) stays at capacity, so a compaction triggered by it alone
    /// never runs, and the consumed prefix before `head` grew by one entry per advertiser heard,
    /// forever (10 000 entries for 10 000 advertisers with capacity 4).
    @Test("10 000 distinct advertisers through a filter of capacity 4 keep its admission log within 2 × capacity")
    func churnOfNewAdvertisers() {
        var filter = LEDuplicateFilter(capacity: 4)
        var admitted = 0
        var largestLog = 0
        for n in 0..<10_000 {
            if filter.admit(advertisement(0xC0_00_00_00_00_00 | UInt64(n))) { admitted += 1 }
            largestLog = max(largestLog, filter.admissionLogCount)
        }
        #expect(admitted == 10_000)
        #expect(largestLog <= 2 * 4 + 1, "the admission log grew to \(largestLog) entries")
        // Still least recently let through first: the last four are remembered, the fifth last is not.
        let again = [9_999, 9_996, 9_995].map { filter.admit(advertisement(0xC0_00_00_00_00_00 | UInt64($0))) }
        #expect(again == [false, false, true])
    }

    @Test("mixed churn (new advertisers and changing ones) stays bounded too")
    func mixedChurn() {
        var filter = LEDuplicateFilter(capacity: 8)
        var largestLog = 0
        for n in 0..<20_000 {
            var changing = advertisement(1)
            changing.advertisingData = AdvertisingData(decoding: [0x03, 0xFF, UInt8(n & 0xFF), UInt8((n >> 8) & 0xFF)])
            _ = filter.admit(changing)
            _ = filter.admit(advertisement(0xC0_00_00_00_00_00 | UInt64(n)))
            largestLog = max(largestLog, filter.admissionLogCount)
        }
        #expect(largestLog <= 2 * 8 + 1, "the admission log grew to \(largestLog) entries")
    }
}
