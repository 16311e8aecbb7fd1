import Foundation
import Testing
import ATT
@testable import Capture

/// The dissector's ATT PDU counts by opcode against tshark's on the same files
/// (`tshark -r FILE -Y btatt -T fields -e btatt.opcode`). tshark comes with `make test`'s
/// Debian packages; a missing tshark fails these tests rather than skipping them.
@Suite("ATT counts against tshark")
struct TsharkCrossCheckTests {
    /// tshark's count of frames with an ATT PDU, by opcode.
    static func tsharkCounts(_ path: String) throws -> [UInt8: Int] {
        try #require(tsharkPath != nil, "tshark is not installed: run `make test`, which installs it with apt-get")
        var counts: [UInt8: Int] = [:]
        for line in try runTshark(["-r", path, "-Y", "btatt", "-T", "fields", "-e", "btatt.opcode"]).split(separator: "\n") {
            let opcode = try #require(UInt8(line.dropFirst(2), radix: 16), "tshark printed \(line)")
            counts[opcode, default: 0] += 1
        }
        return counts
    }

    static func ourCounts(_ path: String) throws -> [UInt8: Int] {
        let (_, dissector) = try dissect(path)
        return Dictionary(uniqueKeysWithValues: dissector.report.attCounts.map { ($0.opcode.rawValue, $0.count) })
    }

    @Test("the demo capture: every opcode count equals tshark's")
    func demo() throws {
        #expect(try Self.ourCounts(DemoCapture.path) == Self.tsharkCounts(DemoCapture.path))
    }

    @Test("the real btsnoop captures: every opcode count equals tshark's",
          .enabled(if: RealCaptures.available, Comment(rawValue: RealCaptures.skipNote)),
          arguments: [RealCaptures.nexxtenderBTSnoop, RealCaptures.nexxtenderCFA])
    func realBTSnoop(_ name: String) throws {
        let path = RealCaptures.path(name)
        let ours = try Self.ourCounts(path)
        let theirs = try Self.tsharkCounts(path)
        #expect(ours == theirs)
        #expect(ours.values.reduce(0, +) > 100)
    }

    @Test("the over-the-air LESC capture: tshark's counts less the one link-layer retransmission",
          .enabled(if: RealCaptures.available, Comment(rawValue: RealCaptures.skipNote)))
    func overTheAir() throws {
        let path = RealCaptures.path(RealCaptures.lescPcapng)
        var theirs = try Self.tsharkCounts(path)
        // The Exchange MTU Request is sent twice with the same SN (the peripheral did not
        // acknowledge it): one ATT PDU, retransmitted by the link layer. tshark counts it twice.
        #expect(theirs[0x02] == 2)
        theirs[0x02] = 1
        #expect(try Self.ourCounts(path) == theirs)
        let (packets, dissector) = try dissect(path)
        #expect(packets.filter { if case .linkLayer(_, .retransmission) = $0.content { true } else { false } }
            .contains { $0.notes.contains { $0.contains("retransmission") } })
        // Every SMP PDU, including the Pairing Public Key whose fragments interleave with the
        // other side's traffic: directions inferred from the connection events keep them apart.
        let smpFrames = try runTshark(["-r", path, "-Y", "btsmp"]).split(separator: "\n").count
        #expect(smpFrames == 9)
        #expect(dissector.report.smpPDUs == smpFrames)
        // The central's and the peripheral's packets, told apart from the timing of each event.
        let pairing = packets.filter { if case .smp? = $0.l2capContent { true } else { false } }
        #expect(pairing.first?.direction == .centralToPeripheral)      // Pairing Request
        #expect(pairing.first?.isDirectionInferred == true)
        #expect(pairing.dropFirst().first?.direction == .peripheralToCentral)  // Pairing Response
    }

    @Test("the legacy pairing capture: SMP before encryption decodes, encrypted payloads are not taken for ATT",
          .enabled(if: RealCaptures.available, Comment(rawValue: RealCaptures.skipNote)))
    func encrypted() throws {
        let (packets, dissector) = try dissect(RealCaptures.path(RealCaptures.legacyPPI))
        #expect(dissector.report.attCounts.isEmpty)
        let smp = packets.compactMap { packet -> String? in
            if case .smp(let pdu)? = packet.l2capContent { return pdu.description } else { return nil }
        }
        #expect(smp.count == 6)
        #expect(smp.first?.hasPrefix("Pairing Request") == true)
        #expect(packets.contains { if case .linkLayer(_, .encrypted) = $0.content { true } else { false } })
    }
}
