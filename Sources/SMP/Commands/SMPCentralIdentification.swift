import BLECore

/// Central Identification, code 0x07: the EDIV and Rand that identify an LE legacy LTK
/// (Core v5.4, Vol 3, Part H, 3.6.3).
///
/// Layout after the Code, 10 octets: EDIV (2), Rand (8), both little-endian.
public struct SMPCentralIdentification: Hashable, Sendable, CustomStringConvertible {
    /// The Encrypted Diversifier.
    public var ediv: UInt16
    /// The 64-bit random number.
    public var rand: UInt64

    /// Central Identification with the EDIV and Rand of the LTK.
    public init(ediv: UInt16, rand: UInt64) {
        self.ediv = ediv
        self.rand = rand
    }

    /// "EDIV 0x1234 Rand 0x0123456789abcdef" (numbers, most significant digit first).
    public var description: String {
        let e = [UInt8(truncatingIfNeeded: ediv >> 8), UInt8(truncatingIfNeeded: ediv)]
        let r = (0..<8).reversed().map { UInt8(truncatingIfNeeded: rand >> UInt64(8 * $0)) }
        return "EDIV 0x\(Hex.encode(e)) Rand 0x\(Hex.encode(r))"
    }
}

extension SMPCentralIdentification: SMPCommandLayout {
    init() { self.init(ediv: 0, rand: 0) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&ediv, "EDIV")
        try c.field(&rand, "Rand")
    }
}
