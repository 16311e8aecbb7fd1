import BLECore
import HCI

/// Writes btsnoop version 1 files with datalink 1002 (H4) or 2001 (Linux monitor), the
/// layout ``CaptureFile`` reads (see the btsnoop format notes there).
///
/// ```swift
/// var writer = try BTSnoopWriter(datalink: .btsnoopH4)
/// for record in records { try writer.append(record) }
/// try Data(writer.bytes).write(to: url)
/// ```
///
/// What each record becomes:
/// - H4 (1002): an ``CapturedPacket/hci(type:payload:)`` record is its packet indicator and
///   packet. Packet Flags bit 0 is the direction (received = 1) and bit 1 is set for commands
///   and events. A command with an unknown direction is written as sent, an event as
///   received; other packets need a known direction.
/// - Monitor (2001): HCI packets get the monitor opcode for their type and direction and
///   the record's controller index (0 when it has none); ``CapturedPacket/monitor(opcode:payload:)``
///   records keep their opcode.
/// - In both, a ``CapturedPacket/malformed(linkType:payload:error:)`` or
///   ``CapturedPacket/unsupported(linkType:payload:)`` record of the same datalink is written
///   back as its stored octets, so a file reads, writes and reads again unchanged.
///
/// Original Length is the written length plus however many octets the record had lost to
/// truncation; Cumulative Drops is the record's value, or 0.
public struct BTSnoopWriter: Sendable {
    /// ``LinkType/btsnoopH4`` or ``LinkType/btsnoopMonitor``.
    public let datalink: LinkType
    private var writer: ByteWriter
    /// The file so far: the 16-octet header, then every appended record.
    public var bytes: [UInt8] { writer.bytes }
    /// How many records were appended.
    public private(set) var recordCount = 0

    /// A writer holding just the file header.
    ///
    /// - Throws: ``CaptureWriteError/unsupportedDatalink(_:)`` for a datalink other than 1002 or 2001.
    public init(datalink: LinkType) throws(CaptureWriteError) {
        guard datalink == .btsnoopH4 || datalink == .btsnoopMonitor else { throw .unsupportedDatalink(datalink) }
        self.datalink = datalink
        var w = ByteWriter(capacity: 4096)
        w.writeBytes(BTSnoopParser.identification)
        w.writeBigEndian(1, count: 4)
        w.writeBigEndian(UInt64(datalink.rawValue), count: 4)
        writer = w
    }

    /// Appends one record.
    ///
    /// - Throws: ``CaptureWriteError`` when the record cannot be expressed in the datalink,
    ///   its timestamp is out of range, or it is too long; the file is then unchanged.
    public mutating func append(_ record: CaptureRecord) throws(CaptureWriteError) {
        try write(record, to: &writer)
        recordCount += 1
    }

    /// One record's octets alone, without the file header: what ``append(_:)`` adds to
    /// ``bytes``, for a writer that streams records to a file as they come
    /// (``CapturingHCITransport``), so nothing accumulates.
    ///
    /// - Throws: as ``append(_:)``.
    public func encode(_ record: CaptureRecord) throws(CaptureWriteError) -> [UInt8] {
        var w = ByteWriter(capacity: 24 + 1 + record.capturedLength)
        try write(record, to: &w)
        return w.bytes
    }

    /// Writes `record` to `writer`, after every check: a record that cannot be written leaves
    /// `writer` unchanged.
    private func write(_ record: CaptureRecord, to writer: inout ByteWriter) throws(CaptureWriteError) {
        let index = record.index
        let (flags, prefix, payload) = try encodeFlags(record)
        let included = (prefix == nil ? 0 : 1) + payload.count
        guard included <= CaptureFile.maximumRecordLength else { throw .recordTooLong(recordIndex: index, length: included) }
        let (timestamp, overflow) = record.timestamp.addingReportingOverflow(BTSnoopParser.unixEpochOffset)
        guard !overflow else { throw .timestampOutOfRange(recordIndex: index, timestamp: record.timestamp) }
        let lost = max(0, record.originalLength - record.capturedLength)
        let original = UInt64(min(included + lost, Int(UInt32.max)))

        writer.writeBigEndian(original, count: 4)
        writer.writeBigEndian(UInt64(included), count: 4)
        writer.writeBigEndian(UInt64(flags), count: 4)
        writer.writeBigEndian(UInt64(record.cumulativeDrops ?? 0), count: 4)
        writer.writeBigEndian(UInt64(bitPattern: timestamp), count: 8)
        if let prefix { writer.writeUInt8(prefix) }
        writer.writeBytes(payload)
    }

    /// A whole file of `records`.
    ///
    /// - Throws: the first record's ``CaptureWriteError``.
    public static func encode<S: Sequence>(_ records: S, datalink: LinkType) throws(CaptureWriteError) -> [UInt8]
    where S.Element == CaptureRecord {
        var writer = try BTSnoopWriter(datalink: datalink)
        for record in records { try writer.append(record) }
        return writer.bytes
    }

    /// Packet Flags, the H4 packet indicator (nil when none is written), and the packet octets.
    private func encodeFlags(_ record: CaptureRecord) throws(CaptureWriteError) -> (UInt32, UInt8?, [UInt8]) {
        let received: UInt32 = record.direction == .controllerToHost ? 1 : 0
        switch (datalink, record.packet) {
        case let (.btsnoopH4, .hci(type, payload)):
            let isCommandOrEvent = type == .command || type == .event
            var direction = record.direction
            if direction == .unknown {
                if type == .command { direction = .hostToController }
                else if type == .event { direction = .controllerToHost }
                else {
                    throw .notRepresentable(recordIndex: record.index, reason: "an HCI \(type) packet with an unknown direction")
                }
            }
            let flags = (direction == .controllerToHost ? 1 : 0) | (isCommandOrEvent ? 2 : 0) as UInt32
            return (flags, type.rawValue, payload)
        case let (.btsnoopMonitor, .hci(type, payload)):
            guard let opcode = MonitorOpcode.forHCIPacket(type, direction: record.direction) else {
                throw .notRepresentable(recordIndex: record.index,
                                        reason: "no monitor opcode for an HCI \(type) packet, \(record.direction)")
            }
            return (UInt32(record.controllerIndex ?? 0) << 16 | UInt32(opcode.rawValue), nil, payload)
        case let (.btsnoopMonitor, .monitor(opcode, payload)):
            return (UInt32(record.controllerIndex ?? 0) << 16 | UInt32(opcode.rawValue), nil, payload)
        case let (_, .malformed(linkType, payload, _)) where linkType == datalink,
             let (_, .unsupported(linkType, payload)) where linkType == datalink:
            let flags = datalink == .btsnoopMonitor ? UInt32(record.controllerIndex ?? 0) << 16 : received
            return (flags, nil, payload)
        default:
            throw .notRepresentable(recordIndex: record.index, reason: "\(record.packet) has no \(datalink) form")
        }
    }
}
