import BLECore

/// Why a capture file could not be read past some point.
///
/// Offsets are file offsets: octets from the first octet of the file. A reader throws one of
/// these only after it has returned every good record before the offset; see ``CaptureReader``.
///
/// Its cases are stored out of line (`indirect`): a ``CaptureRecord`` carries an optional one
/// (``CaptureRecord/timestampError``), and records are copied once or twice each as they are read.
public indirect enum CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file starts with none of the magic numbers this reader knows (btsnoop
    /// "btsnoop\0", pcap 0xA1B2C3D4 / 0xA1B23C4D in either byte order, pcapng 0x0A0D0D0A),
    /// nor with a PacketLogger record (``CaptureFormat/packetLogger``).
    /// `magic` holds the first (up to 8) octets.
    case unrecognizedFormat(magic: [UInt8])
    /// The file's format is known but its version is not (btsnoop version other than 1,
    /// pcap major version other than 2, pcapng major version other than 1).
    case unsupportedVersion(format: CaptureFormat, offset: Int, version: String)
    /// The file ends inside a header, a record or a block.
    ///
    /// - Parameters:
    ///   - field: the structure being read, in the format's terms (for example "Packet Data").
    ///   - offset: where that structure starts.
    ///   - needed: the octets it needs.
    ///   - available: the octets left in the file at `offset`.
    case truncated(field: String, offset: Int, needed: Int, available: Int)
    /// A length field holds a value no valid file can have (bigger than the format's maximum,
    /// smaller than the structure's own header, not a multiple of 4 where one is required,
    /// or running past its enclosing block).
    case invalidLength(field: String, offset: Int, length: UInt64, reason: String)
    /// A field holds a value the format does not allow (a byte-order magic, a block trailer
    /// that disagrees with its header, an interface that was never described, a timestamp
    /// that does not fit in 64 bits of microseconds).
    case invalidValue(field: String, offset: Int, reason: String)
    /// The file could not be read from disk.
    case unreadableFile(path: String, reason: String)

    /// The file offset the error refers to (0 for ``unrecognizedFormat(magic:)`` and
    /// ``unreadableFile(path:reason:)``).
    public var offset: Int {
        switch self {
        case .unrecognizedFormat, .unreadableFile: return 0
        case .unsupportedVersion(_, let offset, _), .truncated(_, let offset, _, _),
             .invalidLength(_, let offset, _, _), .invalidValue(_, let offset, _):
            return offset
        }
    }

    /// A decoding error of a ``ByteReader`` that ran over the whole file: its offsets already
    /// are file offsets.
    init(_ error: BLEDecodingError) {
        switch error {
        case let .truncated(field, offset, needed, available):
            self = .truncated(field: field, offset: offset, needed: needed, available: available)
        case let .invalidValue(field, offset, reason):
            self = .invalidValue(field: field, offset: offset, reason: reason)
        case let .unexpectedTrailingOctets(offset, count):
            self = .invalidLength(field: "Trailing octets", offset: offset, length: UInt64(count),
                                  reason: "octets after the last field")
        }
    }

    public var description: String {
        switch self {
        case let .unrecognizedFormat(magic) where magic.isEmpty:
            return "the file is empty"
        case let .unrecognizedFormat(magic):
            return "not a btsnoop, pcap, pcapng or PacketLogger file (starts with \(Hex.encode(magic, separator: " ")))"
        case let .unsupportedVersion(format, offset, version):
            return "\(format) version \(version) at offset \(offset) is not supported"
        case let .truncated(field, offset, needed, available):
            return "\(field) at offset \(offset) needs \(needed) octet\(needed == 1 ? "" : "s"), \(available) left in the file"
        case let .invalidLength(field, offset, length, reason):
            return "\(field) at offset \(offset) is \(length): \(reason)"
        case let .invalidValue(field, offset, reason):
            return "\(field) at offset \(offset): \(reason)"
        case let .unreadableFile(path, reason):
            return "cannot read \(path): \(reason)"
        }
    }
}
