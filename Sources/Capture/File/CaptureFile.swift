/// A capture file held in memory: btsnoop, pcap or pcapng, recognised from its magic number,
/// or Apple PacketLogger, recognised from its first record.
///
/// ```swift
/// let file = try CaptureFile(contentsOf: "hci.btsnoop")
/// var reader = file.makeReader()
/// do {
///     while let record = try reader.next() { print(record) }
/// } catch {
///     print("stopped at offset \(error.offset): \(error)")   // every good record came first
/// }
/// ```
///
/// Creating the file reads and checks only the file header (and, for pcapng, the first
/// Section Header Block); a ``CaptureReader`` then walks the records. `readAll()` collects
/// them with the error that ended the walk, if any.
public struct CaptureFile: Sendable {
    /// The largest record (btsnoop Included Length, pcap Captured Packet Length) this reader
    /// accepts: 262,144 octets, libpcap's and Wireshark's maximum snapshot length. A pcap
    /// file whose SnapLen is larger raises its own limit to SnapLen.
    public static let maximumRecordLength = 262_144

    /// The file's octets.
    public let bytes: [UInt8]
    /// The container format, from the magic number.
    public let format: CaptureFormat
    /// The link type from the file header: the btsnoop datalink, the pcap LinkType (low 16
    /// bits), or the link type of the first pcapng interface (nil when no Interface
    /// Description Block comes before the first packet). Every pcapng record is decoded under
    /// its own interface's link type. Nil for PacketLogger, which has none.
    public let linkType: LinkType?

    let initial: CaptureReader.Parser

    /// Recognises the format and reads the file header.
    ///
    /// - Throws: ``CaptureError/unrecognizedFormat(magic:)`` for an unknown magic number that
    ///   does not start a PacketLogger record either;
    ///   ``CaptureError/truncated(field:offset:needed:available:)`` when the file ends inside
    ///   its header; ``CaptureError/unsupportedVersion(format:offset:version:)``; for pcapng,
    ///   any error of the first Section Header Block.
    public init(bytes: [UInt8]) throws(CaptureError) {
        self.bytes = bytes
        let magic = Array(bytes.prefix(8))
        func matches(_ pattern: [UInt8]) -> Bool { magic.count >= pattern.count && magic.starts(with: pattern) }
        func isPrefix(of pattern: [UInt8]) -> Bool { pattern.starts(with: magic) }

        let pcapMagics: [(octets: [UInt8], bigEndian: Bool, nanosecond: Bool)] = [
            ([0xD4, 0xC3, 0xB2, 0xA1], false, false), ([0xA1, 0xB2, 0xC3, 0xD4], true, false),
            ([0x4D, 0x3C, 0xB2, 0xA1], false, true), ([0xA1, 0xB2, 0x3C, 0x4D], true, true),
        ]
        let pcapngMagic: [UInt8] = [0x0A, 0x0D, 0x0D, 0x0A]

        if matches(BTSnoopParser.identification) {
            let datalink = try BTSnoopParser.readHeader(bytes)
            format = .btsnoop
            linkType = datalink
            initial = .btsnoop(BTSnoopParser(datalink: datalink))
        } else if let pcap = pcapMagics.first(where: { matches($0.octets) }) {
            let parser = try PcapParser(bytes, bigEndian: pcap.bigEndian, nanosecond: pcap.nanosecond)
            format = .pcap
            linkType = parser.linkType
            initial = .pcap(parser)
        } else if matches(pcapngMagic) {
            var parser = PcapNGParser()
            _ = try parser.readBlock(bytes, index: 0)   // the Section Header Block
            format = .pcapng
            initial = .pcapng(parser)
            // The first interface's link type, if one is described before any packet.
            var probe = parser
            var found: LinkType? = nil
            while found == nil, let block = try? probe.readBlock(bytes, index: 0) {
                if case let .interface(interface) = block { found = interface.linkType }
                if case .packet = block { break }
            }
            linkType = found
        } else if let bigEndian = PacketLoggerParser.byteOrder(of: bytes) {
            format = .packetLogger
            linkType = nil
            initial = .packetLogger(PacketLoggerParser(bigEndian: bigEndian))
        } else if magic.isEmpty {
            throw .unrecognizedFormat(magic: [])   // "the file is empty"
        } else if magic.count < 8, isPrefix(of: BTSnoopParser.identification) {
            throw .truncated(field: "btsnoop file header", offset: 0, needed: BTSnoopParser.headerLength, available: magic.count)
        } else if magic.count < 4, pcapMagics.contains(where: { isPrefix(of: $0.octets) }) {
            throw .truncated(field: "pcap file header", offset: 0, needed: PcapParser.headerLength, available: magic.count)
        } else if magic.count < 4, isPrefix(of: pcapngMagic) {
            throw .truncated(field: "pcapng block header", offset: 0, needed: 8, available: magic.count)
        } else {
            throw .unrecognizedFormat(magic: magic)
        }
    }

    /// A reader positioned at the first record.
    public func makeReader() -> CaptureReader { CaptureReader(bytes: bytes, parser: initial) }

    /// Every record, and the error that stopped the reading early (nil when the file was
    /// read to its end).
    public func readAll() -> CaptureReadResult {
        var reader = makeReader()
        var records: [CaptureRecord] = []
        do {
            while let record = try reader.next() { records.append(record) }
            return CaptureReadResult(records: records, error: nil)
        } catch {
            return CaptureReadResult(records: records, error: error)
        }
    }
}

/// The records of a file read to its end or to its first framing error.
public struct CaptureReadResult: Sendable {
    /// The records before the error (all of them when ``error`` is nil).
    public var records: [CaptureRecord]
    /// Why reading stopped early; nil when every octet of the file was read.
    public var error: CaptureError?
}
