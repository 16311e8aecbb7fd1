import Testing
import BLECore
import HCI
@testable import Capture

@Suite("pcapng reader")
struct PcapNGReaderTests {
    /// Two sections (little- then big-endian), three interfaces, every packet block kind, and a
    /// block to skip. tshark reads it as 5 frames with the same times, lengths and directions.
    static let file = """
        # Section 1, little-endian
        # Section Header Block at offset 0, 28 octets
        0a 0d 0d 0a               # Block Type SHB
        1c 00 00 00               # Block Total Length 28
        4d 3c 2b 1a               # Byte-Order Magic 0x1a2b3c4d, little-endian
        01 00 00 00               # version 1.0
        ff ff ff ff ff ff ff ff   # Section Length -1 (unknown)
        1c 00 00 00               # Block Total Length 28
        # Interface Description Block 0 at offset 28, 20 octets: LINKTYPE 187, microseconds (default)
        01 00 00 00 14 00 00 00
        bb 00 00 00               # LinkType 187, reserved
        00 00 00 00               # SnapLen 0 (no limit)
        14 00 00 00
        # Interface Description Block 1 at offset 48, 32 octets: LINKTYPE 256, nanoseconds
        01 00 00 00 20 00 00 00
        00 01 00 00               # LinkType 256, reserved
        00 00 00 00               # SnapLen 0
        09 00 01 00 09 00 00 00   # if_tsresol 9: 10^-9 s
        00 00 00 00               # opt_endofopt
        20 00 00 00
        # Name Resolution Block at offset 80, 16 octets: skipped
        04 00 00 00 10 00 00 00
        00 00 00 00               # nrb_record_end
        10 00 00 00
        # Enhanced Packet Block at offset 96, 64 octets: interface 1, the SCAN_REQ of frame 9
        06 00 00 00 40 00 00 00
        01 00 00 00               # Interface ID 1
        4c 37 03 00 4b 83 52 29   # Timestamp 905225180447563 ns
        1f 00 00 00 1f 00 00 00   # Captured and Original Packet Length 31
        00 fb c9 00 d6 be 89 8e 37 00 d6 be 89 8e c3 0c
        0c b2 f0 de f5 14 16 23 42 82 43 7d 0a d5 5a 00   # 31 octets and 1 octet of padding
        40 00 00 00
        # Enhanced Packet Block at offset 160, 52 octets: interface 0, an event, epb_flags inbound
        06 00 00 00 34 00 00 00
        00 00 00 00               # Interface ID 0
        b3 d5 04 00 ab a3 69 6d   # Timestamp 1360866518344619 us
        07 00 00 00 07 00 00 00   # 7 octets
        04 0e 04 01 03 0c 00 00   # H4 Event Command Complete, 1 octet of padding
        02 00 04 00 01 00 00 00   # epb_flags: direction 01 (inbound)
        00 00 00 00               # opt_endofopt
        34 00 00 00
        # Simple Packet Block at offset 212, 20 octets: interface 0, no timestamp
        03 00 00 00 14 00 00 00
        04 00 00 00               # Original Packet Length 4
        01 03 0c 00               # H4 Command HCI_Reset
        14 00 00 00
        # Section 2, big-endian
        # Section Header Block at offset 232, 28 octets
        0a 0d 0d 0a 00 00 00 1c
        1a 2b 3c 4d               # Byte-Order Magic, big-endian
        00 01 00 00               # version 1.0
        ff ff ff ff ff ff ff ff
        00 00 00 1c
        # Interface Description Block 0 of section 2 at offset 260, 40 octets: LINKTYPE 201, 1/8 s ticks, +10^9 s
        00 00 00 01 00 00 00 28
        00 c9 00 00               # LinkType 201
        00 00 00 00               # SnapLen 0
        00 09 00 01 83 00 00 00   # if_tsresol 0x83: 2^-3 s
        00 0e 00 08 00 00 00 00 3b 9a ca 00   # if_tsoffset 1000000000 s
        00 00 00 28
        # Enhanced Packet Block at offset 300, 44 octets: interface 0, 43 ticks = 5.375 s
        00 00 00 06 00 00 00 2c
        00 00 00 00               # Interface ID 0
        00 00 00 00 00 00 00 2b   # Timestamp 43 ticks
        00 00 00 0b 00 00 00 0b   # 11 octets
        00 00 00 01 04 0e 04 01 03 0c 00 00   # direction received, H4 Event, 1 octet of padding
        00 00 00 2c
        # Packet Block (obsolete) at offset 344, 40 octets: interface 0, 8 ticks = 1 s
        00 00 00 02 00 00 00 28
        00 00 00 00               # Interface ID 0, Drops Count 0
        00 00 00 00 00 00 00 08   # Timestamp 8 ticks
        00 00 00 08 00 00 00 08   # 8 octets
        00 00 00 00 01 03 0c 00   # direction sent, H4 Command HCI_Reset
        00 00 00 28
        # end at offset 384
        """

    /// The blocks of ``file``: offset, Block Total Length, name, and whether it holds a packet.
    static let blocks: [(offset: Int, length: Int, name: String, isPacket: Bool)] = [
        (0, 28, "Section Header Block", false), (28, 20, "Interface Description Block", false),
        (48, 32, "Interface Description Block", false), (80, 16, "Name Resolution Block", false),
        (96, 64, "Enhanced Packet Block", true), (160, 52, "Enhanced Packet Block", true),
        (212, 20, "Simple Packet Block", true), (232, 28, "Section Header Block", false),
        (260, 40, "Interface Description Block", false), (300, 44, "Enhanced Packet Block", true),
        (344, 40, "Packet Block", true),
    ]

    @Test("every block kind, both byte orders, three timestamp resolutions, field by field")
    func fixture() throws {
        let bytes = try octets(Self.file)
        #expect(bytes.count == 384)
        let file = try CaptureFile(bytes: bytes)
        #expect(file.format == .pcapng)
        #expect(file.linkType == .bluetoothHCIH4)
        let result = file.readAll()
        #expect(result.error == nil)
        let r = result.records
        try #require(r.count == 5)

        #expect(r[0].index == 0)
        #expect(r[0].interfaceID == 1)
        #expect(r[0].timestamp == 905_225_180_447)
        #expect(r[0].subMicrosecondNanoseconds == 563)
        #expect(r[0].originalLength == 31 && r[0].capturedLength == 31)
        #expect(r[0].direction == .unknown)
        guard case let .linkLayer(ll) = r[0].packet, case let .advertising(pdu) = ll.pdu else { Issue.record("not LL"); return }
        #expect(ll.pseudoHeader?.signalPower == -5)
        #expect(pdu.pduType == .scanReq)

        #expect(r[1].interfaceID == 0)
        #expect(r[1].timestamp == 1_360_866_518_344_619)
        #expect(r[1].subMicrosecondNanoseconds == 0)
        #expect(r[1].direction == .controllerToHost)      // epb_flags inbound
        #expect(r[1].packet == .hci(type: .event, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]))

        #expect(r[2].interfaceID == 0)
        #expect(r[2].timestamp == 0)                      // Simple Packet Blocks have no timestamp
        #expect(r[2].direction == .unknown)
        #expect(r[2].packet == .hci(type: .command, payload: [0x03, 0x0C, 0x00]))
        #expect(r[2].originalLength == 4 && r[2].capturedLength == 4)

        #expect(r[3].interfaceID == 0)
        #expect(r[3].timestamp == 1_000_000_005_375_000)  // 43 x 1/8 s + 10^9 s
        #expect(r[3].direction == .controllerToHost)
        #expect(r[3].packet == .hci(type: .event, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]))
        #expect(r[3].originalLength == 11)

        #expect(r[4].index == 4)
        #expect(r[4].timestamp == 1_000_000_001_000_000)
        #expect(r[4].direction == .hostToController)
        #expect(r[4].packet == .hci(type: .command, payload: [0x03, 0x0C, 0x00]))
    }

    @Test("the file cut at every length returns the records before the cut, then the error")
    func truncatedEverywhere() throws {
        let bytes = try octets(Self.file)
        for n in 0...bytes.count {
            var expected: (records: Int, error: CaptureError?) = (Self.blocks.filter(\.isPacket).count, nil)
            if n == 0 {
                expected = (0, .unrecognizedFormat(magic: []))
            } else if let block = Self.blocks.first(where: { n > $0.offset && n < $0.offset + $0.length }) {
                let cut = n - block.offset
                let before = Self.blocks.filter { $0.isPacket && $0.offset < block.offset }.count
                if cut < 8 {
                    expected = (before, .truncated(field: "pcapng block header", offset: block.offset, needed: 8, available: cut))
                } else if cut < 12 && block.name == "Section Header Block" {
                    expected = (before, .truncated(field: "Byte-Order Magic", offset: block.offset + 8, needed: 4, available: cut - 8))
                } else {
                    expected = (before, .truncated(field: block.name, offset: block.offset, needed: block.length, available: cut))
                }
            } else {
                expected.records = Self.blocks.filter { $0.isPacket && $0.offset + $0.length <= n }.count
            }
            let result: CaptureReadResult
            do {
                result = try CaptureFile(bytes: Array(bytes.prefix(n))).readAll()
            } catch {
                #expect(expected.records == 0 && error == expected.error, "cut at \(n)")
                continue
            }
            #expect(result.records.count == expected.records, "cut at \(n)")
            #expect(result.error == expected.error, "cut at \(n)")
        }
    }

    /// ``file`` with `replacement` written at `offset`.
    static func patched(_ offset: Int, _ replacement: [UInt8]) throws -> [UInt8] {
        var bytes = try octets(Self.file)
        bytes.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
        return bytes
    }

    @Test("a timestamp resolution that cannot be counted spoils only its interface's timestamps, not the file")
    func uncountableResolution() throws {
        // Section 2's if_tsresol 0x14 (10^-20 s) cannot be counted in 64 bits.
        let result = try CaptureFile(bytes: try Self.patched(280, [0x14])).readAll()
        #expect(result.error == nil)
        #expect(result.records.count == 5)
        let spoiled = result.records.filter { $0.timestampError != nil }
        #expect(!spoiled.isEmpty)
        #expect(spoiled.allSatisfy { $0.timestamp == 0 })
        #expect(spoiled.first?.timestampError == .invalidValue(field: "if_tsresol", offset: 280, reason: "0x14 is finer than 64-bit timestamps can count"))
        #expect(result.records.prefix(3).allSatisfy { $0.timestampError == nil })
    }

    @Test("broken blocks stop the reading at their offset, after every good record")
    func brokenBlocks() throws {
        let cases: [(offset: Int, octets: [UInt8], records: Int, error: CaptureError)] = [
            // The first EPB names interface 5.
            (104, [5, 0, 0, 0], 0, .invalidValue(field: "Interface ID", offset: 104, reason: "interface 5 is not described (2 in this section)")),
            // The second EPB's trailing length says 0x30.
            (208, [0x30, 0, 0, 0], 1, .invalidValue(field: "Enhanced Packet Block trailing Block Total Length", offset: 208, reason: "48 differs from the leading 52")),
            // The NRB's length is 13 (not a multiple of 4), then 8 (below 12), then 32 MiB.
            (84, [13, 0, 0, 0], 0, .invalidLength(field: "Name Resolution Block Block Total Length", offset: 84, length: 13, reason: "not a multiple of 4")),
            (84, [8, 0, 0, 0], 0, .invalidLength(field: "Name Resolution Block Block Total Length", offset: 84, length: 8, reason: "shorter than the 12-octet minimum block")),
            (84, [0, 0, 0, 2], 0, .invalidLength(field: "Name Resolution Block Block Total Length", offset: 84, length: 0x0200_0000, reason: "more than the 16777216-octet maximum block")),
            // The first EPB claims 0x29 captured octets, 9 more than its block holds.
            (116, [0x29, 0, 0, 0], 0, .invalidLength(field: "Captured Packet Length", offset: 116, length: 0x29, reason: "runs past the end of its block (32 octets left)")),
            // Section 2's byte-order magic is garbage.
            (240, [1, 2, 3, 4], 3, .invalidValue(field: "Byte-Order Magic", offset: 240, reason: "0x01020304 is neither 1a2b3c4d nor 4d3c2b1a")),
            // Section 2 claims version 2.0.
            (244, [0, 2], 3, .unsupportedVersion(format: .pcapng, offset: 244, version: "2.0")),
            // Section 2's if_tsoffset option length 0x40 runs past its block.
            (286, [0, 0x40], 3, .invalidLength(field: "Interface Description Block Option Length", offset: 286, length: 0x40, reason: "runs past the end of its block")),
        ]
        for c in cases {
            let result = try CaptureFile(bytes: try Self.patched(c.offset, c.octets)).readAll()
            #expect(result.records.count == c.records, "patch at \(c.offset)")
            #expect(result.error == c.error, "patch at \(c.offset)")
        }
        // A Simple Packet Block before any interface.
        let spbFirst = try octets("""
            0a 0d 0d 0a 1c 00 00 00 4d 3c 2b 1a 01 00 00 00 ff ff ff ff ff ff ff ff 1c 00 00 00
            03 00 00 00 10 00 00 00 00 00 00 00 10 00 00 00
            """)
        #expect(try CaptureFile(bytes: spbFirst).readAll().error == .invalidValue(field: "Simple Packet Block", offset: 28, reason: "no Interface Description Block precedes it"))
        #expect(try CaptureFile(bytes: spbFirst).linkType == nil)
    }
}
