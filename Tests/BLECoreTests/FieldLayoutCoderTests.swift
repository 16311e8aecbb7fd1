import Testing
import BLECore

/// A code or bit field kept raw, as wide as `Raw`: what a layout sees of an SMP code (one
/// octet), an L2CAP result (two octets), or a wider mask.
private struct RawSample<Raw: FixedWidthInteger & UnsignedInteger & Hashable>: RawFieldValue, Hashable {
    let rawValue: Raw
    init(rawValue: Raw) { self.rawValue = rawValue }
}
private typealias SampleCode = RawSample<UInt8>
private typealias SampleResult = RawSample<UInt16>
private typealias SampleMask32 = RawSample<UInt32>
private typealias SampleMask64 = RawSample<UInt64>

/// A structure with one field of every primitive the coder walks, declared once.
private struct Sample: Hashable {
    var code = SampleCode(rawValue: 0)
    var handle: UInt16 = 0
    var result = SampleResult(rawValue: 0)
    var counter: UInt32 = 0
    var rand: UInt64 = 0
    var address = BluetoothAddress.zero
    var key: [UInt8] = []
    var cids: [UInt16] = []

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&code, "Code")
        try c.field(&handle, "Handle")
        try c.field(&result, "Result")
        try c.field(&counter, "Counter")
        try c.field(&rand, "Rand")
        try c.field(&address, "BD_ADDR")
        try c.field(&key, count: 4, "Key")
        try c.remaining(&cids, "Source CID")
    }

    /// Decodes `bytes` exactly, as a strict PDU decoder does.
    init(decoding bytes: [UInt8]) throws(BLEDecodingError) {
        var decoder = FieldLayoutDecoder(bytes[...])
        try layout(&decoder)
        try decoder.reader.expectEnd()
    }

    init() {}

    var encoded: [UInt8] {
        var copy = self
        var encoder = FieldLayoutEncoder(capacity: 8)
        copy.layout(&encoder)
        return encoder.bytes
    }
}

/// A structure whose last field takes every octet left.
private struct Trailer: Hashable {
    var masks32 = SampleMask32(rawValue: 0)
    var masks64 = SampleMask64(rawValue: 0)
    var data: [UInt8] = []

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&masks32, "Mask32")
        try c.field(&masks64, "Mask64")
        try c.remaining(&data, "Data")
    }
}

/// The fixed part of ``Sample`` as a table (name, offset, octets), written from the layout's
/// declared sizes rather than from the decoder.
private let sampleFields: [(name: String, offset: Int, size: Int)] = [
    ("Code", 0, 1), ("Handle", 1, 2), ("Result", 3, 2), ("Counter", 5, 4),
    ("Rand", 9, 8), ("BD_ADDR", 17, 6), ("Key", 23, 4),
]

// 7f                        Code 0x7F (not a known value: kept raw)
// 40 00                     Handle 0x0040
// 09 00                     Result 0x0009
// 78 56 34 12               Counter 0x12345678
// ef cd ab 89 67 45 23 01   Rand 0x0123456789ABCDEF
// f8 4f 72 37 b8 ff         BD_ADDR FF:B8:37:72:4F:F8
// de ad be ef               Key, 4 octets in transmission order
// 40 00 41 00               Source CID 0x0040, 0x0041
private let sampleFixture: [UInt8] = [
    0x7F, 0x40, 0x00, 0x09, 0x00, 0x78, 0x56, 0x34, 0x12,
    0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01,
    0xF8, 0x4F, 0x72, 0x37, 0xB8, 0xFF, 0xDE, 0xAD, 0xBE, 0xEF,
    0x40, 0x00, 0x41, 0x00,
]

@Suite("FieldLayoutCoder: one declared layout, decoded and encoded")
struct FieldLayoutCoderTests {
    @Test("annotated fixture: every primitive, least significant octet first")
    func fixture() throws {
        let sample = try Sample(decoding: sampleFixture)
        #expect(sample.code.rawValue == 0x7F)
        #expect(sample.handle == 0x0040)
        #expect(sample.result.rawValue == 0x0009)
        #expect(sample.counter == 0x1234_5678)
        #expect(sample.rand == 0x0123_4567_89AB_CDEF)
        #expect(sample.address == BluetoothAddress("FF:B8:37:72:4F:F8"))
        #expect(sample.key == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(sample.cids == [0x0040, 0x0041])
    }

    @Test("round trip: decode then encode gives the fixture; encode then decode gives the value")
    func roundTrip() throws {
        let sample = try Sample(decoding: sampleFixture)
        #expect(sample.encoded == sampleFixture)
        var built = Sample()
        built.code = SampleCode(rawValue: 0x01)
        built.handle = 0x0EDC
        built.result = SampleResult(rawValue: 0xFFFF)
        built.counter = 0xFFFF_FFFF
        built.rand = 1
        built.address = BluetoothAddress(0xC0FF_EE00_1122)
        built.key = [1, 2, 3, 4]
        built.cids = []
        let bytes = built.encoded
        #expect(bytes.count == 27)
        #expect(try Sample(decoding: bytes) == built)
        #expect(try Sample(decoding: bytes).encoded == bytes)
    }

    @Test("truncated at every length of the fixed part: the first field that does not fit, at its offset")
    func truncatedFixedPart() throws {
        for length in 0..<27 {
            let field = try #require(sampleFields.first { $0.offset + $0.size > length })
            #expect(throws: BLEDecodingError.truncated(field: field.name, offset: field.offset, needed: field.size,
                                                      available: length - field.offset),
                    "cut to \(length) octets") {
                _ = try Sample(decoding: Array(sampleFixture.prefix(length)))
            }
        }
    }

    @Test("the 2-octet values that fill the rest: an odd octet is a truncated value at its offset")
    func remainingUInt16() throws {
        #expect(try Sample(decoding: Array(sampleFixture.prefix(27))).cids == [])
        #expect(try Sample(decoding: Array(sampleFixture.prefix(29))).cids == [0x0040])
        #expect(throws: BLEDecodingError.truncated(field: "Source CID", offset: 27, needed: 2, available: 1)) {
            _ = try Sample(decoding: Array(sampleFixture.prefix(28)))
        }
        #expect(throws: BLEDecodingError.truncated(field: "Source CID", offset: 31, needed: 2, available: 1)) {
            _ = try Sample(decoding: sampleFixture + [0x42])
        }
    }

    @Test("the decoder continues a reader's offsets and leaves trailing octets to its caller")
    func offsetsAndTrailing() throws {
        var reader = ByteReader([0x00, 0x01, 0x02, 0x03, 0x04, 0xAA])
        _ = try reader.readUInt8("prefix")
        var decoder = FieldLayoutDecoder(reader: reader)
        var code = SampleResult(rawValue: 0)
        try decoder.field(&code, "Result")
        #expect(code.rawValue == 0x0201)
        #expect(decoder.reader.offset == 3)
        #expect(throws: BLEDecodingError.truncated(field: "Mask32", offset: 3, needed: 4, available: 3)) {
            var trailer = Trailer()
            var copy = decoder
            try trailer.layout(&copy)
        }
        var counter: UInt16 = 0
        try decoder.field(&counter, "Counter")
        #expect(counter == 0x0403)
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 5, count: 1)) { try decoder.reader.expectEnd() }
    }

    @Test("raw values of every width keep unknown values; the rest field may be empty")
    func rawWidths() throws {
        // ff ff ff ff                 Mask32 0xFFFFFFFF
        // 01 00 00 00 00 00 00 80     Mask64 0x8000000000000001
        // 05 06                       Data
        let bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0, 0, 0, 0, 0, 0, 0x80, 0x05, 0x06]
        var trailer = Trailer()
        var decoder = FieldLayoutDecoder(bytes[...])
        try trailer.layout(&decoder)
        #expect(decoder.reader.isAtEnd)
        #expect(trailer.masks32.rawValue == 0xFFFF_FFFF)
        #expect(trailer.masks64.rawValue == 0x8000_0000_0000_0001)
        #expect(trailer.data == [0x05, 0x06])
        var encoder = FieldLayoutEncoder()
        trailer.layout(&encoder)
        #expect(encoder.bytes == bytes)

        var empty = Trailer()
        var short = FieldLayoutDecoder(bytes.prefix(12))
        try empty.layout(&short)
        #expect(empty.data == [])
    }

    @Test("an encoder appends after what its writer already holds")
    func appends() {
        var writer = ByteWriter(capacity: 4)
        writer.writeUInt8(0x09)
        var encoder = FieldLayoutEncoder(writer: writer)
        writer = ByteWriter(capacity: 0)
        var trailer = Trailer(masks32: SampleMask32(rawValue: 1), masks64: SampleMask64(rawValue: 2), data: [3])
        trailer.layout(&encoder)
        #expect(encoder.writer.bytes == [0x09, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3])
    }
}
