import BLECore
import HCI

/// Reads btsnoop version 1 records (the btsnoop format: RFC 1761 snoop version 2's layout
/// with Bluetooth datalinks).
///
/// File header, 16 octets: identification pattern "btsnoop\0" (8), version (4, big-endian,
/// 1), datalink (4, big-endian). Each record: Original Length (4), Included Length (4),
/// Packet Flags (4), Cumulative Drops (4), Timestamp (8, signed microseconds since the
/// nominal midnight of 0000-01-01; see ``unixEpochOffset``), then Included Length octets of
/// packet data; every field big-endian, no padding.
///
/// Packet Flags: bit 0 is the direction (0 sent by the host, 1 received) and bit 1 tells
/// commands and events (1) from data (0), for datalinks 1001 and 1002; for datalink 2001
/// (Linux monitor) the flags are controller index << 16 | monitor opcode.
struct BTSnoopParser: Sendable {
    static let identification: [UInt8] = Array("btsnoop".utf8) + [0]
    static let headerLength = 16
    static let recordHeaderLength = 24
    /// Microseconds from the btsnoop epoch to the Unix epoch: 0x00DCDDB30F2F8000, exactly
    /// 719,540 days of 86,400 s. This is the value BlueZ and Android write and Wireshark reads;
    /// note that it is 12 days more than the proleptic Gregorian count from 0000-01-01 to
    /// 1970-01-01 (719,528 days), so "0 AD" in the btsnoop documentation is nominal.
    static let unixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    let datalink: LinkType
    var offset = BTSnoopParser.headerLength

    init(datalink: LinkType) { self.datalink = datalink }

    /// Reads the 16-octet file header.
    static func readHeader(_ bytes: [UInt8]) throws(CaptureError) -> LinkType {
        guard bytes.count >= headerLength else {
            throw .truncated(field: "btsnoop file header", offset: 0, needed: headerLength, available: bytes.count)
        }
        let version = bytes.loadUInt32(at: 8, bigEndian: true)
        guard version == 1 else { throw .unsupportedVersion(format: .btsnoop, offset: 8, version: String(version)) }
        return LinkType(rawValue: bytes.loadUInt32(at: 12, bigEndian: true))
    }

    mutating func next(_ bytes: [UInt8], index: Int) throws(CaptureError) -> CaptureRecord? {
        let start = offset
        let remaining = bytes.count - start
        if remaining == 0 { return nil }
        guard remaining >= Self.recordHeaderLength else {
            throw .truncated(field: "btsnoop record header", offset: start, needed: Self.recordHeaderLength, available: remaining)
        }
        let originalLength = bytes.loadUInt32(at: start, bigEndian: true)
        let includedLength = bytes.loadUInt32(at: start + 4, bigEndian: true)
        let flags = bytes.loadUInt32(at: start + 8, bigEndian: true)
        let drops = bytes.loadUInt32(at: start + 12, bigEndian: true)
        let rawTimestamp = Int64(bitPattern: bytes.loadUInt64(at: start + 16, bigEndian: true))
        guard includedLength <= CaptureFile.maximumRecordLength else {
            throw .invalidLength(field: "Included Length", offset: start + 4, length: UInt64(includedLength),
                                 reason: "more than the \(CaptureFile.maximumRecordLength)-octet maximum record")
        }
        let dataStart = start + Self.recordHeaderLength
        let count = Int(includedLength)
        guard bytes.count - dataStart >= count else {
            throw .truncated(field: "Packet Data", offset: dataStart, needed: count, available: bytes.count - dataStart)
        }
        // A timestamp outside the 64-bit range damages only itself: the record is framed, so it
        // is kept, with the error and timestamp 0, and reading goes on.
        var (timestamp, overflow) = rawTimestamp.subtractingReportingOverflow(Self.unixEpochOffset)
        var timestampError: CaptureError?
        if overflow {
            timestamp = 0
            timestampError = .invalidValue(field: "Timestamp", offset: start + 16,
                                           reason: "\(rawTimestamp) us since year 0 is before the 64-bit range")
        }
        let data = bytes[dataStart..<(dataStart + count)]
        offset = dataStart + count

        let decoded = decode(data, flags: flags)
        return CaptureRecord(index: index, timestamp: timestamp, direction: decoded.direction,
                             controllerIndex: decoded.controllerIndex, cumulativeDrops: drops,
                             packet: decoded.packet, originalLength: Int(originalLength), capturedLength: count,
                             timestampError: timestampError)
    }

    private func decode(_ data: ArraySlice<UInt8>, flags: UInt32) -> DecodedPayload {
        let direction: CaptureDirection = flags & 1 == 0 ? .hostToController : .controllerToHost
        switch datalink {
        case .btsnoopH4:
            return DecodedPayload(packet: LinkTypeDecoding.h4(data, linkType: datalink), direction: direction)
        case .btsnoopHCI:
            // Un-encapsulated HCI has no packet indicator: bit 1 marks commands (sent) and
            // events (received); data cannot be told apart and is taken as ACL.
            let type: HCIPacketType = flags & 2 == 0 ? .acl : (flags & 1 == 0 ? .command : .event)
            return DecodedPayload(packet: .hci(type: type, payload: Array(data)), direction: direction)
        case .btsnoopMonitor:
            return LinkTypeDecoding.monitor(opcode: MonitorOpcode(rawValue: UInt16(truncatingIfNeeded: flags)),
                                            index: UInt16(truncatingIfNeeded: flags >> 16), payload: data)
        default:
            return DecodedPayload(packet: .unsupported(linkType: datalink, payload: Array(data)), direction: direction)
        }
    }
}
