import Testing
import BLECore
import HCI
@testable import L2CAP

@Suite("ACL fragmentation")
struct ACLFragmenterTests {
    @Test("fragmenting the real Pairing Public Key as a controller gives the captured packets back")
    func matchesCapture() throws {
        // Reassemble the three real fragments, then cut the PDU again with the controller's
        // LE_ACL_Data_Packet_Length of 27 and its first-packet flag 0b10.
        let captured = try ACLReassemblerTests.publicKeyFragments.map { try HCIACLDataPacket(decoding: octets($0)) }
        var reassembler = ACLReassembler()
        let pdu = try #require(captured.compactMap { reassembler.push($0).pdu }.first)
        let fragmenter = try #require(ACLFragmenter(maximumDataLength: 27))
        let packets = fragmenter.fragment(pdu.frame, handle: pdu.handle, firstPacketBoundary: .firstFlushable)
        #expect(packets == captured)
        #expect(packets.map(\.encoded) == ACLReassemblerTests.publicKeyFragments.map { octets($0) })
    }

    @Test("a host sends PB 0b00 first, then 0b01, each packet at most the limit")
    func hostFlags() throws {
        let frame = L2CAPBasicFrame(channelID: .att, payload: [UInt8](0..<60))   // 64 octets on the link
        let fragmenter = try #require(ACLFragmenter(maximumDataLength: 27))
        let packets = fragmenter.fragment(frame, handle: 0x0040)
        #expect(packets.map(\.data.count) == [27, 27, 10])
        #expect(packets.map(\.packetBoundary) == [.firstNonFlushable, .continuing, .continuing])
        #expect(packets.allSatisfy { $0.handle == 0x0040 && $0.broadcast == 0 })
        #expect(packets.flatMap(\.data) == frame.encoded)
    }

    @Test("a PDU that fits goes in one packet; exact multiples leave no empty packet")
    func boundaries() throws {
        let fragmenter = try #require(ACLFragmenter(maximumDataLength: 8))
        #expect(fragmenter.fragment(pdu: [UInt8](repeating: 1, count: 8), handle: 1).count == 1)
        #expect(fragmenter.fragment(pdu: [UInt8](repeating: 1, count: 16), handle: 1).map(\.data.count) == [8, 8])
        #expect(fragmenter.fragment(pdu: [UInt8](repeating: 1, count: 17), handle: 1).map(\.data.count) == [8, 8, 1])
        let empty = fragmenter.fragment(pdu: [], handle: 1)
        #expect(empty == [HCIACLDataPacket(handle: 1, packetBoundary: .firstNonFlushable, data: [])])
    }

    @Test("fragment then reassemble gives the frame back, for many sizes and limits")
    func roundTrip() throws {
        for limit in [1, 2, 3, 4, 5, 27, 251] {
            let fragmenter = try #require(ACLFragmenter(maximumDataLength: limit))
            for size in [0, 1, 3, 4, 22, 23, 247, 600] {
                let frame = L2CAPBasicFrame(channelID: .att, payload: (0..<size).map { UInt8(truncatingIfNeeded: $0) })
                var reassembler = ACLReassembler()
                let outcomes = fragmenter.fragment(frame, handle: 0x0EFF).map { reassembler.push($0) }
                #expect(outcomes.allSatisfy { $0.diagnostics.isEmpty })
                #expect(outcomes.compactMap(\.pdu) == [ACLReassembledPDU(handle: 0x0EFF, frame: frame)])
                #expect(outcomes.dropLast().allSatisfy { $0.isAwaitingMoreFragments })
            }
        }
    }

    @Test("a limit outside 1...65535 gives no fragmenter")
    func invalidLimits() {
        #expect(ACLFragmenter(maximumDataLength: 0) == nil)
        #expect(ACLFragmenter(maximumDataLength: -1) == nil)
        #expect(ACLFragmenter(maximumDataLength: 65536) == nil)
        #expect(ACLFragmenter(maximumDataLength: 65535)?.maximumDataLength == 65535)
    }
}
