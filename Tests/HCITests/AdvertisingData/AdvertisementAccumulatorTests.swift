import Testing
import BLECore
@testable import HCI

/// The accumulator: merging advertising and scan-response data per advertiser, SID separation,
/// reassembly of extended reports, truncation, and its bounds (Core v5.4, Vol 4, Part E,
/// 7.7.65.2 and 7.7.65.13).
@Suite("AdvertisementAccumulator")
struct AdvertisementAccumulatorTests {
    static let a = BluetoothAddress(0xC1_0000_0000_0A)
    static let b = BluetoothAddress(0xC1_0000_0000_0B)
    static let c = BluetoothAddress(0xC1_0000_0000_0C)

    /// An extended report. `status`: 0 complete, 1 more to come, 2 truncated (Event_Type bits 5...6).
    static func ext(_ address: BluetoothAddress, sid: UInt8 = 1, properties: UInt16 = 0x0001, scanResponse: Bool = false,
                    status: UInt16 = 0, addressType: LEAddressType = .random, rssi: Int8 = -50, txPower: Int8 = 127,
                    data: [UInt8]) -> LEExtendedAdvertisingReport {
        LEExtendedAdvertisingReport(
            eventType: .init(rawValue: properties | (scanResponse ? 0x0008 : 0) | status << 5),
            addressType: addressType, address: address, primaryPHY: 0x01, secondaryPHY: 0x02, advertisingSID: sid,
            txPower: txPower, rssi: rssi, data: data)
    }

    /// A run of AD structures of `count` octets in all: raw type 0x3F structures of up to 31 octets.
    static func payload(_ count: Int, fill: UInt8) -> [UInt8] {
        var out: [UInt8] = []
        while out.count < count {
            let room = count - out.count
            if room == 1 { out.append(0x00); break }      // one octet left: a terminator
            let n = min(room, 31)
            out.append(UInt8(n - 1)); out.append(0x3F)
            out.append(contentsOf: repeatElement(fill, count: n - 2))
        }
        return out
    }

    // MARK: Merging

    @Test("legacy ADV_IND and SCAN_RSP merge into one advertisement, kept as separate payloads")
    func legacyMerge() throws {
        var acc = AdvertisementAccumulator()
        // ADV_IND, random address, AD: 02 01 06 (Flags) 03 03 0d 18 (Heart Rate), RSSI -70
        let first = acc.add(LEAdvertisingReport(eventType: .advInd, addressType: .random, address: Self.a,
                                                data: try adBytes("02 01 06 03 03 0d 18"), rssi: -70))
        #expect(first.disposition == .complete)
        #expect(first.evictions.isEmpty)
        let adv = try #require(first.advertisement)
        #expect(adv.key == AdvertiserKey(address: Self.a, addressType: .random))
        #expect(adv.advertisingSID == nil)
        #expect(adv.isConnectable && adv.isScannable && !adv.isDirected && adv.isLegacy)
        #expect(adv.rssi == -70)
        #expect(adv.txPower == nil)
        #expect(adv.scanResponseData == nil)
        #expect(adv.serviceUUIDs == [BluetoothUUID(0x180D)])

        // SCAN_RSP: 05 09 41 42 43 44 (Complete Local Name "ABCD"), RSSI 127 = not available
        let second = acc.add(LEAdvertisingReport(eventType: .scanRsp, addressType: .random, address: Self.a,
                                                 data: try adBytes("05 09 41 42 43 44"), rssi: 127))
        let merged = try #require(second.advertisement)
        #expect(merged.localName?.string == "ABCD")
        #expect(merged.advertisingData?.encoded == (try adBytes("02 01 06 03 03 0d 18")))
        #expect(merged.scanResponseData?.encoded == (try adBytes("05 09 41 42 43 44")))
        #expect(merged.isConnectable)          // SCAN_RSP leaves the ADV_IND's properties
        #expect(merged.rssi == nil)
        #expect(merged.payloadCount == 2)

        // A new ADV_NONCONN_IND replaces the advertising data, keeps the scan response.
        let third = try #require(acc.add(LEAdvertisingReport(eventType: .advNonconnInd, addressType: .random, address: Self.a,
                                                             data: try adBytes("02 01 04"), rssi: -71)).advertisement)
        #expect(third.flags == .brEDRNotSupported)
        #expect(third.serviceUUIDs.isEmpty)
        #expect(third.localName?.string == "ABCD")
        #expect(!third.isConnectable && !third.isScannable)
        #expect(acc.count == 1)
        #expect(acc[AdvertiserKey(address: Self.a, addressType: .random)] == third)
    }

    @Test("a scan response before any advertising data is kept on its own")
    func scanResponseFirst() throws {
        var acc = AdvertisementAccumulator()
        let u = acc.add(LEAdvertisingReport(eventType: .scanRsp, addressType: .public, address: Self.a,
                                            data: try adBytes("03 08 4c 42"), rssi: -40))
        let adv = try #require(u.advertisement)
        #expect(adv.advertisingData == nil)
        #expect(adv.localName == ADLocalName("LB", isComplete: false))
        #expect(!adv.isConnectable)
        // An unknown legacy Event_Type is advertising data and leaves the properties.
        let unknown = try #require(acc.add(LEAdvertisingReport(eventType: .init(rawValue: 0x07), addressType: .public,
                                                               address: Self.a, data: [0x02, 0x01, 0x02], rssi: -40)).advertisement)
        #expect(unknown.flags == .leGeneralDiscoverableMode)
        #expect(!unknown.isConnectable)
    }

    @Test("address type and Advertising_SID separate advertisers")
    func separation() throws {
        var acc = AdvertisementAccumulator()
        _ = acc.add(Self.ext(Self.a, sid: 1, data: [0x02, 0x01, 0x06]))
        _ = acc.add(Self.ext(Self.a, sid: 2, data: [0x02, 0x0A, 0x04]))
        _ = acc.add(Self.ext(Self.a, sid: 1, addressType: .public, data: [0x02, 0x1C, 0x00]))
        _ = acc.add(LEAdvertisingReport(eventType: .advInd, addressType: .random, address: Self.a, data: [0x02, 0x01, 0x05], rssi: -1))
        #expect(acc.count == 4)
        let keys = acc.advertisements.map(\.key)
        #expect(keys == [AdvertiserKey(address: Self.a, addressType: .public, advertisingSID: 1),
                         AdvertiserKey(address: Self.a, addressType: .random, advertisingSID: 1),
                         AdvertiserKey(address: Self.a, addressType: .random, advertisingSID: 2),
                         AdvertiserKey(address: Self.a, addressType: .random)])
        #expect(acc[AdvertiserKey(address: Self.a, addressType: .random, advertisingSID: 1)]?.flags == [.leGeneralDiscoverableMode, .brEDRNotSupported])
        #expect(acc[AdvertiserKey(address: Self.a, addressType: .random, advertisingSID: 2)]?.txPowerLevel == 4)
        #expect(acc[AdvertiserKey(address: Self.a, addressType: .random)]?.flags == [.leLimitedDiscoverableMode, .brEDRNotSupported])
        // SID 0xFF (no ADI) is the legacy key.
        #expect(AdvertiserKey(address: Self.a, addressType: .random, advertisingSID: 0xFF) == AdvertiserKey(address: Self.a, addressType: .random))
    }

    @Test("extended report fields reach the advertisement")
    func extendedFields() throws {
        var acc = AdvertisementAccumulator()
        // Event_Type 0x0005: connectable, directed; TX_Power -4 dBm; RSSI -55 dBm; LE 1M / LE 2M
        let adv = try #require(acc.add(Self.ext(Self.b, sid: 3, properties: 0x0005, rssi: -55, txPower: -4, data: [])).advertisement)
        #expect(adv.isConnectable && adv.isDirected && !adv.isScannable && !adv.isLegacy)
        #expect(adv.txPower == -4)
        #expect(adv.rssi == -55)
        #expect(adv.primaryPHY == 0x01)
        #expect(adv.secondaryPHY == 0x02)
        #expect(adv.advertisingSID == 3)
        #expect(adv.advertisingData == .empty)
        #expect(adv.description == "C1:00:00:00:00:0B (random) SID 3 connectable directed, RSSI -55 dBm, TX power -4 dBm; AD: empty")
    }

    // MARK: Reassembly and truncation

    @Test("fragments with 'more data to come' are reassembled until a complete report")
    func reassembly() throws {
        var acc = AdvertisementAccumulator()
        // A Complete Local Name "LinuxBLE sensor" split across three reports:
        // 10 09 4c 69 6e | 75 78 42 4c 45 20 | 73 65 6e 73 6f 72
        let name = try adBytes("10 09 4c 69 6e 75 78 42 4c 45 20 73 65 6e 73 6f 72")
        let u1 = acc.add(Self.ext(Self.a, status: 1, data: Array(name[0..<5])))
        #expect(u1.disposition == .pending)
        #expect(u1.advertisement == nil)
        #expect(acc.pendingChainCount == 1)
        #expect(acc.pendingOctets == 5)
        #expect(acc.count == 0)
        let u2 = acc.add(Self.ext(Self.a, status: 1, data: Array(name[5..<11])))
        #expect(u2.disposition == .pending)
        #expect(acc.pendingOctets == 11)
        let u3 = acc.add(Self.ext(Self.a, status: 0, rssi: -42, data: Array(name[11...])))
        #expect(u3.disposition == .complete)
        let adv = try #require(u3.advertisement)
        #expect(adv.advertisingData?.encoded == name)
        #expect(adv.localName?.string == "LinuxBLE sensor")
        #expect(!adv.isAdvertisingDataTruncated)
        #expect(adv.rssi == -42)
        #expect(adv.payloadCount == 1)
        #expect(acc.pendingChainCount == 0)
    }

    @Test("Data Status truncated ends the chain and marks the payload")
    func truncatedStatus() throws {
        var acc = AdvertisementAccumulator()
        // 02 01 06 | 0a 09 4c 69 6e (then the controller gives up: truncated)
        _ = acc.add(Self.ext(Self.a, status: 1, data: [0x02, 0x01, 0x06]))
        let u = acc.add(Self.ext(Self.a, status: 2, data: [0x0A, 0x09, 0x4C, 0x69, 0x6E]))
        #expect(u.disposition == .truncated)
        let adv = try #require(u.advertisement)
        #expect(adv.isAdvertisingDataTruncated)
        #expect(adv.advertisingData?.flags == [.leGeneralDiscoverableMode, .brEDRNotSupported])
        #expect(adv.advertisingData?.diagnostics.map(\.reason) == [.runsPastEnd(declared: 10, available: 4)])
        // A truncated single report, then a complete one clears the mark.
        #expect(acc.add(Self.ext(Self.a, status: 2, data: [0x02])).advertisement?.isAdvertisingDataTruncated == true)
        let clean = try #require(acc.add(Self.ext(Self.a, status: 0, data: [0x02, 0x01, 0x06])).advertisement)
        #expect(!clean.isAdvertisingDataTruncated)
        // Data Status 0b11 (reserved) is treated as truncated.
        #expect(acc.add(Self.ext(Self.a, status: 3, data: [0x02, 0x01, 0x06])).disposition == .truncated)
    }

    @Test("a report of the other kind cuts an open chain short: it is stored truncated")
    func interruptedChain() throws {
        var acc = AdvertisementAccumulator()
        _ = acc.add(Self.ext(Self.a, status: 1, data: [0x02, 0x01, 0x06, 0x05]))
        // A scan response (Event_Type bit 3) arrives before the chain's last fragment.
        let u = acc.add(Self.ext(Self.a, properties: 0x0003, scanResponse: true, data: try adBytes("05 09 41 42 43 44")))
        #expect(u.disposition == .complete)
        let adv = try #require(u.advertisement)
        #expect(adv.isAdvertisingDataTruncated)
        #expect(adv.advertisingData?.encoded == [0x02, 0x01, 0x06, 0x05])
        #expect(adv.advertisingData?.flags == [.leGeneralDiscoverableMode, .brEDRNotSupported])
        #expect(adv.scanResponseData?.localName?.string == "ABCD")
        #expect(!adv.isScanResponseDataTruncated)
        #expect(acc.pendingChainCount == 0)

        // Cut short by a fragment of the other kind: the advertisement changes, the new chain waits.
        _ = acc.add(Self.ext(Self.b, status: 1, data: [0x02, 0x01]))
        let v = acc.add(Self.ext(Self.b, scanResponse: true, status: 1, data: [0x05, 0x09]))
        #expect(v.disposition == .pending)
        #expect(v.advertisement?.isAdvertisingDataTruncated == true)
        #expect(v.advertisement?.advertisingData?.encoded == [0x02, 0x01])
        #expect(v.advertisement?.scanResponseData == nil)
        // The next advertising report starts afresh (no fragments are discarded).
        #expect(acc.add(Self.ext(Self.b, data: [0x02, 0x01, 0x06])).disposition == .complete)
    }

    @Test("reassembled data stop at 1650 octets; the rest of the chain is discarded")
    func maximumLength() throws {
        var acc = AdvertisementAccumulator()
        #expect(acc.limits.maximumDataLength == 1650)
        // Eight fragments of 229 octets (the most one report carries) would make 1832 octets.
        let fragment = Self.payload(229, fill: 0x5A)
        for _ in 0..<7 { #expect(acc.add(Self.ext(Self.a, status: 1, data: fragment)).disposition == .pending) }
        #expect(acc.pendingOctets == 7 * 229)
        let cut = acc.add(Self.ext(Self.a, status: 1, data: fragment))
        #expect(cut.disposition == .truncated)
        let adv = try #require(cut.advertisement)
        #expect(adv.advertisingData?.encodedLength == 1650)
        #expect(adv.isAdvertisingDataTruncated)
        #expect(acc.pendingChainCount == 0)
        #expect(acc.pendingOctets == 0)
        // The chain's remaining fragments, including its last, are dropped...
        #expect(acc.add(Self.ext(Self.a, status: 1, data: fragment)).disposition == .discarded)
        #expect(acc.add(Self.ext(Self.a, status: 0, data: fragment)).disposition == .discarded)
        #expect(acc[adv.key]?.advertisingData?.encodedLength == 1650)
        // ...and the next payload is taken again.
        #expect(acc.add(Self.ext(Self.a, status: 0, data: [0x02, 0x01, 0x06])).disposition == .complete)

        // A smaller limit: a single report longer than it is cut and marked truncated.
        var small = AdvertisementAccumulator(limits: .init(maximumDataLength: 10))
        let u = small.add(Self.ext(Self.a, data: Self.payload(20, fill: 1)))
        #expect(u.disposition == .truncated)
        #expect(u.advertisement?.advertisingData?.encodedLength == 10)
        // ...also when it says more is to come: its chain is then discarded.
        #expect(small.add(Self.ext(Self.b, status: 1, data: Self.payload(20, fill: 1))).disposition == .truncated)
        #expect(small.add(Self.ext(Self.b, status: 0, data: [0x02, 0x01, 0x06])).disposition == .discarded)
        // A report of the other kind clears the discarding.
        #expect(small.add(Self.ext(Self.a, status: 1, data: Self.payload(20, fill: 1))).disposition == .truncated)
        #expect(small.add(Self.ext(Self.a, scanResponse: true, data: [0x02, 0x0A, 0x00])).disposition == .complete)
        #expect(small.add(Self.ext(Self.a, data: [0x02, 0x01, 0x06])).disposition == .complete)
    }

    // MARK: Bounds

    @Test("the least recently updated advertisement is evicted to make room")
    func advertiserBound() throws {
        var acc = AdvertisementAccumulator(limits: .init(maximumAdvertisers: 2))
        _ = acc.add(Self.ext(Self.a, data: [0x02, 0x01, 0x06]))
        _ = acc.add(Self.ext(Self.b, data: [0x02, 0x01, 0x06]))
        _ = acc.add(Self.ext(Self.a, data: [0x02, 0x01, 0x04]))   // A is now more recent than B
        let bKey = AdvertiserKey(address: Self.b, addressType: .random, advertisingSID: 1)
        let evictedB = try #require(acc[bKey])
        let u = acc.add(Self.ext(Self.c, data: [0x02, 0x01, 0x06]))
        #expect(u.disposition == .complete)
        #expect(u.evictions == [.advertisement(evictedB)])
        #expect(acc.count == 2)
        #expect(acc[bKey] == nil)
        #expect(acc.advertisements.map(\.address) == [Self.a, Self.c])
        // Updating a kept advertiser evicts nothing.
        #expect(acc.add(Self.ext(Self.a, data: [])).evictions.isEmpty)
    }

    @Test("the least recently extended chain is dropped to make room; its tail is discarded")
    func chainBound() throws {
        var acc = AdvertisementAccumulator(limits: .init(maximumPendingChains: 2))
        _ = acc.add(Self.ext(Self.a, status: 1, data: [0x02, 0x01, 0x06]))
        _ = acc.add(Self.ext(Self.b, status: 1, data: [0x02, 0x01]))
        _ = acc.add(Self.ext(Self.a, status: 1, data: [0x05, 0x09]))   // A extended: B is the oldest
        let u = acc.add(Self.ext(Self.c, status: 1, data: [0x02]))
        #expect(u.disposition == .pending)
        #expect(u.evictions == [.pendingChain(AdvertiserKey(address: Self.b, addressType: .random, advertisingSID: 1),
                                              isScanResponse: false, octets: 2)])
        #expect(acc.pendingChainCount == 2)
        // B's last fragment is not taken for a payload of its own.
        #expect(acc.add(Self.ext(Self.b, status: 0, data: [0x06])).disposition == .discarded)
        #expect(acc.count == 0)
        // A completes normally.
        let a = try #require(acc.add(Self.ext(Self.a, status: 0, data: [0x41, 0x42, 0x43, 0x44])).advertisement)
        #expect(a.localName?.string == "ABCD")
        #expect(a.flags == [.leGeneralDiscoverableMode, .brEDRNotSupported])
    }

    @Test("removing forgets the advertisement and its open chain")
    func removal() throws {
        var acc = AdvertisementAccumulator(limits: .init(maximumAdvertisers: 0, maximumPendingChains: -3, maximumDataLength: 0))
        #expect(acc.limits == .init(maximumAdvertisers: 1, maximumPendingChains: 1, maximumDataLength: 1))
        acc = AdvertisementAccumulator()
        _ = acc.add(Self.ext(Self.a, data: [0x02, 0x01, 0x06]))
        _ = acc.add(Self.ext(Self.a, scanResponse: true, status: 1, data: [0x05]))
        let key = AdvertiserKey(address: Self.a, addressType: .random, advertisingSID: 1)
        #expect(acc.removeAdvertisement(for: key)?.flags != nil)
        #expect(acc.count == 0)
        #expect(acc.pendingChainCount == 0)
        _ = acc.add(Self.ext(Self.b, data: []))
        acc.removeAll()
        #expect(acc.advertisements.isEmpty)
    }
}
