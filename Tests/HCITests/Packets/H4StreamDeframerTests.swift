import BLECore
import HCI
import Testing

@Suite("H4 stream deframer")
struct H4StreamDeframerTests {
    /// Four packets of four types, back to back, as a UART carries them.
    static let stream = hex("""
        01 03 0c 00                        # Command: Reset
        04 0e 04 01 03 0c 00               # Event: Command Complete (Reset)
        02 40 20 07 00 03 00 04 00 0a 03 00   # ACL: handle 0x040, 7 octets
        05 60 61 05 00 11 22 33 44 55      # ISO: handle 0x160, 5 octets
        03 01 30 02 aa bb                  # SCO: handle 0x001, 2 octets
        """)

    static let expected: [HCIPacket] = [
        .command(HCICommandPacket(opcode: .reset)),
        .event(HCIEventPacket(code: .commandComplete, parameters: [0x01, 0x03, 0x0C, 0x00])),
        .acl(HCIACLDataPacket(handle: 0x040, packetBoundary: .firstFlushable, data: [0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00])),
        .iso(HCIISODataPacket(handle: 0x160, packetBoundary: .complete, hasTimestamp: true, dataLoad: [0x11, 0x22, 0x33, 0x44, 0x55])),
        .sco(HCISynchronousDataPacket(handle: 0x001, packetStatus: 0b11, data: [0xAA, 0xBB])),
    ]

    @Test("one chunk with every packet")
    func wholeStream() throws {
        var deframer = H4StreamDeframer()
        #expect(try deframer.append(Self.stream) == Self.expected)
        #expect(deframer.pendingCount == 0)
    }

    @Test("chunks split at every possible point give the same packets", arguments: [1, 2, 3, 5, 7, 11])
    func splits(chunkSize: Int) throws {
        var deframer = H4StreamDeframer()
        var packets: [HCIPacket] = []
        var index = 0
        while index < Self.stream.count {
            let end = min(index + chunkSize, Self.stream.count)
            packets += try deframer.append(Self.stream[index..<end])
            index = end
        }
        #expect(packets == Self.expected)
        #expect(deframer.pendingCount == 0)
    }

    @Test("a packet arrives only when its last octet does")
    func partial() throws {
        var deframer = H4StreamDeframer()
        #expect(try deframer.append(hex("04 0e 04 01")).isEmpty)
        #expect(deframer.pendingCount == 4)
        #expect(try deframer.append(hex("03 0c")).isEmpty)
        #expect(try deframer.append(hex("00")) == [Self.expected[1]])
    }

    @Test("ISO length is 14 bits: the two RFU bits do not count")
    func isoLength() throws {
        var deframer = H4StreamDeframer()
        // ISO_Data_Load_Length 0xC002: 2 octets of load, RFU bits set.
        let packets = try deframer.append(hex("05 60 61 02 c0 aa bb"))
        #expect(packets.count == 1)
        guard case .iso(let iso) = packets.first else { Issue.record("not ISO"); return }
        #expect(iso.dataLoad == [0xAA, 0xBB])
        #expect(iso.reservedLengthBits == 0b11)
    }

    @Test("an unknown indicator is a sticky error until reset; packets before it are delivered")
    func unknownIndicator() throws {
        var deframer = H4StreamDeframer()
        // A whole event, then 0x07.
        let packets = try deframer.append(hex("04 0e 04 01 03 0c 00 07 00"))
        #expect(packets == [Self.expected[1]])
        #expect(deframer.error == .unknownPacketIndicator(0x07, streamOffset: 7))
        #expect(throws: H4StreamDeframer.Error.unknownPacketIndicator(0x07, streamOffset: 7)) {
            _ = try deframer.append(hex("04 0e 04 01 03 0c 00"))
        }
        deframer.reset()
        #expect(deframer.error == nil)
        #expect(try deframer.append(hex("04 0e 04 01 03 0c 00")) == [Self.expected[1]])
        var fresh = H4StreamDeframer()
        #expect(throws: H4StreamDeframer.Error.unknownPacketIndicator(0x00, streamOffset: 0)) {
            _ = try fresh.append([0x00])
        }
    }

    @Test("a header announcing more than the maximum packet size")
    func tooLarge() throws {
        var deframer = H4StreamDeframer(maximumPacketSize: 4 + 27)
        // ACL with Data_Total_Length 251: 255 octets with its header.
        #expect(throws: H4StreamDeframer.Error.packetTooLarge(type: .acl, size: 255, maximum: 31, streamOffset: 0)) {
            _ = try deframer.append(hex("02 40 20 fb 00"))
        }
        var fits = H4StreamDeframer(maximumPacketSize: 4 + 27)
        #expect(try fits.append(hex("02 40 20 01 00 aa")).count == 1)
    }

    @Test("nextPacket takes one packet at a time")
    func nextPacket() throws {
        var deframer = H4StreamDeframer()
        deframer.appendWithoutFraming(Self.stream)
        #expect(try deframer.nextPacket() == Self.expected[0])
        #expect(try deframer.nextPacket() == Self.expected[1])
        #expect(deframer.pendingCount == Self.stream.count - 4 - 7)
    }
}
