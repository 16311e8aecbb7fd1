/// Appends little-endian fields to a growing octet buffer, the mirror of ``ByteReader``
/// (Core v5.4, Vol 1, Part E, 2.2).
///
/// ```swift
/// var writer = ByteWriter(capacity: 3)
/// writer.writeUInt8(0x02)      // ATT_EXCHANGE_MTU_REQ
/// writer.writeUInt16(517)      // Client Rx MTU
/// writer.bytes                 // [0x02, 0x05, 0x02]
/// ```
public struct ByteWriter: Sendable {
    /// The octets written so far.
    public var bytes: [UInt8]

    /// An empty writer with room for `capacity` octets before it reallocates.
    @inlinable
    public init(capacity: Int = 32) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The number of octets written so far.
    @inlinable public var count: Int { bytes.count }

    @inlinable
    public mutating func writeUInt8(_ value: UInt8) { bytes.append(value) }

    @inlinable
    public mutating func writeUInt16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    /// Writes the low three octets of `value`; the high octet must be zero.
    @inlinable
    public mutating func writeUInt24(_ value: UInt32) {
        precondition(value <= 0xFF_FFFF, "a 24-bit field cannot hold \(value)")
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    }

    @inlinable
    public mutating func writeUInt32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    @inlinable
    public mutating func writeUInt64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Writes the low `count` octets of `value`, most significant first.
    @inlinable
    public mutating func writeBigEndian(_ value: UInt64, count: Int) {
        for k in (0..<count).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * k))) }
    }

    @inlinable
    public mutating func writeBytes<S: Sequence>(_ octets: S) where S.Element == UInt8 {
        bytes.append(contentsOf: octets)
    }
}
