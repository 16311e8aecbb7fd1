/// The 13 octets before each Apple PacketLogger record's payload, in the file's byte order
/// (big-endian in the older format, little-endian in the later one; the file has no header of
/// its own to say which):
///
/// | field | octets | meaning |
/// |---|---|---|
/// | Length | 4 | the octets after this field: 8 of timestamp, 1 of Packet Type, then the payload |
/// | Seconds | 4 | seconds since the Unix epoch (1970-01-01 00:00:00 UTC) |
/// | Microseconds | 4 | 0...999,999 µs past the second |
/// | Packet Type | 1 | ``PacketLoggerPacketType`` |
///
/// ``walk(_:)`` is the one declaration of that layout: the reader and the writer both run it.
struct PacketLoggerRecordHeader: Sendable {
    /// The header's size in octets.
    static let length = 13
    /// The octets Length counts before the payload: the timestamp and the Packet Type.
    static let lengthBeforePayload = 9

    var length: UInt32
    var seconds: UInt32
    var microseconds: UInt32
    var type: PacketLoggerPacketType

    /// Hands each field, in wire order, to `visit` with its width in octets and its name;
    /// `visit` reads the field into `value` or writes `value` out.
    mutating func walk(_ visit: (_ value: inout UInt64, _ octets: Int, _ name: String) -> Void) {
        var value = UInt64(length)
        visit(&value, 4, "Length")
        length = UInt32(truncatingIfNeeded: value)
        value = UInt64(seconds)
        visit(&value, 4, "Seconds")
        seconds = UInt32(truncatingIfNeeded: value)
        value = UInt64(microseconds)
        visit(&value, 4, "Microseconds")
        microseconds = UInt32(truncatingIfNeeded: value)
        value = UInt64(type.rawValue)
        visit(&value, 1, "Packet Type")
        type = PacketLoggerPacketType(rawValue: UInt8(truncatingIfNeeded: value))
    }

    /// Reads the header at `offset`; the caller has checked that 13 octets are there.
    init(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) {
        self.init(length: 0, seconds: 0, microseconds: 0, type: .hciCommand)
        var position = offset
        walk { value, octets, _ in
            var v: UInt64 = 0
            for k in 0..<octets {
                let octet = UInt64(bytes[position + k])
                v |= bigEndian ? octet << (8 * UInt64(octets - 1 - k)) : octet << (8 * UInt64(k))
            }
            value = v
            position += octets
        }
    }

    init(length: UInt32, seconds: UInt32, microseconds: UInt32, type: PacketLoggerPacketType) {
        self.length = length
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
    }

    /// The header's 13 octets.
    func encoded(bigEndian: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.length)
        var copy = self
        copy.walk { value, octets, _ in
            for k in 0..<octets {
                let shift = bigEndian ? 8 * UInt64(octets - 1 - k) : 8 * UInt64(k)
                out.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        return out
    }
}
