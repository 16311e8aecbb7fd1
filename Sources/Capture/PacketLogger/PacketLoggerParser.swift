import BLECore
import HCI

/// Reads Apple PacketLogger (.pklg) records, the format of Apple's PacketLogger tool
/// (Additional Tools for Xcode) and of iOS and macOS Bluetooth diagnostics.
///
/// The file has no header: it is a sequence of records, each a ``PacketLoggerRecordHeader``
/// (Length, Seconds, Microseconds, Packet Type) and Length - 9 octets of payload. The older
/// format writes the header's fields big-endian, the later one little-endian; the first
/// record tells which (``byteOrder(of:)``). HCI payloads are HCI packets without an H4
/// packet indicator (Core v5.4, Vol 4, Part E, 5.4); the Packet Type gives the packet type and
/// the direction.
struct PacketLoggerParser: Sendable {
    /// The largest Length a first record may have for the file to be taken for PacketLogger:
    /// the logger's records stay far below it, and a larger value is more likely another format.
    static let largestRecognizedLength: UInt32 = 65_535

    let bigEndian: Bool
    var offset = 0

    init(bigEndian: Bool) { self.bigEndian = bigEndian }

    /// Whether `bytes` starts with a PacketLogger record, and in which byte order: true for the
    /// older big-endian format, false for the later little-endian one, nil for neither.
    ///
    /// The first record must have a whole header, a Length of 9...65,535 octets, Microseconds
    /// below 1,000,000 and a known Packet Type. Only one byte order can pass: a Length below
    /// 65,536 has two zero octets at the end its byte order puts the high octets.
    static func byteOrder(of bytes: [UInt8]) -> Bool? {
        guard bytes.count >= PacketLoggerRecordHeader.length else { return nil }
        for bigEndian in [true, false] {
            let header = PacketLoggerRecordHeader(bytes, at: 0, bigEndian: bigEndian)
            if header.length >= PacketLoggerRecordHeader.lengthBeforePayload, header.length <= largestRecognizedLength,
               header.microseconds < 1_000_000, header.type.isKnown {
                return bigEndian
            }
        }
        return nil
    }

    mutating func next(_ bytes: [UInt8], index: Int) throws(CaptureError) -> CaptureRecord? {
        let start = offset
        let remaining = bytes.count - start
        if remaining == 0 { return nil }
        guard remaining >= PacketLoggerRecordHeader.length else {
            throw .truncated(field: "PacketLogger record header", offset: start, needed: PacketLoggerRecordHeader.length,
                             available: remaining)
        }
        let header = PacketLoggerRecordHeader(bytes, at: start, bigEndian: bigEndian)
        guard header.length >= PacketLoggerRecordHeader.lengthBeforePayload else {
            throw .invalidLength(field: "Length", offset: start, length: UInt64(header.length),
                                 reason: "shorter than the 9 octets of timestamp and Packet Type it counts")
        }
        let count = Int(header.length) - PacketLoggerRecordHeader.lengthBeforePayload
        guard count <= CaptureFile.maximumRecordLength else {
            throw .invalidLength(field: "Length", offset: start, length: UInt64(header.length),
                                 reason: "more than the \(CaptureFile.maximumRecordLength)-octet maximum record")
        }
        let dataStart = start + PacketLoggerRecordHeader.length
        guard bytes.count - dataStart >= count else {
            throw .truncated(field: "Packet Data", offset: dataStart, needed: count, available: bytes.count - dataStart)
        }
        offset = dataStart + count

        // A damaged Microseconds field spoils only the timestamp: the record is framed, so it is
        // kept, with the error and timestamp 0.
        var timestamp = Int64(header.seconds) * 1_000_000 + Int64(header.microseconds)
        var timestampError: CaptureError?
        if header.microseconds >= 1_000_000 {
            timestamp = 0
            timestampError = .invalidValue(field: "Microseconds", offset: start + 8,
                                           reason: "\(header.microseconds) is not below 1,000,000")
        }
        let payload = Array(bytes[dataStart..<offset])
        let packet: CapturedPacket
        var direction = CaptureDirection.unknown
        if let (type, way) = header.type.hciPacket {
            packet = .hci(type: type, payload: payload)
            direction = way
        } else {
            packet = .packetLogger(type: header.type, payload: payload)
        }
        // The record's octets after the timestamp: Packet Type and payload.
        let length = 1 + count
        return CaptureRecord(index: index, timestamp: timestamp, direction: direction, packet: packet,
                             originalLength: length, capturedLength: length, timestampError: timestampError)
    }
}
