import BLECore

/// Cuts an H4 byte stream (a UART, a TCP socket, a pty) into HCI packets and, unlike
/// ``H4StreamDeframer``, finds its way back after garbage (Core v5.4, Vol 4, Part A, 2; packet
/// headers in Vol 4, Part E, 5.4).
///
/// Feed it chunks of any size, split anywhere; each ``append(_:)`` returns, in stream order, the
/// packets completed so far and the runs of octets skipped (``H4SkippedOctets``: where, how many,
/// why). Nothing is dropped without a report.
///
/// An octet can start a packet when it is a known indicator (0x01...0x05) whose header, once all
/// there, announces at most ``maximumPacketSize`` octets. Any other octet is skipped, one at a
/// time, so a good packet right after garbage is found at its first octet. Consecutive skipped
/// octets make one run, reported when the next plausible packet start has shown its header, or
/// when the run reaches ``longestSkip`` octets (then a new run begins), or at ``finish()``. The
/// reports are the same however the stream is cut into chunks.
///
/// H4 has no checksum: garbage that happens to look like a header (an event indicator and a
/// length) is taken for a packet, and a length that runs into the next packet cannot be seen.
/// The spec's recovery from a lost synchronisation is HCI_Reset (Vol 4, Part A, 4); this reader
/// keeps delivering what it can frame so that the host can see a Hardware Error event and send
/// that reset.
///
/// Memory is bounded whatever the input: the reader holds at most one unfinished packet (at
/// most 1 + ``maximumPacketSize`` octets) beyond the slice of the chunk being framed, and a run
/// of skipped octets is only counted.
///
/// ```swift
/// var reader = H4StreamReader()
/// reader.append([0xFF, 0xFF, 0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
/// // [.skipped(skipped 2 octets at stream offset 0: unknown H4 packet indicator 0xff),
/// //  .packet(.event(Command Complete, Reset))]
/// ```
public struct H4StreamReader: Sendable {
    /// What the reader found in the stream, in stream order.
    public enum Element: Hashable, Sendable {
        /// A whole packet.
        case packet(HCIPacket)
        /// Octets skipped because they could not start a packet.
        case skipped(H4SkippedOctets)
    }

    /// The largest packet accepted, header included and indicator excluded, in octets.
    public let maximumPacketSize: Int
    /// The longest run of skipped octets reported as one; a longer run is reported in parts.
    public let longestSkip: Int

    /// The octets taken from chunks at once: bounds the copy of a huge chunk.
    static let sliceSize = 64 * 1024

    private var buffer: [UInt8] = []
    private var start = 0
    private var offset = 0
    private var runStart = 0
    private var runCount = 0
    private var runReason: H4SkippedOctets.Reason?

    /// A reader accepting packets up to `maximumPacketSize` octets (by default the largest an
    /// ACL header can announce: 4 + 65535; a controller's LE ACL buffer size, plus 4, frames more
    /// tightly) and reporting runs of skipped octets at least every `longestSkip` octets.
    public init(maximumPacketSize: Int = 4 + 0xFFFF, longestSkip: Int = 4096) {
        self.maximumPacketSize = max(2, maximumPacketSize)
        self.longestSkip = max(1, longestSkip)
    }

    /// Octets received and not yet reported: an unfinished packet, or the start of one.
    public var pendingCount: Int { buffer.count - start }

    /// Octets skipped in the run still open, not yet reported (the run is reported when it ends).
    public var unreportedSkippedCount: Int { runReason == nil ? 0 : runCount }

    /// The stream offset of the next octet to frame (octets appended and already framed or skipped).
    public var streamOffset: Int { offset }

    /// Appends `chunk` (a reader's buffer, cut to what read(2) returned) and returns every
    /// packet it completes and every run of skipped octets it ends, in stream order: as
    /// ``append(_:)-(C)``, without the generic dispatch a caller in another module would pay
    /// per chunk.
    public mutating func append(_ chunk: ArraySlice<UInt8>) -> [Element] { appendChunk(chunk) }

    /// Appends `chunk` and returns every packet it completes and every run of skipped octets it
    /// ends, in stream order.
    public mutating func append<C: Collection>(_ chunk: C) -> [Element] where C.Element == UInt8 { appendChunk(chunk) }

    private mutating func appendChunk<C: Collection>(_ chunk: C) -> [Element] where C.Element == UInt8 {
        var elements: [Element] = []
        var index = chunk.startIndex
        while index != chunk.endIndex {
            let end = chunk.index(index, offsetBy: Self.sliceSize, limitedBy: chunk.endIndex) ?? chunk.endIndex
            if start > 0 && start >= buffer.count / 2 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            buffer.append(contentsOf: chunk[index..<end])
            index = end
            while let element = next() { elements.append(element) }
        }
        return elements
    }

    /// Ends the stream: reports the open run of skipped octets and the unfinished packet, if any
    /// (as ``H4SkippedOctets/Reason/cutByEndOfStream(type:)``). The reader is then as new, its
    /// stream offsets counting from 0 again.
    public mutating func finish() -> [H4SkippedOctets] {
        var reports: [H4SkippedOctets] = []
        if let run = endRun() { reports.append(run) }
        if start < buffer.count {
            // Unknown indicators are skipped at once, so what waits starts with a known one.
            reports.append(H4SkippedOctets(streamOffset: offset, count: buffer.count - start,
                                           reason: .cutByEndOfStream(type: HCIPacketType(rawValue: buffer[start]))))
        }
        self = H4StreamReader(maximumPacketSize: maximumPacketSize, longestSkip: longestSkip)
        return reports
    }

    /// The next packet or report, or nil when more octets are needed.
    private mutating func next() -> Element? {
        while true {
            switch H4PacketHeader.read(buffer, at: start, maximumSize: maximumPacketSize) {
            case .needsMore:
                return nil
            case .unknownIndicator(let value):
                if let full = skip(.unknownPacketIndicator(value)) { return .skipped(full) }
            case let .tooLarge(type, size):
                if let full = skip(.packetTooLarge(type: type, size: size, maximum: maximumPacketSize)) { return .skipped(full) }
            case let .packet(type, size):
                // A plausible start ends the run before it, even if its body is still to come.
                if let run = endRun() { return .skipped(run) }
                let body = start + 1
                guard buffer.count - body >= size else { return nil }
                do {
                    let packet = try HCIPacket(type: type, payload: buffer[body..<(body + size)])
                    start = body + size
                    offset &+= 1 &+ size
                    return .packet(packet)
                } catch {
                    if let full = skip(.malformedPacket(type: type, error: error)) { return .skipped(full) }
                }
            }
        }
    }

    /// Skips the octet at `start` into the open run (opening one for `reason` when none is);
    /// returns the run once it has reached ``longestSkip`` octets.
    private mutating func skip(_ reason: H4SkippedOctets.Reason) -> H4SkippedOctets? {
        if runReason == nil {
            runReason = reason
            runStart = offset
            runCount = 0
        }
        runCount += 1
        start += 1
        offset &+= 1
        return runCount >= longestSkip ? endRun() : nil
    }

    /// Closes the open run of skipped octets and returns it; nil when none is open.
    private mutating func endRun() -> H4SkippedOctets? {
        guard let reason = runReason else { return nil }
        runReason = nil
        return H4SkippedOctets(streamOffset: runStart, count: runCount, reason: reason)
    }
}
