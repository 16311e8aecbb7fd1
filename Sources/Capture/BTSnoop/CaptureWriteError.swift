/// Why a record could not be written to a capture file.
public enum CaptureWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The writer does not produce this datalink (only ``LinkType/btsnoopH4`` and
    /// ``LinkType/btsnoopMonitor`` are written).
    case unsupportedDatalink(LinkType)
    /// The record has no representation in the datalink (for example a monitor note in an H4
    /// file, an LE link-layer packet in any btsnoop file, or an ACL packet whose direction is
    /// unknown).
    case notRepresentable(recordIndex: Int, reason: String)
    /// The timestamp does not fit the file's field (btsnoop: 64-bit microseconds since the
    /// btsnoop epoch; PacketLogger: unsigned 32-bit seconds since the Unix epoch).
    case timestampOutOfRange(recordIndex: Int, timestamp: Int64)
    /// The packet is longer than ``CaptureFile/maximumRecordLength``, which readers refuse.
    case recordTooLong(recordIndex: Int, length: Int)
    /// The capture file could not be created or opened for writing (`reason` is the system's).
    case fileNotWritable(path: String, reason: String)

    public var description: String {
        switch self {
        case let .unsupportedDatalink(datalink):
            return "cannot write \(datalink) files"
        case let .notRepresentable(index, reason):
            return "record \(index) cannot be written: \(reason)"
        case let .timestampOutOfRange(index, timestamp):
            return "record \(index): timestamp \(timestamp) us does not fit the file's timestamp field"
        case let .fileNotWritable(path, reason):
            return "cannot write the capture file \(path): \(reason)"
        case let .recordTooLong(index, length):
            return "record \(index): \(length) octets is more than the \(CaptureFile.maximumRecordLength)-octet maximum"
        }
    }
}
