import BLECore
import BLETestSupport
import HCI
import Testing

/// The resynchronising H4 reader: garbage is skipped and reported, the good packets around it
/// all arrive, however the stream is cut.
@Suite("H4 stream reader")
struct H4StreamReaderTests {
    static let reset = hex("01 03 0c 00")                       // Command: Reset
    static let commandComplete = hex("04 0e 04 01 03 0c 00")    // Event: Command Complete, 1 credit, Reset, Success
    static let acl = hex("02 40 20 07 00 03 00 04 00 0a 03 00") // ACL: handle 0x040, first flushable, 7 octets (ATT Read 0x0003)

    static func packet(_ h4: [UInt8]) throws -> H4StreamReader.Element { .packet(try HCIPacket(h4: h4)) }

    /// Appends `stream` in chunks of `size` octets, then finishes it.
    static func read(_ stream: [UInt8], chunkSize size: Int, into reader: inout H4StreamReader) -> [H4StreamReader.Element] {
        var elements: [H4StreamReader.Element] = []
        var index = 0
        while index < stream.count {
            let end = min(index + size, stream.count)
            elements += reader.append(stream[index..<end])
            index = end
        }
        return elements + reader.finish().map { .skipped($0) }
    }

    @Test("garbage before the first packet is skipped in one run, reported before the packet")
    func garbageAtStart() throws {
        var reader = H4StreamReader()
        let elements = reader.append(hex("""
            ff fe 00                           # garbage: 0xFF, 0xFE, 0x00 are no packet indicators
            04 0e 04 01 03 0c 00               # Event: Command Complete (Reset), at stream offset 3
            """))
        #expect(elements == [
            .skipped(H4SkippedOctets(streamOffset: 0, count: 3, reason: .unknownPacketIndicator(0xFF))),
            try Self.packet(Self.commandComplete),
        ])
        #expect(reader.pendingCount == 0)
        #expect(reader.streamOffset == 10)
    }

    @Test("garbage between two packets: both packets arrive, the run names its offset and length")
    func garbageInTheMiddle() throws {
        var reader = H4StreamReader()
        let elements = reader.append(hex("""
            01 03 0c 00                        # Command: Reset (offsets 0-3)
            aa bb cc dd                        # garbage (offsets 4-7)
            02 40 20 07 00 03 00 04 00 0a 03 00   # ACL: handle 0x040, 7 octets (offset 8)
            """))
        #expect(elements == [
            try Self.packet(Self.reset),
            .skipped(H4SkippedOctets(streamOffset: 4, count: 4, reason: .unknownPacketIndicator(0xAA))),
            try Self.packet(Self.acl),
        ])
    }

    @Test("a header over the maximum is skipped one octet at a time; the packet after it is found")
    func tooLargeHeader() throws {
        var reader = H4StreamReader(maximumPacketSize: 4 + 27)
        let elements = reader.append(hex("""
            02 40 20 fb 00                     # ACL header, Data_Total_Length 251: 255 octets, over 4 + 27
            04 0e 04 01 03 0c 00               # Event: Command Complete (Reset), at offset 5
            """))
        // 0x02 is refused for its length; 40 20 fb 00 are no indicators; 0x04 starts a packet.
        #expect(elements == [
            .skipped(H4SkippedOctets(streamOffset: 0, count: 5, reason: .packetTooLarge(type: .acl, size: 255, maximum: 31))),
            try Self.packet(Self.commandComplete),
        ])
    }

    @Test("an ISO header over the maximum counts the 14-bit length only")
    func tooLargeISO() throws {
        var reader = H4StreamReader(maximumPacketSize: 4 + 100)
        // ISO, handle 0x160, ISO_Data_Load_Length 0xC0C8: 200 octets (RFU bits set), over 104.
        let elements = reader.append(hex("05 60 61 c8 c0") + Self.reset)
        #expect(elements == [
            .skipped(H4SkippedOctets(streamOffset: 0, count: 5, reason: .packetTooLarge(type: .iso, size: 204, maximum: 104))),
            try Self.packet(Self.reset),
        ])
    }

    /// Reset, garbage with a too-large ACL header inside, Command Complete, garbage, an ACL packet.
    static let messy = hex("""
        01 03 0c 00                            # Command: Reset (0-3)
        ff 00                                  # garbage (4-5)
        02 ff ff                               # ACL header, handle 0xFFF, length 0xFFFF: 65539 > 4 + 251 (6-8)...
        ff ff                                  # ...its length octets (9-10)
        04 0e 04 01 03 0c 00                   # Event: Command Complete (Reset) (11-17)
        99                                     # garbage (18)
        02 40 20 07 00 03 00 04 00 0a 03 00    # ACL: handle 0x040, 7 octets (19-30)
        04 0e                                  # the start of an event, cut by the end of the stream (31-32)
        """)

    static let messyExpected: [H4StreamReader.Element] = [
        try! packet(reset),
        .skipped(H4SkippedOctets(streamOffset: 4, count: 7, reason: .unknownPacketIndicator(0xFF))),
        try! packet(commandComplete),
        .skipped(H4SkippedOctets(streamOffset: 18, count: 1, reason: .unknownPacketIndicator(0x99))),
        try! packet(acl),
        .skipped(H4SkippedOctets(streamOffset: 31, count: 2, reason: .cutByEndOfStream(type: .event))),
    ]

    @Test("the same packets and reports whatever the chunk size, 1 octet to the whole stream",
          arguments: 1...33)
    func chunksOfEverySize(size: Int) {
        var reader = H4StreamReader(maximumPacketSize: 4 + 251)
        #expect(Self.read(Self.messy, chunkSize: size, into: &reader) == Self.messyExpected)
        #expect(reader.pendingCount == 0)
    }

    @Test("the stream split at every single point, into two chunks, gives the same result")
    func everySplitPoint() {
        for cut in 0...Self.messy.count {
            var reader = H4StreamReader(maximumPacketSize: 4 + 251)
            let elements = reader.append(Self.messy[..<cut]) + reader.append(Self.messy[cut...])
                + reader.finish().map { H4StreamReader.Element.skipped($0) }
            #expect(elements == Self.messyExpected, "cut at \(cut)")
        }
    }

    @Test("a flood of garbage is reported in runs of longestSkip, holds no memory, and the packet after it arrives")
    func flood() throws {
        var reader = H4StreamReader(longestSkip: 4096)
        let garbage = [UInt8](repeating: 0xFF, count: 1_000_000)     // a line at the wrong baud rate reads as 0xFF
        var elements: [H4StreamReader.Element] = []
        for start in stride(from: 0, to: garbage.count, by: 10_000) {
            elements += reader.append(garbage[start..<(start + 10_000)])
            #expect(reader.pendingCount == 0)                          // skipped octets are counted, not kept
            #expect(reader.unreportedSkippedCount == (start + 10_000) % 4096)
        }
        elements += reader.append(Self.commandComplete)
        let runs = elements.compactMap { element -> H4SkippedOctets? in
            if case .skipped(let run) = element { return run }
            return nil
        }
        #expect(runs.count == 245)                                     // 244 full runs of 4096, then 576
        #expect(runs.allSatisfy { $0.count <= 4096 && $0.reason == .unknownPacketIndicator(0xFF) })
        #expect(runs.map(\.count).reduce(0, +) == 1_000_000)
        #expect(runs.last == H4SkippedOctets(streamOffset: 244 * 4096, count: 1_000_000 - 244 * 4096, reason: .unknownPacketIndicator(0xFF)))
        #expect(elements.last == (try Self.packet(Self.commandComplete)))
        #expect(reader.streamOffset == 1_000_007)
    }

    @Test("one huge chunk of garbage is framed in slices: nothing retained beyond the unfinished packet")
    func hugeChunk() throws {
        var reader = H4StreamReader(maximumPacketSize: 4 + 251, longestSkip: 1 << 30)
        let chunk = [UInt8](repeating: 0xEE, count: 3 * H4StreamReaderSlice.size + 17) + Self.acl + hex("02 40 20")
        let elements = reader.append(chunk)
        #expect(elements == [
            .skipped(H4SkippedOctets(streamOffset: 0, count: chunk.count - 15, reason: .unknownPacketIndicator(0xEE))),
            try Self.packet(Self.acl),
        ])
        #expect(reader.pendingCount == 3)                              // "02 40 20": an ACL header, still cut
    }

    @Test("random garbage between packets, in random chunks: every packet arrives, every garbage octet is counted",
          arguments: [1, 2, 3, 42, 0xB1E] as [UInt64])
    func randomGarbage(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let packets = [Self.reset, Self.commandComplete, Self.acl, hex("05 60 61 05 00 11 22 33 44 55"), hex("03 01 30 02 aa bb")]
        var stream: [UInt8] = []
        var expected: [HCIPacket] = []
        var garbageCount = 0
        for _ in 0..<200 {
            // Garbage of octets that are no indicator (0x80...0xFF), 0 to 20 of them.
            let garbage = (0..<Int.random(in: 0...20, using: &random)).map { _ in
                UInt8.random(in: 0...0xFF, using: &random) | 0x80
            }
            garbageCount += garbage.count
            let packet = packets[Int.random(in: 0..<packets.count, using: &random)]
            stream += garbage + packet
            expected.append(try HCIPacket(h4: packet))
        }
        var reader = H4StreamReader()
        var elements: [H4StreamReader.Element] = []
        var index = 0
        while index < stream.count {
            let end = min(stream.count, index + Int.random(in: 1...64, using: &random))
            elements += reader.append(stream[index..<end])
            index = end
        }
        #expect(reader.finish().isEmpty)
        let received = elements.compactMap { element -> HCIPacket? in
            if case .packet(let packet) = element { return packet }
            return nil
        }
        #expect(received == expected)
        let skipped = elements.compactMap { element -> Int? in
            if case .skipped(let run) = element { return run.count }
            return nil
        }
        #expect(skipped.reduce(0, +) == garbageCount)
    }

    @Test("fully random octets: every octet is a packet's, a run's (reported or open) or pending, and pending stays bounded",
          arguments: [7, 99] as [UInt64])
    func randomOctets(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var reader = H4StreamReader(maximumPacketSize: 4 + 251)
        var accounted = 0
        var total = 0
        for _ in 0..<2000 {
            let chunk = (0..<Int.random(in: 1...300, using: &random)).map { _ in UInt8.random(in: 0...0xFF, using: &random) }
            total += chunk.count
            for element in reader.append(chunk) {
                switch element {
                case .packet(let packet): accounted += packet.h4Encoded.count
                case .skipped(let run): accounted += run.count
                }
            }
            #expect(reader.pendingCount <= 1 + 4 + 251)
            #expect(accounted + reader.unreportedSkippedCount + reader.pendingCount == total)
        }
        accounted += reader.finish().map(\.count).reduce(0, +)
        #expect(accounted == total)
    }

    @Test("finish reports the open run and the cut packet, and the reader starts over")
    func finish() throws {
        var reader = H4StreamReader()
        #expect(reader.append(hex("""
            07 07                              # garbage
            02 40 20 07 00 03 00               # ACL: handle 0x040, 7 octets announced, 3 there
            """)) == [.skipped(H4SkippedOctets(streamOffset: 0, count: 2, reason: .unknownPacketIndicator(0x07)))])
        #expect(reader.finish() == [H4SkippedOctets(streamOffset: 2, count: 7, reason: .cutByEndOfStream(type: .acl))])
        #expect(reader.pendingCount == 0 && reader.streamOffset == 0)
        var hunting = H4StreamReader()
        #expect(hunting.append(hex("fa fb 04")).isEmpty)              // the run stays open: 0x04 may start an event
        #expect(hunting.finish() == [
            H4SkippedOctets(streamOffset: 0, count: 2, reason: .unknownPacketIndicator(0xFA)),
            H4SkippedOctets(streamOffset: 2, count: 1, reason: .cutByEndOfStream(type: .event)),
        ])
        #expect(hunting.append(Self.reset) == [try Self.packet(Self.reset)])
    }

    @Test("the reports read as one line each")
    func descriptions() {
        #expect(H4SkippedOctets(streamOffset: 7, count: 3, reason: .unknownPacketIndicator(0xFF)).description
                == "skipped 3 octets at stream offset 7: unknown H4 packet indicator 0xff")
        #expect(H4SkippedOctets(streamOffset: 0, count: 1, reason: .packetTooLarge(type: .acl, size: 255, maximum: 31)).description
                == "skipped 1 octet at stream offset 0: ACL header announcing 255 octets, more than the maximum of 31")
        #expect(H4SkippedOctets.Reason.cutByEndOfStream(type: .event).description == "Event packet cut by the end of the stream")
    }

    @Test("the whole cfa capture through the reader, in 97-octet chunks: every packet, nothing skipped",
          .enabled(if: SharedCaptures.available, Comment(rawValue: SharedCaptures.skipNote)))
    func capture() throws {
        let records = try h4Packets(inSharedCapture: SharedCaptures.nexxtenderCFA).filter { !$0.isEmpty }
        var reader = H4StreamReader()
        let elements = Self.read(records.flatMap { $0 }, chunkSize: 97, into: &reader)
        #expect(elements.count == records.count)
        #expect(elements == (try records.map { try Self.packet($0) }))
    }
}

/// The reader's slice size, as the test needs it.
enum H4StreamReaderSlice {
    static let size = 64 * 1024
}
