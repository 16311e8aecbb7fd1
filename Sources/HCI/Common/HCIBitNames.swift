/// Names the set bits of a bit-mask parameter for descriptions.
enum HCIBitNames {
    /// The names of the bits set in `raw`, lowest first, joined by ", "; a bit without a name
    /// prints as "bit N". "none" when no bit is set.
    static func describe(_ raw: UInt64, name: (Int) -> String?) -> String {
        guard raw != 0 else { return "none" }
        var names: [String] = []
        var bits = raw
        while bits != 0 {
            let bit = bits.trailingZeroBitCount
            names.append(name(bit) ?? "bit \(bit)")
            bits &= bits &- 1
        }
        return names.joined(separator: ", ")
    }
}
