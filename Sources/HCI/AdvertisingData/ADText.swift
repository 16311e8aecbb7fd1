import BLECore

/// Small text and octet helpers shared by the AD structure types (no Foundation).
enum ADText {
    /// Two upper-case hexadecimal digits.
    static func hex(_ v: UInt8) -> String { hex(UInt64(v), digits: 2) }

    /// Four upper-case hexadecimal digits.
    static func hex(_ v: UInt16) -> String { hex(UInt64(v), digits: 4) }

    /// The low `digits` nibbles of `v`, upper case, written straight into the string.
    static func hex(_ v: UInt64, digits: Int) -> String {
        String(unsafeUninitializedCapacity: digits) { out in
            for i in 0..<digits {
                let nibble = UInt8(truncatingIfNeeded: v >> UInt64(4 * (digits - 1 - i))) & 0x0F
                out[i] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") - 10 + nibble
            }
            return digits
        }
    }

    /// At least four upper-case hexadecimal digits.
    static func hex(_ v: UInt32) -> String {
        v <= 0xFFFF ? hex(UInt16(v)) : String(v, radix: 16, uppercase: true)
    }

    /// "100 ms", "7.5 ms", "20.625 ms": an exact decimal rendering of a microsecond count.
    static func milliseconds(microseconds us: UInt64) -> String {
        let whole = us / 1000
        var fraction = us % 1000
        guard fraction != 0 else { return "\(whole) ms" }
        var digits = 3
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let f = String(fraction)
        return "\(whole).\(String(repeating: "0", count: digits - f.count))\(f) ms"
    }

    /// Whether `bytes` are well-formed UTF-8.
    static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { isValidUTF8($0) }
    }

    /// Whether `bytes` are well-formed UTF-8 (ASCII, the common case, without decoding).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}

/// Little-endian reads at a known-good index of a slice or a buffer (the caller has checked the bounds).
enum ADBytes {
    @inline(__always)
    static func uint32(_ d: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt32 {
        UInt32(d[i]) | UInt32(d[i + 1]) << 8 | UInt32(d[i + 2]) << 16 | UInt32(d[i + 3]) << 24
    }

    @inline(__always)
    static func uint64(_ d: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt64 {
        var v: UInt64 = 0
        for k in (0..<8).reversed() { v = v << 8 | UInt64(d[i + k]) }
        return v
    }

    @inline(__always)
    static func uint32(_ d: ArraySlice<UInt8>, at i: Int) -> UInt32 {
        UInt32(d[i]) | UInt32(d[i + 1]) << 8 | UInt32(d[i + 2]) << 16 | UInt32(d[i + 3]) << 24
    }

    @inline(__always)
    static func uint64(_ d: ArraySlice<UInt8>, at i: Int) -> UInt64 {
        var v: UInt64 = 0
        for k in (0..<8).reversed() { v = v << 8 | UInt64(d[i + k]) }
        return v
    }
}
