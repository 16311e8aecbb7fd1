import Testing
import BLECore
@testable import HCI

/// Joining extended advertising fragments by address, address type and Advertising_SID, and the
/// bounds on a chain that never ends (Core v5.4, Vol 4, Part E, 7.7.65.13; Vol 6, Part B, 2.3.4).
@Suite("AdvertisingChainReassembler")
struct AdvertisingChainReassemblerTests {
    static let a = BluetoothAddress(0xC1_0000_0000_0A)
    static let b = BluetoothAddress(0xC1_0000_0000_0B)

    /// An extended report (connectable, secondary PHY LE 2M). `status`: 0 complete, 1 more to
    /// come, 2 truncated, 3 reserved (Event_Type bits 5...6).
    static func ext(_ address: BluetoothAddress, sid: UInt8 = 1, status: UInt16 = 0, scanResponse: Bool = false,
                    addressType: LEAddressType = .random, _ data: [UInt8]) -> LEExtendedAdvertisingReport {
        LEExtendedAdvertisingReport(eventType: .init(rawValue: 0x0001 | (scanResponse ? 0x0008 : 0) | status << 5),
                                    addressType: addressType, address: address, primaryPHY: 0x01, secondaryPHY: 0x02,
                                    advertisingSID: sid, txPower: 127, rssi: -50, data: data)
    }

    /// A Complete Local Name AD structure (type 0x09) for `name`.
    static func name(_ name: String) -> [UInt8] { [UInt8(name.utf8.count + 1), 0x09] + Array(name.utf8) }

    static func key(_ address: BluetoothAddress, sid: UInt8? = 1, type: LEAddressType = .random) -> AdvertiserKey {
        AdvertiserKey(address: address, addressType: type, advertisingSID: sid)
    }

    @Test("two interleaved chains, of two addresses and of two SIDs of one address, join apart")
    func interleavedChains() {
        var chains = AdvertisingChainReassembler()
        // "Alpha" is split across a's SID 1 fragments, "Beta" across b's, "Gamma" across a's SID 2.
        let alpha = Self.name("Alpha"), beta = Self.name("Beta"), gamma = Self.name("Gamma")
        #expect(chains.add(Self.ext(Self.a, status: 1, Array(alpha.prefix(3)))).disposition == .pending)
        #expect(chains.add(Self.ext(Self.b, status: 1, Array(beta.prefix(2)))).disposition == .pending)
        #expect(chains.add(Self.ext(Self.a, sid: 2, status: 1, Array(gamma.prefix(4)))).disposition == .pending)
        #expect(chains.pendingChainCount == 3)
        let b2 = chains.add(Self.ext(Self.b, Array(beta.dropFirst(2))))
        #expect(b2.disposition == .complete)
        #expect(b2.payload == .init(key: Self.key(Self.b), isScanResponse: false, data: beta, isTruncated: false, fragments: 2))
        let a2 = chains.add(Self.ext(Self.a, status: 1, Array(alpha.dropFirst(3).prefix(2))))
        #expect(a2.disposition == .pending)
        #expect(a2.fragment == 2)
        let g2 = chains.add(Self.ext(Self.a, sid: 2, Array(gamma.dropFirst(4))))
        #expect(g2.payload?.data == gamma)
        #expect(g2.payload?.key == Self.key(Self.a, sid: 2))
        let a3 = chains.add(Self.ext(Self.a, Array(alpha.dropFirst(5))))
        #expect(a3.payload?.data == alpha)
        #expect(a3.payload?.fragments == 3)
        #expect(AdvertisingData(decoding: a3.payload?.data ?? []).localName?.string == "Alpha")
        #expect(chains.pendingChainCount == 0)
    }

    @Test("same address, other address type or SID: a fragment never completes someone else's chain")
    func keyMixups() {
        var chains = AdvertisingChainReassembler()
        #expect(chains.add(Self.ext(Self.a, sid: 1, status: 1, [0x05, 0x09, 0x41])).disposition == .pending)
        // Public a, and random a with SID 3: strangers to random a SID 1; each stands alone.
        let publicA = chains.add(Self.ext(Self.a, sid: 1, addressType: .public, [0x02, 0x01, 0x06]))
        #expect(publicA.payload == .init(key: Self.key(Self.a, type: .public), isScanResponse: false, data: [0x02, 0x01, 0x06],
                                         isTruncated: false, fragments: 1))
        #expect(publicA.cutShort == nil)
        let sid3 = chains.add(Self.ext(Self.a, sid: 3, [0x02, 0x01, 0x04]))
        #expect(sid3.payload?.fragments == 1)
        #expect(sid3.cutShort == nil)
        // No ADI (SID 0xFF) shares the legacy key, not SID 1's.
        let noADI = chains.add(Self.ext(Self.a, sid: 0xFF, [0x02, 0x01, 0x02]))
        #expect(noADI.payload?.key == Self.key(Self.a, sid: nil))
        #expect(chains.isPending(Self.key(Self.a)))
        let end = chains.add(Self.ext(Self.a, sid: 1, [0x42, 0x43, 0x44]))
        #expect(end.payload?.data == [0x05, 0x09, 0x41, 0x42, 0x43, 0x44])
    }

    @Test("a legacy report never continues a chain of the key it shares: the chain ends, truncated")
    func legacyReportStandsAlone() {
        var chains = AdvertisingChainReassembler()
        #expect(chains.add(Self.ext(Self.a, sid: 0xFF, status: 1, [0x05, 0x09, 0x41])).disposition == .pending)
        let legacy = chains.add(LEAdvertisingReport(eventType: .advInd, addressType: .random, address: Self.a,
                                                    data: [0x02, 0x01, 0x06], rssi: -60))
        #expect(legacy.cutShort == .init(key: Self.key(Self.a, sid: nil), isScanResponse: false, data: [0x05, 0x09, 0x41],
                                         isTruncated: true, fragments: 1))
        #expect(legacy.payload?.data == [0x02, 0x01, 0x06])
        #expect(legacy.disposition == .complete)
        #expect(chains.pendingChainCount == 0)
    }

    @Test("Data Status truncated or reserved ends a chain, joined so far and marked truncated")
    func truncatedChain() {
        var chains = AdvertisingChainReassembler()
        _ = chains.add(Self.ext(Self.a, status: 1, [0x06, 0x09, 0x41, 0x42]))
        let cut = chains.add(Self.ext(Self.a, status: 2, [0x43, 0x44]))
        #expect(cut.disposition == .truncated)
        #expect(cut.payload == .init(key: Self.key(Self.a), isScanResponse: false, data: [0x06, 0x09, 0x41, 0x42, 0x43, 0x44],
                                     isTruncated: true, fragments: 2))
        let reserved = chains.add(Self.ext(Self.b, status: 3, [0x02, 0x01, 0x06]))
        #expect(reserved.disposition == .truncated)
        #expect(reserved.payload?.isTruncated == true)
        #expect(chains.pendingChainCount == 0)
    }

    @Test("a chain whose more data never ends: cut at the fragment bound, the rest discarded, no memory kept")
    func endlessChainFragmentBound() {
        var chains = AdvertisingChainReassembler(limits: .init(maximumFragments: 8))
        // Zero-length fragments never reach the size bound; the fragment count does.
        for n in 1...7 {
            let outcome = chains.add(Self.ext(Self.a, status: 1, n == 1 ? [0x02, 0x01, 0x06] : []))
            #expect(outcome.disposition == .pending)
            #expect(outcome.fragment == n)
        }
        let eighth = chains.add(Self.ext(Self.a, status: 1, []))
        #expect(eighth.disposition == .truncated)
        #expect(eighth.payload == .init(key: Self.key(Self.a), isScanResponse: false, data: [0x02, 0x01, 0x06],
                                        isTruncated: true, fragments: 8))
        for _ in 0..<1000 {
            #expect(chains.add(Self.ext(Self.a, status: 1, [0xEE, 0xEE])).disposition == .discarded)
        }
        #expect(chains.pendingChainCount == 0)
        #expect(chains.pendingOctets == 0)
        // Its end arrives: discarded too. The next chain starts clean.
        #expect(chains.add(Self.ext(Self.a, [0xEE])).disposition == .discarded)
        let next = chains.add(Self.ext(Self.a, Self.name("Next")))
        #expect(next.payload?.data == Self.name("Next"))
    }

    @Test("a chain that outgrows 1650 octets keeps what fits, and none of its tail reaches the next chain")
    func endlessChainSizeBound() {
        var chains = AdvertisingChainReassembler()
        var outcome = chains.add(Self.ext(Self.a, status: 1, Array(repeating: 0xAA, count: 229)))
        var fragments = 1
        while outcome.disposition == .pending {
            outcome = chains.add(Self.ext(Self.a, status: 1, Array(repeating: 0xAA, count: 229)))
            fragments += 1
        }
        #expect(outcome.disposition == .truncated)
        #expect(fragments == 8)  // 7 x 229 = 1603, the 8th brings it to 1650
        #expect(outcome.payload?.data.count == 1650)
        #expect(chains.add(Self.ext(Self.a, status: 1, [0xAA])).disposition == .discarded)
        #expect(chains.add(Self.ext(Self.a, [0xAA])).disposition == .discarded)
        let next = chains.add(Self.ext(Self.a, Self.name("Clean")))
        #expect(next.payload?.data == Self.name("Clean"))
    }

    @Test("a chain whose last fragment was lost: the next chain, after the gap bound, starts afresh")
    func lostEndThenNextChain() {
        var chains = AdvertisingChainReassembler()
        let ms: (Int64) -> Duration = { .milliseconds($0) }
        _ = chains.add(Self.ext(Self.a, status: 1, [0x06, 0x09, 0x4F, 0x4C]), at: ms(1000))   // "OL" of "OLD!"
        _ = chains.add(Self.ext(Self.a, status: 1, [0x44]), at: ms(1002))
        // The fragment that ends it never comes. 100 ms later, the set's next event:
        let first = chains.add(Self.ext(Self.a, status: 1, [0x05, 0x09, 0x4E]), at: ms(1102))
        #expect(first.disposition == .pending)
        #expect(first.fragment == 1)
        #expect(first.cutShort == .init(key: Self.key(Self.a), isScanResponse: false, data: [0x06, 0x09, 0x4F, 0x4C, 0x44],
                                        isTruncated: true, fragments: 2))
        let last = chains.add(Self.ext(Self.a, [0x45, 0x57, 0x21]), at: ms(1103))
        #expect(last.payload?.data == Self.name("NEW!"))
        // Within the gap (20 ms by default), fragments join; time going backwards is not late.
        _ = chains.add(Self.ext(Self.b, status: 1, [0x03, 0x09]), at: ms(2000))
        _ = chains.add(Self.ext(Self.b, status: 1, [0x41]), at: ms(2019))
        let joined = chains.add(Self.ext(Self.b, [0x42]), at: ms(1500))
        #expect(joined.payload?.data == [0x03, 0x09, 0x41, 0x42])
    }

    @Test("a discarding marker lapses after the gap bound, so a later chain is not lost with it")
    func markerLapses() {
        var chains = AdvertisingChainReassembler(limits: .init(maximumFragments: 2))
        _ = chains.add(Self.ext(Self.a, status: 1, [0x02]), at: .milliseconds(0))
        #expect(chains.add(Self.ext(Self.a, status: 1, [0x01]), at: .milliseconds(1)).disposition == .truncated)
        #expect(chains.add(Self.ext(Self.a, status: 1, [0xEE]), at: .milliseconds(2)).disposition == .discarded)
        let later = chains.add(Self.ext(Self.a, Self.name("Later")), at: .milliseconds(500))
        #expect(later.disposition == .complete)
        #expect(later.payload?.data == Self.name("Later"))
    }

    @Test("a scan response while the advertising data's chain is open ends that chain, truncated")
    func otherKindCutsShort() {
        var chains = AdvertisingChainReassembler()
        _ = chains.add(Self.ext(Self.a, status: 1, [0x02, 0x01]))
        let response = chains.add(Self.ext(Self.a, scanResponse: true, Self.name("SR")))
        #expect(response.cutShort == .init(key: Self.key(Self.a), isScanResponse: false, data: [0x02, 0x01],
                                           isTruncated: true, fragments: 1))
        #expect(response.payload?.isScanResponse == true)
        #expect(response.payload?.data == Self.name("SR"))
    }

    @Test("more chains than the bound: the oldest is dropped, its later fragments discarded")
    func pendingChainBound() {
        var chains = AdvertisingChainReassembler(limits: .init(maximumPendingChains: 2))
        _ = chains.add(Self.ext(Self.a, sid: 1, status: 1, [0x01]))
        _ = chains.add(Self.ext(Self.a, sid: 2, status: 1, [0x02]))
        let third = chains.add(Self.ext(Self.a, sid: 3, status: 1, [0x03]))
        #expect(third.evicted == [.init(key: Self.key(Self.a, sid: 1), isScanResponse: false, data: [0x01], isTruncated: true, fragments: 1)])
        #expect(chains.pendingChainCount == 2)
        #expect(chains.add(Self.ext(Self.a, sid: 1, [0x09])).disposition == .discarded)
        #expect(chains.add(Self.ext(Self.a, sid: 2, [0x22])).payload?.data == [0x02, 0x22])
    }

    @Test("finish hands back the chains still open, truncated, oldest first")
    func finishReturnsOpenChains() {
        var chains = AdvertisingChainReassembler()
        _ = chains.add(Self.ext(Self.b, status: 1, [0x0B]))
        _ = chains.add(Self.ext(Self.a, status: 1, [0x0A]))
        let open = chains.finish()
        #expect(open.map(\.key) == [Self.key(Self.b), Self.key(Self.a)])
        #expect(open.allSatisfy { $0.isTruncated })
        #expect(chains.pendingChainCount == 0)
    }
}
