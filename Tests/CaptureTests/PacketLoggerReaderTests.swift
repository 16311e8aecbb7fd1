import Testing
import BLECore
import HCI
@testable import Capture

/// Apple PacketLogger (.pklg), in the older big-endian format and the later little-endian one.
@Suite("PacketLogger reader")
struct PacketLoggerReaderTests {
    /// Three records, big-endian (the older format).
    static let bigEndian = """
        00 00 00 0c  # Length 12: 8 octets of timestamp, the Packet Type, 3 of payload
        67 74 85 80  # Seconds 1735689600 (2025-01-01 00:00:00 UTC)
        00 00 00 0a  # Microseconds 10
        00           # Packet Type: HCI Command
        03 0c 00     # HCI Reset
        00 00 00 0f  # Length 15
        67 74 85 80 00 00 00 14
        01           # Packet Type: HCI Event
        0e 04 01 03 0c 00   # Command Complete (Reset), Success
        00 00 00 0f  # Length 15
        67 74 85 81 00 00 00 00
        fc           # Packet Type: Note
        68 65 6c 6c 6f 00   # "hello", NUL
        """

    /// The same three records, little-endian (the later format).
    static let littleEndian = """
        0c 00 00 00  80 85 74 67  0a 00 00 00  00  03 0c 00
        0f 00 00 00  80 85 74 67  14 00 00 00  01  0e 04 01 03 0c 00
        0f 00 00 00  81 85 74 67  00 00 00 00  fc  68 65 6c 6c 6f 00
        """

    @Test("both formats read to the same records: HCI packets with their directions, then a note",
          arguments: [true, false])
    func bothFormats(_ isBigEndian: Bool) throws {
        let file = try CaptureFile(bytes: try octets(isBigEndian ? Self.bigEndian : Self.littleEndian))
        #expect(file.format == .packetLogger)
        #expect(file.linkType == nil)
        let result = file.readAll()
        #expect(result.error == nil)
        let records = result.records
        #expect(records.map(\.timestamp) == [1_735_689_600_000_010, 1_735_689_600_000_020, 1_735_689_601_000_000])
        #expect(records.map(\.direction) == [.hostToController, .controllerToHost, .unknown])
        #expect(records[0].packet == .hci(type: .command, payload: [0x03, 0x0C, 0x00]))
        #expect(records[1].packet == .hci(type: .event, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]))
        #expect(records[2].packet == .packetLogger(type: .note, payload: Array("hello".utf8) + [0]))
        #expect(records.map(\.capturedLength) == [4, 7, 7])
        var dissector = Dissector()
        let lines = records.map { dissector.dissect($0).line }
        #expect(lines[0].hasSuffix("H>C HCI Command Reset"))
        #expect(lines[1].contains("C>H HCI Event Command Complete Reset"))
        #expect(lines[2].hasSuffix("--- PacketLogger Note: hello"))
    }

    @Test("the writer writes both formats octet for octet as the reader reads them", arguments: [true, false])
    func writerRoundTrip(_ isBigEndian: Bool) throws {
        let original = try octets(isBigEndian ? Self.bigEndian : Self.littleEndian)
        let records = try CaptureFile(bytes: original).readAll().records
        #expect(try PacketLoggerWriter.encode(records, bigEndian: isBigEndian) == original)
    }

    @Test("an unknown Packet Type and an LMP record are kept raw and listed, the records around them decode")
    func unknownType() throws {
        var bytes = try octets(Self.littleEndian)
        bytes[12] = 0x0B               // the first record's Packet Type: Received LMP
        bytes[16 + 12] = 0x42          // the second's: unknown
        let records = try CaptureFile(bytes: bytes).readAll().records
        #expect(records.count == 3)
        #expect(records[1].packet == .packetLogger(type: PacketLoggerPacketType(rawValue: 0x42),
                                                   payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]))
        var dissector = Dissector()
        let lines = records.map { dissector.dissect($0).line }
        #expect(lines[0].hasSuffix("PacketLogger Received LMP, 3 octets (not decoded)"))
        #expect(lines[1].hasSuffix("PacketLogger packet type 0x42, 6 octets (not decoded)"))
        #expect(lines[2].hasSuffix("PacketLogger Note: hello"))
    }

    @Test("a damaged Microseconds field spoils only that record's timestamp")
    func damagedTimestamp() throws {
        var bytes = try octets(Self.bigEndian)
        bytes[16 + 8] = 0xFF           // the second record's Microseconds: 0xFF000014
        let records = try CaptureFile(bytes: bytes).readAll().records
        #expect(records.count == 3)
        #expect(records[1].timestamp == 0)
        #expect(records[1].timestampError == .invalidValue(field: "Microseconds", offset: 24, reason: "4278190100 is not below 1,000,000"))
        #expect(records[1].packet == .hci(type: .event, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]))
        #expect(records[2].timestampError == nil)
    }

    @Test("a Length below the 9 octets it counts, or past the file, stops the walk after the good records, with the offset")
    func badLength() throws {
        var short = try octets(Self.littleEndian)
        short[16] = 0x05               // the second record's Length: 5
        let first = try CaptureFile(bytes: short).readAll()
        #expect(first.records.count == 1)
        #expect(first.error == .invalidLength(field: "Length", offset: 16, length: 5,
                                              reason: "shorter than the 9 octets of timestamp and Packet Type it counts"))
        var long = try octets(Self.littleEndian)
        long[16 + 19 + 1] = 0x01       // the third record's Length: 0x010E
        let second = try CaptureFile(bytes: long).readAll()
        #expect(second.records.count == 2)
        #expect(second.error == .truncated(field: "Packet Data", offset: 35 + 13, needed: 0x010F - 9, available: 6))
    }

    @Test("a file is PacketLogger only when its first record looks like one")
    func recognition() throws {
        // Microseconds 1,000,000 in the first record, or an unknown first Packet Type: not PacketLogger.
        var microseconds = try octets(Self.bigEndian)
        microseconds[8...11] = [0x00, 0x0F, 0x42, 0x40]
        #expect(throws: CaptureError.unrecognizedFormat(magic: Array(microseconds.prefix(8)))) { try CaptureFile(bytes: microseconds) }
        var type = try octets(Self.littleEndian)
        type[12] = 0x42
        #expect(throws: CaptureError.unrecognizedFormat(magic: Array(type.prefix(8)))) { try CaptureFile(bytes: type) }
    }

    @Test("cut at every length: every whole record before the cut is read, then the error names the cut record",
          arguments: [true, false])
    func truncatedAtEveryLength(_ isBigEndian: Bool) throws {
        let bytes = try octets(isBigEndian ? Self.bigEndian : Self.littleEndian)
        let full = try CaptureFile(bytes: bytes).readAll().records
        let ends = [16, 35, 54]
        for length in 0..<bytes.count {
            let prefix = Array(bytes.prefix(length))
            guard let file = try? CaptureFile(bytes: prefix) else {
                #expect(length < 13, "a \(length)-octet prefix was not recognised")
                continue
            }
            let result = file.readAll()
            let whole = ends.filter { $0 <= length }.count
            #expect(result.records == Array(full.prefix(whole)), "cut at \(length)")
            #expect((result.error == nil) == ends.contains(length), "cut at \(length): \(String(describing: result.error))")
            if let error = result.error { #expect(error.offset <= length) }
        }
    }

    @Test("every octet replaced by every value: no crash, the records before the damaged one are unchanged, a damaged payload keeps its record")
    func mutatedAtEveryOctet() throws {
        for text in [Self.bigEndian, Self.littleEndian] {
            let bytes = try octets(text)
            let full = try CaptureFile(bytes: bytes).readAll().records
            let starts = [0, 16, 35]
            for position in bytes.indices {
                let damaged = starts.lastIndex { $0 <= position }!
                let inPayload = position >= starts[damaged] + 13
                for value in [UInt8.min, 0x01, 0x7F, 0x80, 0xFF, bytes[position] ^ 0x01] {
                    var mutated = bytes
                    mutated[position] = value
                    guard let file = try? CaptureFile(bytes: mutated) else { continue }
                    let result = file.readAll()
                    var dissector = Dissector()
                    for record in result.records { _ = dissector.dissect(record).line }
                    if file.format != .packetLogger { continue }
                    #expect(Array(result.records.prefix(damaged)) == Array(full.prefix(damaged)), "octet \(position) = \(value)")
                    if inPayload {
                        #expect(result.records.count == 3, "octet \(position) = \(value) lost a record")
                        #expect(result.error == nil)
                    }
                }
            }
        }
    }
}
