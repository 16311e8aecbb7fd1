import Testing
@testable import BLECore

@Suite("ByteReader and ByteWriter")
struct ByteReaderTests {
    @Test("little-endian fields read least significant octet first")
    func littleEndian() throws {
        // 34 12 | 56 34 12 | 78 56 34 12 | 01..08
        var r = ByteReader([0x34, 0x12, 0x56, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12,
                            0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08])
        #expect(try r.readUInt16("a") == 0x1234)
        #expect(try r.readUInt24("b") == 0x12_3456)
        #expect(try r.readUInt32("c") == 0x1234_5678)
        #expect(try r.readUInt64("d") == 0x0807_0605_0403_0201)
        #expect(r.isAtEnd)
        try r.expectEnd()
    }

    @Test("a short read names the field, its offset, the octets needed and available")
    func truncated() {
        var r = ByteReader([0x02, 0x17])
        #expect(throws: Never.self) { _ = try r.readUInt8("Attribute Opcode") }
        #expect(throws: BLEDecodingError.truncated(field: "Client Rx MTU", offset: 1, needed: 2, available: 1)) {
            _ = try r.readUInt16("Client Rx MTU")
        }
        // A failed read consumes nothing.
        #expect(r.offset == 1)
    }

    @Test("offsets count from the start of the slice the reader was given")
    func sliceOffsets() throws {
        let whole: [UInt8] = [0xAA, 0xBB, 0x01, 0x02, 0x03]
        var r = ByteReader(whole[2...])
        #expect(try r.readUInt8("x") == 0x01)
        #expect(r.offset == 1)
        #expect(r.readRemaining() == [0x02, 0x03])
        #expect(throws: BLEDecodingError.truncated(field: "y", offset: 3, needed: 1, available: 0)) { _ = try r.readUInt8("y") }
    }

    @Test("trailing octets are reported with their offset and count")
    func trailing() throws {
        var r = ByteReader([1, 2, 3])
        _ = try r.readUInt8("x")
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 1, count: 2)) { try r.expectEnd() }
    }

    @Test("negative lengths are a truncation, never a trap")
    func negativeLength() {
        var r = ByteReader([1, 2, 3])
        #expect(throws: BLEDecodingError.self) { _ = try r.readBytes(-1, "len") }
    }

    @Test("writer and reader round-trip every width")
    func roundTrip() throws {
        var w = ByteWriter()
        w.writeUInt8(0xFE); w.writeUInt16(0xBEEF); w.writeUInt24(0xABCDEF)
        w.writeUInt32(0xDEAD_BEEF); w.writeUInt64(0x0123_4567_89AB_CDEF); w.writeBigEndian(0xA1B2, count: 2)
        #expect(Array(w.bytes.prefix(3)) == [0xFE, 0xEF, 0xBE])
        var r = ByteReader(w.bytes)
        #expect(try r.readUInt8("") == 0xFE)
        #expect(try r.readUInt16("") == 0xBEEF)
        #expect(try r.readUInt24("") == 0xABCDEF)
        #expect(try r.readUInt32("") == 0xDEAD_BEEF)
        #expect(try r.readUInt64("") == 0x0123_4567_89AB_CDEF)
        #expect(try r.readBigEndian(2, "") == 0xA1B2)
        #expect(r.isAtEnd)
    }

    @Test("hex text with separators, comments and 0x prefixes")
    func hex() {
        #expect(Hex.decode("02 17 00") == [0x02, 0x17, 0x00])
        #expect(Hex.decode("AA:bb-CC") == [0xAA, 0xBB, 0xCC])
        #expect(Hex.decode("0x0a 0x0B # comment ff\n0c") == [0x0A, 0x0B, 0x0C])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.encode([0x00, 0xAB, 0x10], separator: " ") == "00 ab 10")
    }
}
