import BLECore

/// The LLData of a CONNECT_IND or AUX_CONNECT_REQ PDU: the parameters of the new connection
/// (Core v5.4, Vol 6, Part B, 2.3.3.1).
///
/// Layout, 22 octets, little-endian: AA (4), CRCInit (3), WinSize (1), WinOffset (2),
/// Interval (2), Latency (2), Timeout (2), ChM (5), then one octet holding Hop (bits 0...4)
/// and SCA (bits 5...7).
public struct ConnectIndLLData: Hashable, Sendable, CustomStringConvertible {
    /// The octets LLData takes.
    public static let length = 22

    /// AA: the access address of the connection's data physical channel PDUs.
    public var accessAddress: UInt32
    /// CRCInit: the 24-bit CRC initial value for the connection (``LinkLayerCRC``).
    public var crcInit: UInt32
    /// WinSize: the transmit window size, in 1.25 ms units.
    public var winSize: UInt8
    /// WinOffset: the transmit window offset, in 1.25 ms units.
    public var winOffset: UInt16
    /// Interval: the connection interval, in 1.25 ms units.
    public var interval: UInt16
    /// Latency: the Peripheral latency, in connection events.
    public var latency: UInt16
    /// Timeout: the supervision timeout, in 10 ms units.
    public var timeout: UInt16
    /// ChM: the channel map, 40 bits; bit n set means data channel index n is used
    /// (bits 37...39 are reserved).
    public var channelMap: UInt64
    /// Hop: the hop increment for channel selection algorithm #1, 5 bits (5...16 are valid).
    public var hop: UInt8
    /// SCA: the Central's sleep clock accuracy, 3 bits (0: 251-500 ppm ... 7: 0-20 ppm).
    public var sca: UInt8

    /// LLData. `crcInit` is masked to 24 bits, `channelMap` to 40, `hop` to 5, `sca` to 3.
    public init(accessAddress: UInt32, crcInit: UInt32, winSize: UInt8, winOffset: UInt16, interval: UInt16,
                latency: UInt16, timeout: UInt16, channelMap: UInt64, hop: UInt8, sca: UInt8) {
        self.accessAddress = accessAddress
        self.crcInit = crcInit & 0xFF_FFFF
        self.winSize = winSize
        self.winOffset = winOffset
        self.interval = interval
        self.latency = latency
        self.timeout = timeout
        self.channelMap = channelMap & 0xFF_FFFF_FFFF
        self.hop = hop & 0x1F
        self.sca = sca & 0x07
    }

    /// Reads the 22 octets.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming the short field.
    public init(from r: inout ByteReader) throws(BLEDecodingError) {
        let accessAddress = try r.readUInt32("AA")
        let crcInit = try r.readUInt24("CRCInit")
        let winSize = try r.readUInt8("WinSize")
        let winOffset = try r.readUInt16("WinOffset")
        let interval = try r.readUInt16("Interval")
        let latency = try r.readUInt16("Latency")
        let timeout = try r.readUInt16("Timeout")
        let low = try r.readUInt32("ChM")
        let high = try r.readUInt8("ChM")
        let hopAndSCA = try r.readUInt8("Hop and SCA")
        self.init(accessAddress: accessAddress, crcInit: crcInit, winSize: winSize, winOffset: winOffset,
                  interval: interval, latency: latency, timeout: timeout,
                  channelMap: UInt64(high) << 32 | UInt64(low), hop: hopAndSCA & 0x1F, sca: hopAndSCA >> 5)
    }

    /// Appends the 22 octets.
    public func write(to w: inout ByteWriter) {
        w.writeUInt32(accessAddress)
        w.writeUInt24(crcInit & 0xFF_FFFF)
        w.writeUInt8(winSize)
        w.writeUInt16(winOffset)
        w.writeUInt16(interval)
        w.writeUInt16(latency)
        w.writeUInt16(timeout)
        w.writeUInt32(UInt32(truncatingIfNeeded: channelMap))
        w.writeUInt8(UInt8(truncatingIfNeeded: channelMap >> 32))
        w.writeUInt8(hop & 0x1F | sca << 5)
    }

    /// How many data channels the channel map marks as used (of indices 0...36).
    public var usedChannelCount: Int { (channelMap & 0x1F_FFFF_FFFF).nonzeroBitCount }

    /// "AA 0xaf9a9f1a, CRCInit 0x1b2c3d, Interval 24 (30 ms), Latency 0, Timeout 72 (720 ms), 37 channels, Hop 7, SCA 0".
    public var description: String {
        let ms = Double(interval) * 1.25
        return "AA 0x\(hex32(accessAddress)), CRCInit 0x\(Hex.encode(Array(LinkLayerRecord.bigEndian(crcInit).suffix(3)))), "
            + "WinSize \(winSize), WinOffset \(winOffset), Interval \(interval) (\(ms) ms), Latency \(latency), "
            + "Timeout \(timeout) (\(Int(timeout) * 10) ms), \(usedChannelCount) channels, Hop \(hop), SCA \(sca)"
    }
}

/// Eight lower-case hexadecimal digits of `value`.
func hex32(_ value: UInt32) -> String { Hex.encode(LinkLayerRecord.bigEndian(value)) }
