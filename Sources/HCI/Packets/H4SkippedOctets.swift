import BLECore

/// A run of octets that an ``H4StreamReader`` skipped because they could not be the start of a
/// packet: where the run began in the stream, how long it is, and why its first octet was
/// refused (Core v5.4, Vol 4, Part A, 2: an H4 stream is packet indicator, header, body, with
/// nothing between packets).
///
/// ```swift
/// // "skipped 3 octets at stream offset 7: unknown H4 packet indicator 0xff"
/// H4SkippedOctets(streamOffset: 7, count: 3, reason: .unknownPacketIndicator(0xFF)).description
/// ```
public struct H4SkippedOctets: Hashable, Sendable, CustomStringConvertible {
    /// Why the first octet of a run was not the start of a packet.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The octet where a packet indicator was expected is not 0x01...0x05.
        case unknownPacketIndicator(UInt8)
        /// A known indicator whose header announces `size` octets (header and body, without the
        /// indicator), more than the reader's `maximum`.
        case packetTooLarge(type: HCIPacketType, size: Int, maximum: Int)
        /// A packet delimited by its header did not decode (packet decoders check only what the
        /// header fixed, so this does not happen; it keeps the reader from ever trapping).
        case malformedPacket(type: HCIPacketType, error: BLEDecodingError)
        /// The stream ended inside a packet of `type` (only from ``H4StreamReader/finish()``).
        case cutByEndOfStream(type: HCIPacketType)

        /// The reason on one line.
        public var description: String {
            switch self {
            case .unknownPacketIndicator(let value):
                return "unknown H4 packet indicator 0x\(Hex.encode([value]))"
            case let .packetTooLarge(type, size, maximum):
                return "\(type) header announcing \(size) octets, more than the maximum of \(maximum)"
            case let .malformedPacket(type, error):
                return "\(type) packet that does not decode: \(error)"
            case .cutByEndOfStream(let type):
                return "\(type) packet cut by the end of the stream"
            }
        }
    }

    /// Where the run's first octet was, counted in octets from the reader's first (0-based).
    public let streamOffset: Int
    /// How many octets were skipped, at least 1.
    public let count: Int
    /// Why the run's first octet was refused.
    public let reason: Reason

    /// A run of `count` octets from `streamOffset`, skipped for `reason`.
    public init(streamOffset: Int, count: Int, reason: Reason) {
        self.streamOffset = streamOffset
        self.count = count
        self.reason = reason
    }

    /// "skipped N octets at stream offset O: REASON".
    public var description: String {
        "skipped \(count) octet\(count == 1 ? "" : "s") at stream offset \(streamOffset): \(reason)"
    }
}
