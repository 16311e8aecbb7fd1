extension BluetoothAddress {
    /// A new static random device address (Core v5.4, Vol 6, Part B, 1.3.2.1): the two most
    /// significant bits are 0b11, and the other 46 bits are random, neither all zeros nor all ones.
    ///
    /// A device keeps its static address at least until it power-cycles; a host that can should
    /// store it and give it back (so peers that bonded or cached it find the device again).
    public static func staticRandom<G: RandomNumberGenerator>(using generator: inout G) -> BluetoothAddress {
        let randomPart: UInt64 = 0x3FFF_FFFF_FFFF
        while true {
            let bits = generator.next() & randomPart
            guard bits != 0, bits != randomPart else { continue }
            return BluetoothAddress(bits | 0xC000_0000_0000)
        }
    }

    /// A new static random device address from the system's generator.
    public static func staticRandom() -> BluetoothAddress {
        var generator = SystemRandomNumberGenerator()
        return staticRandom(using: &generator)
    }

    /// Whether this is a valid static random device address: the top two bits 0b11, the rest
    /// neither all zeros nor all ones (Vol 6, Part B, 1.3.2.1).
    public var isValidStaticRandom: Bool {
        let randomPart = value & 0x3FFF_FFFF_FFFF
        return value >> 46 == 0b11 && randomPart != 0 && randomPart != 0x3FFF_FFFF_FFFF
    }
}
