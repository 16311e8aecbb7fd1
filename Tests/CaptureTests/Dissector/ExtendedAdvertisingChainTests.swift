import Testing
import BLECore
import HCI
@testable import Capture

/// Extended advertising fragments joined before parsing, in the dissector, with the scanner's own
/// ``AdvertisingChainReassembler`` (Core v5.4, Vol 4, Part E, 7.7.65.13; Vol 6, Part B, 2.3.4).
@Suite("Dissector: extended advertising chains")
struct ExtendedAdvertisingChainTests {
    static let a = BluetoothAddress(0xC1_0000_0000_0A)
    static let b = BluetoothAddress(0xC1_0000_0000_0B)

    /// An LE Extended Advertising Report event record holding one report (connectable, LE 2M
    /// secondary PHY, RSSI -50 dBm). `status`: 0 complete, 1 more to come, 2 truncated.
    /// `ms`: the record's time in milliseconds after the first.
    static func report(_ index: Int, _ address: BluetoothAddress, sid: UInt8 = 1, status: UInt16 = 0, ms: Int64? = nil,
                       _ data: [UInt8]) -> CaptureRecord {
        let report = LEExtendedAdvertisingReport(eventType: .init(rawValue: 0x0001 | status << 5), addressType: .random,
                                                 address: address, primaryPHY: 0x01, secondaryPHY: 0x02, advertisingSID: sid,
                                                 txPower: 127, rssi: -50, data: data)
        let event = HCIEvent.leMeta(.extendedAdvertisingReport(.init(reports: [report]))).encoded
        let time = 1_700_000_000_000_000 + (ms ?? Int64(index)) * 1000
        return CaptureRecord(index: index, timestamp: time, direction: .controllerToHost,
                             packet: .hci(type: .event, payload: event), originalLength: event.count + 1, capturedLength: event.count + 1)
    }

    /// A Complete Local Name AD structure (type 0x09) for `name`.
    static func name(_ name: String) -> [UInt8] { [UInt8(name.utf8.count + 1), 0x09] + Array(name.utf8) }

    static func summaries(_ packet: DissectedPacket) -> [AdvertisingSummary] {
        guard case .event(_, _, let advertising) = packet.content else { return [] }
        return advertising
    }

    @Test("interleaved chains of two advertisers join apart; no fragment is read as AD of its own")
    func interleavedChains() throws {
        // a's chain: Flags, then a Complete Local Name of 8 octets split across the fragments
        // ("Go" + 05 09 45 76 69 6c). Its second fragment, read alone, would be a Complete Local
        // Name "Evil" (05 09 45 76 69 6c): not a's name.
        let aData: [UInt8] = [0x02, 0x01, 0x06, 0x09, 0x09, 0x47, 0x6F] + [0x05, 0x09, 0x45, 0x76, 0x69, 0x6C]
        var dissector = Dissector()
        let packets = [
            Self.report(0, Self.a, status: 1, Array(aData.prefix(7))),
            Self.report(1, Self.b, status: 1, Array(Self.name("Bee").prefix(3))),
            Self.report(2, Self.a, Array(aData.dropFirst(7))),
            Self.report(3, Self.b, Array(Self.name("Bee").dropFirst(3))),
        ].map { dissector.dissect($0) }

        let first = try #require(Self.summaries(packets[0]).first)
        #expect(first.disposition == .pending)
        #expect(first.data.elements.isEmpty)
        #expect(packets[0].line.hasSuffix("C1:00:00:00:00:0A (random) connectable, more data to come -50 dBm: "
                                          + "fragment 1, 7 octets, held for the rest of its chain"))
        let joined = try #require(Self.summaries(packets[2]).first)
        #expect(joined.disposition == .complete)
        #expect(joined.fragments == 2)
        #expect(joined.data.bytes == aData)
        #expect(joined.data.localName?.bytes == [0x47, 0x6F, 0x05, 0x09, 0x45, 0x76, 0x69, 0x6C])
        #expect(packets[2].line.hasSuffix("(joined from 2 fragments)"))
        #expect(!packets[2].line.contains("Complete Local Name \"Evil\""))
        #expect(Self.summaries(packets[3]).first?.data.localName?.string == "Bee")

        let names = Dictionary(uniqueKeysWithValues: dissector.report.devices.map { ($0.address, $0.name) })
        #expect(names[Self.a] == joined.data.localName?.string)
        #expect(names[Self.a] != "Evil")
        #expect(names[Self.b] == "Bee")
        #expect(dissector.report.devices.first { $0.address == Self.a }?.advertisingReports == 2)
    }

    @Test("one address with two SIDs: each chain keeps its own fragments")
    func sidMixup() throws {
        var dissector = Dissector()
        let packets = [
            Self.report(0, Self.a, sid: 1, status: 1, [0x04, 0x09]),
            Self.report(1, Self.a, sid: 2, status: 1, [0x03, 0x09]),
            Self.report(2, Self.a, sid: 2, [0x32, 0x32]),
            Self.report(3, Self.a, sid: 1, [0x31, 0x31, 0x31]),
        ].map { dissector.dissect($0) }
        #expect(Self.summaries(packets[2]).first?.data.localName?.string == "22")
        #expect(Self.summaries(packets[3]).first?.data.localName?.string == "111")
        #expect(packets.allSatisfy { $0.notes.isEmpty })
    }

    @Test("a truncated chain is shown joined so far, marked truncated, in text and JSON")
    func truncatedChain() throws {
        var dissector = Dissector()
        let packets = [
            Self.report(0, Self.a, status: 1, [0x02, 0x01, 0x06, 0x07, 0x09, 0x54]),
            Self.report(1, Self.a, status: 2, [0x72, 0x75]),
        ].map { dissector.dissect($0) }
        let summary = try #require(Self.summaries(packets[1]).first)
        #expect(summary.disposition == .truncated)
        #expect(summary.data.bytes == [0x02, 0x01, 0x06, 0x07, 0x09, 0x54, 0x72, 0x75])
        #expect(packets[1].line.hasSuffix("(joined from 2 fragments, truncated)"))
        let json = packets[1].jsonText
        #expect(json.contains(#""chain":"truncated","fragments":2,"report_data":"7275""#))
        #expect(json.contains(#""data":"0201060709547275""#))
    }

    @Test("a chain whose more data never ends is cut at 64 fragments, and then holds nothing")
    func endlessChain() throws {
        var dissector = Dissector()
        var packets: [DissectedPacket] = []
        for i in 0..<300 { packets.append(dissector.dissect(Self.report(i, Self.a, status: 1, [0x02, 0x01, 0x06]))) }
        #expect(packets[0..<63].allSatisfy { Self.summaries($0).first?.disposition == .pending })
        let cut = try #require(Self.summaries(packets[63]).first)
        #expect(cut.disposition == .truncated)
        #expect(cut.fragments == 64)
        #expect(cut.data.bytes.count == 192)
        #expect(packets[64...].allSatisfy { Self.summaries($0).first?.disposition == .discarded })
        #expect(packets[64].line.hasSuffix("fragment discarded, 3 octets (its chain was cut at a bound)"))
        let held = dissector.controllers.values.map(\.advertising.pendingOctets).reduce(0, +)
        #expect(held == 0)
        // After a pause longer than the gap bound, the advertiser's next chain is clean.
        let next = dissector.dissect(Self.report(300, Self.a, ms: 2000, Self.name("Fresh")))
        #expect(Self.summaries(next).first?.data.bytes == Self.name("Fresh"))
    }

    @Test("a lost last fragment: the old chain is noted truncated and stays out of the next chain")
    func lostEnd() throws {
        var dissector = Dissector()
        let old = dissector.dissect(Self.report(0, Self.a, status: 1, ms: 0, Self.name("Old")))
        #expect(Self.summaries(old).first?.disposition == .pending)
        // 100 ms later: the set's next advertising event, in two fragments.
        let first = dissector.dissect(Self.report(1, Self.a, status: 1, ms: 100, Array(Self.name("New").prefix(2))))
        #expect(first.notes == [#"extended advertising chain of C1:00:00:00:00:0A (random) SID 1 ended without its last fragment (1 fragment, 5 octets, truncated): Complete Local Name "Old""#])
        let last = dissector.dissect(Self.report(2, Self.a, ms: 101, Array(Self.name("New").dropFirst(2))))
        #expect(Self.summaries(last).first?.data.bytes == Self.name("New"))
        #expect(dissector.report.devices.first?.name == "New")
    }

    @Test("malformed input around chains: a cut-short event still joins its good reports")
    func salvagedReportsJoin() throws {
        var dissector = Dissector()
        _ = dissector.dissect(Self.report(0, Self.b, status: 1, [0x05, 0x09, 0x5A]))
        // An event whose second report claims more data than the event holds: the first still counts.
        var bad = Self.report(1, Self.b, [0x5A, 0x5A, 0x5A])
        guard case .hci(_, var payload) = bad.packet else { Issue.record("not HCI"); return }
        payload[3] = 2                              // Num_Reports 2
        payload += [0x00, 0x00, 0x01, 0xFF, 0x31]   // a second report cut short
        payload[1] = UInt8(payload.count - 2)
        bad = CaptureRecord(index: 1, timestamp: bad.timestamp, direction: .controllerToHost,
                            packet: .hci(type: .event, payload: payload), originalLength: payload.count + 1, capturedLength: payload.count + 1)
        let packet = dissector.dissect(bad)
        guard case .malformed = packet.content else { Issue.record("expected malformed, got \(packet.line)"); return }
        #expect(dissector.report.devices.first { $0.address == Self.b }?.name == "ZZZZ")
    }
}
