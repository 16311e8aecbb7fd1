import BLECore

/// Cuts an H4 byte stream (a UART, a TCP socket, a pty) into HCI packets
/// (Core v5.4, Vol 4, Part A, 2).
///
/// Feed it chunks of any size, split anywhere; it returns every packet completed so far. The
/// length of each packet comes from its header: one octet for commands (Parameter_Total_Length),
/// events (Parameter_Total_Length) and synchronous data (Data_Total_Length); two octets for ACL
/// data (Data_Total_Length) and ISO data (ISO_Data_Load_Length, its low 14 bits).
///
/// An unknown packet indicator, or a header that announces a packet larger than
/// ``maximumPacketSize``, means the stream has lost its framing: the deframer throws and keeps
/// throwing the same error until ``reset()``. ``H4StreamReader`` frames alike but skips such
/// octets, reports them, and goes on (host mode's live streams use it).
///
/// ```swift
/// var deframer = H4StreamDeframer()
/// for packet in try deframer.append([0x04, 0x0E, 0x04, 0x01]) { ... }   // nothing yet
/// for packet in try deframer.append([0x03, 0x0C, 0x00]) { ... }         // one event
/// ```
public struct H4StreamDeframer: Sendable {
    /// Why a stream could not be framed.
    public enum Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// The octet where a packet indicator was expected is not 0x01...0x05.
        /// `streamOffset` counts octets from the first ever appended (or from the last reset).
        case unknownPacketIndicator(UInt8, streamOffset: Int)
        /// A header announces a packet (header and body, without indicator) of `size` octets,
        /// more than `maximum`.
        case packetTooLarge(type: HCIPacketType, size: Int, maximum: Int, streamOffset: Int)
        /// A packet delimited by its header failed to decode. Packet decoders check only the
        /// lengths the header already fixed, so this does not happen; it exists so that the
        /// deframer never traps.
        case malformedPacket(type: HCIPacketType, error: BLEDecodingError, streamOffset: Int)

        /// The value on one line, for logs and capture decoders.
        public var description: String {
            switch self {
            case let .unknownPacketIndicator(value, offset):
                return "unknown H4 packet indicator 0x\(Hex.encode([value])) at stream offset \(offset)"
            case let .packetTooLarge(type, size, maximum, offset):
                return "\(type) packet of \(size) octets at stream offset \(offset) exceeds the maximum of \(maximum)"
            case let .malformedPacket(type, error, offset):
                return "\(type) packet at stream offset \(offset): \(error)"
            }
        }
    }

    /// The largest packet accepted, header included and indicator excluded.
    public let maximumPacketSize: Int

    var buffer: [UInt8] = []
    var start = 0
    var consumed = 0
    var failure: Error?

    /// A deframer accepting packets up to `maximumPacketSize` octets (by default the largest an
    /// ACL header can announce: 4 + 65535).
    public init(maximumPacketSize: Int = 4 + 0xFFFF) {
        self.maximumPacketSize = maximumPacketSize
    }

    /// Octets received but not yet part of a whole packet.
    public var pendingCount: Int { buffer.count - start }

    /// Appends `chunk` and returns every packet it completes, in stream order.
    ///
    /// When whole packets precede a framing fault in the same chunk, they are returned and the
    /// fault is kept in ``error``, to be thrown by the next call.
    ///
    /// - Throws: ``Error`` when the stream has lost its framing and no packet precedes the fault.
    public mutating func append<C: Collection>(_ chunk: C) throws(Error) -> [HCIPacket] where C.Element == UInt8 {
        appendWithoutFraming(chunk)
        var packets: [HCIPacket] = []
        do {
            while let packet = try nextPacket() { packets.append(packet) }
        } catch {
            if packets.isEmpty { throw error }
        }
        return packets
    }

    /// The framing fault, once the stream has lost its framing; nil until then and after ``reset()``.
    public var error: Error? { failure }

    /// Appends `chunk` without cutting packets; take them with ``nextPacket()``.
    public mutating func appendWithoutFraming<C: Collection>(_ chunk: C) where C.Element == UInt8 {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: chunk)
    }

    /// The next whole packet, or nil when more octets are needed.
    ///
    /// - Throws: ``Error`` when the stream has lost its framing (again on every call until ``reset()``).
    public mutating func nextPacket() throws(Error) -> HCIPacket? {
        if let failure { throw failure }
        let type: HCIPacketType, size: Int
        switch H4PacketHeader.read(buffer, at: start, maximumSize: maximumPacketSize) {
        case .needsMore: return nil
        case .unknownIndicator(let indicator):
            let error = Error.unknownPacketIndicator(indicator, streamOffset: consumed)
            failure = error
            throw error
        case let .tooLarge(tooLargeType, tooLargeSize):
            let error = Error.packetTooLarge(type: tooLargeType, size: tooLargeSize, maximum: maximumPacketSize,
                                             streamOffset: consumed)
            failure = error
            throw error
        case let .packet(packetType, packetSize):
            (type, size) = (packetType, packetSize)
        }
        let headerStart = start + 1
        guard buffer.count - headerStart >= size else { return nil }
        let end = headerStart + size
        let packet: HCIPacket
        do {
            packet = try HCIPacket(type: type, payload: buffer[headerStart..<end])
        } catch {
            let failed = Error.malformedPacket(type: type, error: error, streamOffset: consumed)
            failure = failed
            throw failed
        }
        consumed &+= 1 &+ size
        start = end
        return packet
    }

    /// Forgets every pending octet and any framing error, as after the transport was reset.
    public mutating func reset() {
        buffer.removeAll(keepingCapacity: true)
        start = 0
        consumed = 0
        failure = nil
    }
}
