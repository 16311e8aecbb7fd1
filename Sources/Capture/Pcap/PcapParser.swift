import BLECore

/// Reads pcap (libpcap savefile) records (draft-ietf-opsawg-pcap).
///
/// File header, 24 octets: Magic Number (4: 0xA1B2C3D4 for microsecond timestamps,
/// 0xA1B23C4D for nanoseconds; read in the writer's byte order, which it reveals), Major
/// Version (2, must be 2), Minor Version (2), two reserved fields (4 + 4, historically
/// thiszone and sigfigs, ignored as libpcap does), SnapLen (4), LinkType and additional
/// information (4: the link type in the low 16 bits, FCS information above). Each record:
/// Timestamp seconds (4), Timestamp microseconds or nanoseconds (4), Captured Packet Length
/// (4), Original Packet Length (4), then the captured octets, no padding.
struct PcapParser: Sendable {
    static let headerLength = 24
    static let recordHeaderLength = 16

    let bigEndian: Bool
    let nanosecond: Bool
    let snapLength: UInt32
    let linkType: LinkType
    var offset = PcapParser.headerLength

    /// Reads the 24-octet file header; the magic has been matched already.
    init(_ bytes: [UInt8], bigEndian: Bool, nanosecond: Bool) throws(CaptureError) {
        guard bytes.count >= Self.headerLength else {
            throw .truncated(field: "pcap file header", offset: 0, needed: Self.headerLength, available: bytes.count)
        }
        let major = bytes.loadUInt16(at: 4, bigEndian: bigEndian)
        let minor = bytes.loadUInt16(at: 6, bigEndian: bigEndian)
        guard major == 2 else { throw .unsupportedVersion(format: .pcap, offset: 4, version: "\(major).\(minor)") }
        self.bigEndian = bigEndian
        self.nanosecond = nanosecond
        snapLength = bytes.loadUInt32(at: 16, bigEndian: bigEndian)
        linkType = LinkType(rawValue: bytes.loadUInt32(at: 20, bigEndian: bigEndian) & 0xFFFF)
    }

    mutating func next(_ bytes: [UInt8], index: Int) throws(CaptureError) -> CaptureRecord? {
        let start = offset
        let remaining = bytes.count - start
        if remaining == 0 { return nil }
        guard remaining >= Self.recordHeaderLength else {
            throw .truncated(field: "pcap record header", offset: start, needed: Self.recordHeaderLength, available: remaining)
        }
        let seconds = Int64(bytes.loadUInt32(at: start, bigEndian: bigEndian))
        let fraction = Int64(bytes.loadUInt32(at: start + 4, bigEndian: bigEndian))
        let capturedLength = bytes.loadUInt32(at: start + 8, bigEndian: bigEndian)
        let originalLength = bytes.loadUInt32(at: start + 12, bigEndian: bigEndian)
        let limit = max(UInt32(CaptureFile.maximumRecordLength), snapLength)
        guard capturedLength <= limit else {
            throw .invalidLength(field: "Captured Packet Length", offset: start + 8, length: UInt64(capturedLength),
                                 reason: "more than the \(limit)-octet maximum record")
        }
        let dataStart = start + Self.recordHeaderLength
        let count = Int(capturedLength)
        guard bytes.count - dataStart >= count else {
            throw .truncated(field: "Packet Data", offset: dataStart, needed: count, available: bytes.count - dataStart)
        }
        offset = dataStart + count

        // Both fields are at most 2^32 - 1, so none of this can overflow 64 bits.
        let timestamp: Int64
        var subMicrosecond: UInt16 = 0
        if nanosecond {
            timestamp = seconds * 1_000_000 + fraction / 1000
            subMicrosecond = UInt16(fraction % 1000)
        } else {
            timestamp = seconds * 1_000_000 + fraction
        }
        let decoded = LinkTypeDecoding.decode(bytes[dataStart..<(dataStart + count)], linkType: linkType)
        return CaptureRecord(index: index, timestamp: timestamp, subMicrosecondNanoseconds: subMicrosecond,
                             direction: decoded.direction, controllerIndex: decoded.controllerIndex,
                             packet: decoded.packet, originalLength: Int(originalLength), capturedLength: count)
    }
}
