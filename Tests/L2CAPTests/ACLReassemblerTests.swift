import Testing
import BLECore
import HCI
@testable import L2CAP

@Suite("ACL reassembly")
struct ACLReassemblerTests {
    /// An ACL Data packet from its fields.
    func acl(_ handle: UInt16, _ pb: HCIACLDataPacket.PacketBoundary, _ data: [UInt8]) -> HCIACLDataPacket {
        HCIACLDataPacket(handle: handle, packetBoundary: pb, data: data)
    }

    // Real packets: nexxtender_charger_android_gatt_longwrite_indications_extadv.cfa, frames
    // 960-962 (charger -> phone), the charger's Pairing Public Key in three ACL fragments of at
    // most 27 octets, as a controller with LE_ACL_Data_Packet_Length 27 delivers it.
    //   04 20 1b 00 | 41 00 06 00 0c 6a cc ...   handle 0x0004, PB 0b10 (first), 27 octets:
    //                                            L2CAP Length 65, CID 0x0006, SMP code 0x0C, X...
    //   04 10 1b 00 | 28 38 af ...               handle 0x0004, PB 0b01 (continuing), 27 octets
    //   04 10 0f 00 | bf 35 09 ... 7a 27         handle 0x0004, PB 0b01 (continuing), 15 octets
    static let publicKeyFragments = [
        "04 20 1b 00 41 00 06 00 0c 6a cc 17 ee 9c 6a b8 ac ca c8 d1 1e 24 93 97 51 6b af f0 c6 24 66",
        "04 10 1b 00 28 38 af 60 8e c9 3b 33 62 c6 59 bd f6 f4 49 71 8d f2 3f a8 db 91 1f 1e dd f8 6a",
        "04 10 0f 00 bf 35 09 e3 0f 02 98 3f 08 6d 88 fa 0c 7a 27",
    ]

    @Test("real capture: three fragments give one 69-octet SMP PDU")
    func realPublicKey() throws {
        var reassembler = ACLReassembler()
        let packets = try Self.publicKeyFragments.map { try HCIACLDataPacket(decoding: octets($0)) }
        #expect(packets.map(\.packetBoundary) == [.firstFlushable, .continuing, .continuing])

        #expect(reassembler.push(packets[0]).isAwaitingMoreFragments)
        #expect(reassembler.isReassembling(handle: 0x0004))
        #expect(reassembler.push(packets[1]).isAwaitingMoreFragments)
        let outcome = reassembler.push(packets[2])
        #expect(outcome.diagnostics.isEmpty)
        let pdu = try #require(outcome.pdu)
        #expect(pdu.handle == 0x0004)
        #expect(pdu.frame.channelID == .smp)
        #expect(pdu.frame.payload.count == 65)
        #expect(pdu.frame.payload.first == 0x0C)     // Pairing Public Key
        #expect(pdu.frame.payload.last == 0x27)      // last octet of Public Key Y
        #expect(pdu.frame.encoded == packets.flatMap(\.data))
        #expect(reassembler.pendingHandleCount == 0)
    }

    @Test("real capture: a PDU in one packet is delivered at once")
    func realSinglePacket() throws {
        // cfa frame 549: handle 0x0002, PB 0b10, 16 octets: L2CAP Length 12, CID 0x0005,
        // Connection Parameter Update Request.
        let packet = try HCIACLDataPacket(decoding: octets("02 20 10 00 0c 00 05 00 12 14 08 00 24 00 24 00 00 00 c8 00"))
        var reassembler = ACLReassembler()
        let outcome = reassembler.push(packet)
        #expect(outcome == ACLReassemblyOutcome(pdu: ACLReassembledPDU(
            handle: 0x0002,
            frame: L2CAPBasicFrame(channelID: .leSignaling, payload: octets("12 14 08 00 24 00 24 00 00 00 c8 00")))))
        #expect(reassembler.pendingHandleCount == 0)
    }

    @Test("a continuation with no start is dropped with a diagnostic, and later PDUs are unharmed")
    func continuationWithoutStart() {
        var reassembler = ACLReassembler()
        let outcome = reassembler.push(acl(0x0040, .continuing, [1, 2, 3]))
        #expect(outcome == ACLReassemblyOutcome(diagnostics: [.continuationWithoutStart(handle: 0x0040, octets: 3)]))
        #expect(outcome.diagnostics.first?.description == "handle 0x0040: continuation fragment without a start, 3 octets dropped")
        let next = reassembler.push(acl(0x0040, .firstFlushable, octets("01 00 04 00 ff")))
        #expect(next.pdu?.frame == L2CAPBasicFrame(channelID: .att, payload: [0xFF]))
        #expect(next.diagnostics.isEmpty)
    }

    @Test("a start while a PDU is incomplete: the old one is reported abandoned, the new one kept")
    func startWhileIncomplete() throws {
        var reassembler = ACLReassembler()
        // Length 10, CID 4, only 2 of 10 payload octets.
        #expect(reassembler.push(acl(0x0040, .firstFlushable, octets("0a 00 04 00 01 02"))).isAwaitingMoreFragments)
        // A new PDU starts: Length 3, CID 4, 1 of 3 octets so far.
        let interrupted = reassembler.push(acl(0x0040, .firstFlushable, octets("03 00 04 00 0a")))
        #expect(interrupted == ACLReassemblyOutcome(diagnostics: [
            .incompletePDUAbandoned(handle: 0x0040, expectedOctets: 14, receivedOctets: 6)]))
        // The new PDU completes normally.
        let done = reassembler.push(acl(0x0040, .continuing, octets("01 00")))
        #expect(done == ACLReassemblyOutcome(pdu: ACLReassembledPDU(
            handle: 0x0040, frame: L2CAPBasicFrame(channelID: .att, payload: [0x0A, 0x01, 0x00]))))
    }

    @Test("a start that abandons an incomplete PDU and is itself complete gives both")
    func abandonAndComplete() {
        var reassembler = ACLReassembler()
        _ = reassembler.push(acl(0x0001, .firstFlushable, [0x05]))   // header still unknown
        let outcome = reassembler.push(acl(0x0001, .firstFlushable, octets("01 00 06 00 0b")))
        #expect(outcome.pdu?.frame == L2CAPBasicFrame(channelID: .smp, payload: [0x0B]))
        #expect(outcome.diagnostics == [.incompletePDUAbandoned(handle: 0x0001, expectedOctets: nil, receivedOctets: 1)])
        #expect(outcome.diagnostics.first?.description
                == "handle 0x0001: incomplete L2CAP PDU abandoned, 1 octets received before its header was complete")
    }

    @Test("fragments beyond the declared length: the PDU is delivered, the excess reported")
    func excessOctets() {
        var reassembler = ACLReassembler()
        // In one packet: Length 1 but 3 payload octets.
        let single = reassembler.push(acl(0x0002, .firstFlushable, octets("01 00 04 00 aa bb cc")))
        #expect(single.pdu?.frame == L2CAPBasicFrame(channelID: .att, payload: [0xAA]))
        #expect(single.diagnostics == [.excessOctets(handle: 0x0002, pduOctets: 5, excessOctets: 2)])
        // Across packets: Length 4, the continuation brings 6 octets where 2 were missing.
        _ = reassembler.push(acl(0x0002, .firstFlushable, octets("04 00 04 00 01 02")))
        let multi = reassembler.push(acl(0x0002, .continuing, octets("03 04 05 06 07 08")))
        #expect(multi.pdu?.frame == L2CAPBasicFrame(channelID: .att, payload: [1, 2, 3, 4]))
        #expect(multi.diagnostics == [.excessOctets(handle: 0x0002, pduOctets: 8, excessOctets: 4)])
        #expect(reassembler.pendingHandleCount == 0)
    }

    @Test("a start fragment shorter than the basic header: collect until the header is known")
    func shortStartFragment() {
        var reassembler = ACLReassembler()
        #expect(reassembler.push(acl(0x0003, .firstFlushable, [])).isAwaitingMoreFragments)       // 0 octets
        #expect(reassembler.push(acl(0x0003, .continuing, [0x02])).isAwaitingMoreFragments)       // Length low
        #expect(reassembler.push(acl(0x0003, .continuing, [0x00, 0x04])).isAwaitingMoreFragments) // Length high, CID low
        #expect(reassembler.push(acl(0x0003, .continuing, [0x00, 0x0A])).isAwaitingMoreFragments) // CID high, 1 of 2
        let outcome = reassembler.push(acl(0x0003, .continuing, [0x01]))
        #expect(outcome == ACLReassemblyOutcome(pdu: ACLReassembledPDU(
            handle: 0x0003, frame: L2CAPBasicFrame(channelID: .att, payload: [0x0A, 0x01]))))
    }

    @Test("a PDU whose Length exceeds the limit is dropped with its continuations; the next one is fine")
    func pduTooLong() {
        var reassembler = ACLReassembler(configuration: .init(maximumPayloadLength: 23))
        // Length 24 > 23, 2 of 24 octets here, 22 to come in two continuations.
        let start = reassembler.push(acl(0x0040, .firstFlushable, octets("18 00 04 00 01 02")))
        #expect(start == ACLReassemblyOutcome(diagnostics: [.pduTooLong(handle: 0x0040, length: 24, limit: 23)],
                                              oversized: ACLOversizedPDU(handle: 0x0040, channelID: .att, length: 24, leadingPayload: [0x01, 0x02])))
        #expect(start.diagnostics.first?.description
                == "handle 0x0040: L2CAP Length 24 exceeds the limit of 23, PDU dropped")
        let more = reassembler.push(acl(0x0040, .continuing, [UInt8](repeating: 0, count: 20)))
        #expect(more == ACLReassemblyOutcome(diagnostics: [.continuationDiscarded(handle: 0x0040, octets: 20)]))
        let last = reassembler.push(acl(0x0040, .continuing, [0, 0]))
        #expect(last == ACLReassemblyOutcome(diagnostics: [.continuationDiscarded(handle: 0x0040, octets: 2)]))
        #expect(!reassembler.isReassembling(handle: 0x0040))
        // Exactly at the limit is accepted.
        let ok = reassembler.push(acl(0x0040, .firstFlushable, octets("17 00 04 00") + [UInt8](repeating: 7, count: 23)))
        #expect(ok.pdu?.frame.payload.count == 23)
        #expect(ok.diagnostics.isEmpty)
        // A header that only becomes known in a continuation is checked too.
        _ = reassembler.push(acl(0x0041, .firstFlushable, [0xFF]))
        let late = reassembler.push(acl(0x0041, .continuing, [0xFF, 0x04, 0x00]))
        #expect(late == ACLReassemblyOutcome(diagnostics: [.pduTooLong(handle: 0x0041, length: 65535, limit: 23)],
                                             oversized: ACLOversizedPDU(handle: 0x0041, channelID: .att, length: 65535, leadingPayload: [])))
    }

    @Test("a PDU dropped as too long keeps its channel and its first 8 payload octets, so a host can still answer it")
    func oversizedPDUStartKept() {
        var reassembler = ACLReassembler(configuration: .init(maximumPayloadLength: 23))
        // LE signaling, Length 600: Connection Parameter Update Request, Identifier 0x09, 12 octets here.
        let start = reassembler.push(acl(0x0040, .firstFlushable, octets("58 02 05 00 12 09 54 02 06 00 0c 00 00 00 c8 00")))
        let kept = ACLOversizedPDU(handle: 0x0040, channelID: .leSignaling, length: 600, leadingPayload: octets("12 09 54 02 06 00 0c 00"))
        #expect(start.oversized == kept)
        #expect(kept.description == "handle 0x0040: LE signaling (0x0005), Length 600, starts 12 09 54 02 06 00 0c 00")
        // A header split across fragments: the payload octets that came with its last part.
        _ = reassembler.push(acl(0x0041, .firstFlushable, [0x58]))
        let late = reassembler.push(acl(0x0041, .continuing, octets("02 05 00 12 09")))
        #expect(late.oversized == ACLOversizedPDU(handle: 0x0041, channelID: .leSignaling, length: 600, leadingPayload: [0x12, 0x09]))
        // PDUs within the limit, and the continuations of a dropped one, have no start to report.
        #expect(reassembler.push(acl(0x0040, .continuing, [UInt8](repeating: 0, count: 20))).oversized == nil)
        #expect(reassembler.push(acl(0x0042, .firstFlushable, octets("01 00 05 00 01"))).oversized == nil)
    }

    @Test("the default limit accepts the largest PDU the Length field can describe")
    func defaultLimit() {
        var reassembler = ACLReassembler()
        let payload = [UInt8](repeating: 0x5A, count: 65535)
        let frame = L2CAPBasicFrame(channelID: L2CAPChannelID(rawValue: 0x0040), payload: payload)
        let fragmenter = ACLFragmenter(maximumDataLength: 251)!
        var delivered: [ACLReassembledPDU] = []
        for packet in fragmenter.fragment(frame, handle: 0x0010) {
            let outcome = reassembler.push(packet)
            #expect(outcome.diagnostics.isEmpty)
            if let pdu = outcome.pdu { delivered.append(pdu) }
        }
        #expect(delivered == [ACLReassembledPDU(handle: 0x0010, frame: frame)])
    }

    @Test("evicting when full: the PDU touched least recently is abandoned, the new one is kept")
    func evictLeastRecent() {
        var reassembler = ACLReassembler(configuration: .init(maximumPendingHandles: 2, evictsLeastRecentWhenFull: true))
        // Handle 1 starts first, handle 2 next, then handle 1 receives more: handle 2 is the stalest.
        _ = reassembler.push(acl(0x0001, .firstFlushable, octets("03 00 04 00 01")))
        _ = reassembler.push(acl(0x0002, .firstFlushable, octets("02 00 04 00 02")))
        _ = reassembler.push(acl(0x0001, .continuing, [0x11]))
        let third = reassembler.push(acl(0x0003, .firstFlushable, octets("02 00 04 00 03")))
        #expect(third == ACLReassemblyOutcome(diagnostics: [.incompletePDUAbandoned(handle: 0x0002, expectedOctets: 6, receivedOctets: 5)]))
        #expect(reassembler.isReassembling(handle: 0x0003))
        #expect(!reassembler.isReassembling(handle: 0x0002))
        #expect(reassembler.push(acl(0x0003, .continuing, [0x33])).pdu?.frame.payload == [0x03, 0x33])
        #expect(reassembler.push(acl(0x0001, .continuing, [0x12])).pdu?.frame.payload == [0x01, 0x11, 0x12])
        #expect(reassembler.pendingHandleCount == 0)
    }

    @Test("a limit on handles mid-reassembly: a PDU on one more handle is dropped, the others go on")
    func tooManyPendingHandles() {
        var reassembler = ACLReassembler(configuration: .init(maximumPendingHandles: 2))
        _ = reassembler.push(acl(0x0001, .firstFlushable, octets("02 00 04 00 01")))
        _ = reassembler.push(acl(0x0002, .firstFlushable, octets("02 00 04 00 02")))
        let third = reassembler.push(acl(0x0003, .firstFlushable, octets("02 00 04 00 03")))
        #expect(third == ACLReassemblyOutcome(diagnostics: [.tooManyPendingHandles(handle: 0x0003, limit: 2)]))
        // A complete PDU on a further handle needs no buffer and still goes through.
        #expect(reassembler.push(acl(0x0004, .firstFlushable, octets("01 00 04 00 04"))).pdu != nil)
        // The dropped PDU's continuation has no start to join.
        #expect(reassembler.push(acl(0x0003, .continuing, [0x33])).diagnostics
                == [.continuationWithoutStart(handle: 0x0003, octets: 1)])
        // The two in progress complete.
        #expect(reassembler.push(acl(0x0001, .continuing, [0x11])).pdu?.frame.payload == [0x01, 0x11])
        #expect(reassembler.push(acl(0x0002, .continuing, [0x22])).pdu?.frame.payload == [0x02, 0x22])
        #expect(reassembler.pendingHandleCount == 0)
    }

    @Test("reset(handle:) drops what is under way on that handle only")
    func reset() {
        var reassembler = ACLReassembler()
        _ = reassembler.push(acl(0x0001, .firstFlushable, octets("05 00 04 00 01 02")))
        _ = reassembler.push(acl(0x0002, .firstFlushable, octets("02 00 04 00 09")))
        #expect(reassembler.reset(handle: 0x0001) == .incompletePDUAbandoned(handle: 0x0001, expectedOctets: 9, receivedOctets: 6))
        #expect(reassembler.reset(handle: 0x0001) == nil)
        #expect(reassembler.push(acl(0x0001, .continuing, [3, 4, 5])).diagnostics
                == [.continuationWithoutStart(handle: 0x0001, octets: 3)])
        #expect(reassembler.push(acl(0x0002, .continuing, [0x0A])).pdu?.frame.payload == [0x09, 0x0A])
        _ = reassembler.push(acl(0x0003, .firstFlushable, [0x01]))
        reassembler.resetAll()
        #expect(reassembler.pendingHandleCount == 0)
    }

    @Test("handles are independent: interleaved fragments reassemble separately")
    func interleavedHandles() {
        var reassembler = ACLReassembler()
        _ = reassembler.push(acl(0x0001, .firstFlushable, octets("03 00 04 00 a1")))
        _ = reassembler.push(acl(0x0002, .firstNonFlushable, octets("03 00 06 00 b1")))  // PB 0b00 also starts
        _ = reassembler.push(acl(0x0001, .continuing, [0xA2]))
        let b = reassembler.push(acl(0x0002, .continuing, [0xB2, 0xB3]))
        let a = reassembler.push(acl(0x0001, .continuing, [0xA3]))
        #expect(a.pdu == ACLReassembledPDU(handle: 0x0001, frame: L2CAPBasicFrame(channelID: .att, payload: [0xA1, 0xA2, 0xA3])))
        #expect(b.pdu == ACLReassembledPDU(handle: 0x0002, frame: L2CAPBasicFrame(channelID: .smp, payload: [0xB1, 0xB2, 0xB3])))
        #expect(a.pdu?.description == "handle 0x0001: L2CAP ATT (0x0004), 3 octets")
    }

    @Test("every diagnostic names its handle")
    func diagnosticHandles() {
        let all: [ACLReassemblyDiagnostic] = [
            .continuationWithoutStart(handle: 7, octets: 1),
            .incompletePDUAbandoned(handle: 7, expectedOctets: 9, receivedOctets: 5),
            .excessOctets(handle: 7, pduOctets: 5, excessOctets: 1),
            .pduTooLong(handle: 7, length: 100, limit: 23),
            .continuationDiscarded(handle: 7, octets: 4),
            .tooManyPendingHandles(handle: 7, limit: 16),
        ]
        #expect(all.allSatisfy { $0.handle == 7 && $0.description.hasPrefix("handle 0x0007: ") })
    }

    @Test("the two directions of a link are separate streams: one reassembler each")
    func oneReassemblerPerDirection() {
        // The host sends a Prepare Write in two fragments on handle 0x0040 while the controller
        // delivers a notification on the same handle between them.
        let hostStart = acl(0x0040, .firstNonFlushable, octets("06 00 04 00 16 11 00"))
        let notification = acl(0x0040, .firstFlushable, octets("04 00 04 00 1b 15 00 01"))
        let hostRest = acl(0x0040, .continuing, octets("00 00 aa"))

        var sent = ACLReassembler()
        var received = ACLReassembler()
        #expect(sent.push(hostStart).isAwaitingMoreFragments)
        #expect(received.push(notification).pdu?.frame.payload == octets("1b 15 00 01"))
        #expect(sent.push(hostRest).pdu?.frame.payload == octets("16 11 00 00 00 aa"))

        // Fed to one reassembler, the notification abandons the Prepare Write and its tail is orphaned.
        var mixed = ACLReassembler()
        _ = mixed.push(hostStart)
        #expect(mixed.push(notification).diagnostics == [.incompletePDUAbandoned(handle: 0x0040, expectedOctets: 10, receivedOctets: 7)])
        #expect(mixed.push(hostRest).diagnostics == [.continuationWithoutStart(handle: 0x0040, octets: 3)])
    }
}
