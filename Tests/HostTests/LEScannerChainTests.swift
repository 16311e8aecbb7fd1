import BLECore
import HCI
@testable import Host
import Synchronization
import Testing

/// The scanner joins extended advertising fragments with ``AdvertisingChainReassembler``, the
/// same joining as the capture dissector, bounded in size, fragments and time (Core v5.4, Vol 4,
/// Part E, 7.7.65.13; Vol 6, Part B, 2.3.4).
@Suite("LEScanner: extended advertising chains", .timeLimit(.minutes(1)))
struct LEScannerChainTests {
    static let a = BluetoothAddress(0xC1_0000_0000_0A)
    static let b = BluetoothAddress(0xC1_0000_0000_0B)

    /// The script of an extended passive scan with no duplicate filter, then `events`.
    static func script(_ events: [[UInt8]]) throws -> [ScriptedHCITransport.Step] {
        try [
            // LE Set Extended Scan Parameters: public, policy 0x00, LE 1M; passive, 0x0060, 0x0030
            .expect(h4: "01 41 20 08 00 00 01 00 6000 3000"),
            .inject(h4: "04 0e 04 01 41 20 00"),
            // LE Set Extended Scan Enable: Enable, Filter_Duplicates 0x00, Duration 0, Period 0
            .expect(h4: "01 42 20 06 01 00 0000 0000"),
            .inject(h4: "04 0e 04 01 42 20 00"),
        ] + events.map { try .inject(h4: "04 " + Hex.encode($0, separator: " ")) }
    }

    /// An LE Extended Advertising Report event with one report (connectable, random address,
    /// LE 2M secondary PHY, RSSI -50 dBm). `status`: 0 complete, 1 more to come, 2 truncated.
    static func event(_ address: BluetoothAddress, sid: UInt8 = 1, status: UInt16 = 0, _ data: [UInt8]) -> [UInt8] {
        let report = LEExtendedAdvertisingReport(eventType: .init(rawValue: 0x0001 | status << 5), addressType: .random,
                                                 address: address, primaryPHY: 0x01, secondaryPHY: 0x02, advertisingSID: sid,
                                                 txPower: 127, rssi: -50, data: data)
        return HCIEvent.leMeta(.extendedAdvertisingReport(.init(reports: [report]))).encoded
    }

    /// A Complete Local Name AD structure (type 0x09) for `name`.
    static func name(_ name: String) -> [UInt8] { [UInt8(name.utf8.count + 1), 0x09] + Array(name.utf8) }

    /// Runs a scan over `events` and returns every discovery until the transport finishes.
    /// `now` is the scanner's clock; by default it stands still, so a loaded machine's pauses
    /// between two injected fragments never pass for the gap bound.
    static func discoveries(_ events: [[UInt8]], now: @escaping @Sendable () -> Duration = { .zero }) async throws -> [LEDiscovery] {
        let transport = ScriptedHCITransport(script: try script(events))
        let flow = patientFlow(transport)
        let scanner = LEScanner(flow: flow, capabilities: extendedCapabilities(), now: now)
        let stream = try await scanner.start(LEScanParameters())
        await eventually("every report injected") { transport.isFinished }
        transport.finish()
        var found: [LEDiscovery] = []
        for await discovery in stream { found.append(discovery) }
        expectScriptPlayed(transport)
        return found
    }

    @Test("interleaved chains of two advertisers, and two SIDs of one, are discovered joined, each with its own name")
    func interleavedChains() async throws {
        let alpha = Self.name("Alpha"), beta = Self.name("Beta"), gamma = Self.name("Gamma")
        let found = try await Self.discoveries([
            Self.event(Self.a, status: 1, Array(alpha.prefix(3))),
            Self.event(Self.b, status: 1, Array(beta.prefix(2))),
            Self.event(Self.a, sid: 2, status: 1, Array(gamma.prefix(4))),
            Self.event(Self.b, Array(beta.dropFirst(2))),
            Self.event(Self.a, Array(alpha.dropFirst(3))),
            Self.event(Self.a, sid: 2, Array(gamma.dropFirst(4))),
        ])
        #expect(found.map(\.localName) == ["Beta", "Alpha", "Gamma"])
        #expect(found.map(\.advertisement.advertisingSID) == [1, 1, 2])
        #expect(found.allSatisfy { !$0.advertisement.isAdvertisingDataTruncated })
    }

    @Test("a truncated chain is discovered joined so far, marked truncated")
    func truncatedChain() async throws {
        let found = try await Self.discoveries([
            Self.event(Self.a, status: 1, [0x02, 0x01, 0x06, 0x06, 0x09, 0x41]),
            Self.event(Self.a, status: 2, [0x42]),
        ])
        let only = try #require(found.first)
        #expect(found.count == 1)
        #expect(only.advertisement.isAdvertisingDataTruncated)
        #expect(only.advertisement.advertisingData?.encoded == [0x02, 0x01, 0x06, 0x06, 0x09, 0x41, 0x42])
    }

    @Test("a chain whose more data never ends is discovered once, cut at 64 fragments; the next advertiser is not held up")
    func endlessChain() async throws {
        let endless = (0..<200).map { Self.event(Self.a, status: 1, $0 == 0 ? [0x02, 0x01, 0x06] : [0x03, 0xFF, 0x4C]) }
        let found = try await Self.discoveries(endless + [Self.event(Self.b, Self.name("Next"))])
        #expect(found.count == 2)
        #expect(found.first?.address == Self.a)
        #expect(found.first?.advertisement.isAdvertisingDataTruncated == true)
        #expect(found.first?.advertisement.advertisingData?.encoded.count == 3 + 63 * 3)
        #expect(found.last?.localName == "Next")
    }

    @Test("a lost last fragment: after the gap bound, the next chain starts afresh, the old one reported truncated")
    func lostEndThenNextChain() async throws {
        // Report times, one per event: the second chain starts 100 ms after the first stopped.
        let times: [Int64] = [0, 1, 101, 102]
        let calls = Mutex(0)
        let now: @Sendable () -> Duration = {
            .milliseconds(calls.withLock { n in defer { n += 1 }; return times[min(n, times.count - 1)] })
        }
        let found = try await Self.discoveries([
            Self.event(Self.a, status: 1, Array(Self.name("Old").prefix(3))),
            Self.event(Self.a, status: 1, [0x6C]),
            Self.event(Self.a, status: 1, Array(Self.name("New").prefix(2))),
            Self.event(Self.a, Array(Self.name("New").dropFirst(2))),
        ], now: now)
        #expect(found.count == 2)
        #expect(found.first?.advertisement.isAdvertisingDataTruncated == true)
        #expect(found.first?.advertisement.advertisingData?.encoded == Array(Self.name("Old").prefix(4)))
        #expect(found.last?.localName == "New")
        #expect(found.last?.advertisement.isAdvertisingDataTruncated == false)
    }
}
