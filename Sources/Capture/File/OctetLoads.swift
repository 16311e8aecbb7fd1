// Fixed-width loads from a whole capture file. Every caller checks the bounds first
// (`offset + width <= count`), so these index without further checks.

extension Array where Element == UInt8 {
    @inline(__always)
    func loadUInt16(at i: Int, bigEndian: Bool) -> UInt16 {
        let a = UInt16(self[i]), b = UInt16(self[i + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    @inline(__always)
    func loadUInt32(at i: Int, bigEndian: Bool) -> UInt32 {
        let a = UInt32(self[i]), b = UInt32(self[i + 1]), c = UInt32(self[i + 2]), d = UInt32(self[i + 3])
        return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
    }

    @inline(__always)
    func loadUInt64(at i: Int, bigEndian: Bool) -> UInt64 {
        let high = UInt64(loadUInt32(at: bigEndian ? i : i + 4, bigEndian: bigEndian))
        let low = UInt64(loadUInt32(at: bigEndian ? i + 4 : i, bigEndian: bigEndian))
        return high << 32 | low
    }
}
