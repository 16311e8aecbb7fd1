import BLECore
import HCI

/// Writes Apple PacketLogger (.pklg) files in either format: the older big-endian one or the
/// later little-endian one (see ``PacketLoggerRecordHeader`` for the record layout, which the
/// reader shares).
///
/// ```swift
/// var writer = PacketLoggerWriter(bigEndian: false)
/// for record in records { try writer.append(record) }
/// try Data(writer.bytes).write(to: url)
/// ```
///
/// What each record becomes: an ``CapturedPacket/hci(type:payload:)`` record is written with
/// the Packet Type of its type and direction (commands and events whatever the direction says;
/// ACL and SCO data need a known direction); a ``CapturedPacket/packetLogger(type:payload:)``
/// record keeps its type. Timestamps must be between 1970 and 2106 (unsigned 32-bit seconds).
public struct PacketLoggerWriter: Sendable {
    /// True for the older big-endian format, false for the later little-endian one.
    public let bigEndian: Bool
    /// The file so far: every appended record (the format has no file header).
    public private(set) var bytes: [UInt8] = []
    /// How many records were appended.
    public private(set) var recordCount = 0

    /// An empty file in the given byte order.
    public init(bigEndian: Bool) { self.bigEndian = bigEndian }

    /// Appends one record.
    ///
    /// - Throws: ``CaptureWriteError/notRepresentable(recordIndex:reason:)`` for a packet
    ///   PacketLogger has no type for (ISO data, an LE link-layer packet, data with an unknown
    ///   direction); ``CaptureWriteError/timestampOutOfRange(recordIndex:timestamp:)`` for a
    ///   timestamp before 1970 or after 2106; ``CaptureWriteError/recordTooLong(recordIndex:length:)``
    ///   past ``CaptureFile/maximumRecordLength``. The file is then unchanged.
    public mutating func append(_ record: CaptureRecord) throws(CaptureWriteError) {
        let type: PacketLoggerPacketType
        let payload: [UInt8]
        switch record.packet {
        case let .hci(hciType, octets):
            guard let t = PacketLoggerPacketType.forHCIPacket(hciType, direction: record.direction) else {
                throw .notRepresentable(recordIndex: record.index,
                                        reason: "PacketLogger has no type for an HCI \(hciType) packet, \(record.direction)")
            }
            type = t
            payload = octets
        case let .packetLogger(t, octets):
            type = t
            payload = octets
        default:
            throw .notRepresentable(recordIndex: record.index, reason: "\(record.packet) has no PacketLogger form")
        }
        guard payload.count <= CaptureFile.maximumRecordLength else {
            throw .recordTooLong(recordIndex: record.index, length: payload.count)
        }
        let seconds = record.timestamp >= 0 ? record.timestamp / 1_000_000 : -1
        guard seconds >= 0, seconds <= Int64(UInt32.max) else {
            throw .timestampOutOfRange(recordIndex: record.index, timestamp: record.timestamp)
        }
        let header = PacketLoggerRecordHeader(length: UInt32(PacketLoggerRecordHeader.lengthBeforePayload + payload.count),
                                              seconds: UInt32(seconds),
                                              microseconds: UInt32(record.timestamp % 1_000_000), type: type)
        bytes += header.encoded(bigEndian: bigEndian)
        bytes += payload
        recordCount += 1
    }

    /// A whole file of `records`.
    ///
    /// - Throws: the first record's ``CaptureWriteError``.
    public static func encode<S: Sequence>(_ records: S, bigEndian: Bool) throws(CaptureWriteError) -> [UInt8]
    where S.Element == CaptureRecord {
        var writer = PacketLoggerWriter(bigEndian: bigEndian)
        for record in records { try writer.append(record) }
        return writer.bytes
    }
}
