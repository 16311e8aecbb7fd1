/// A 48-bit Bluetooth device address (BD_ADDR), Core v5.4, Vol 6, Part B, 1.3.
///
/// On the wire the six octets travel least significant first; ``description`` prints them most
/// significant first, as "AA:BB:CC:DD:EE:FF", like every Bluetooth tool. The address alone does
/// not say whether it is public or random: that comes from an address-type field beside it
/// (see ``BluetoothAddressType``).
public struct BluetoothAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The address as a 48-bit integer; bits 47...46 are the two most significant bits that
    /// classify a random address.
    public let value: UInt64

    /// An address from its 48-bit integer value. Bits above 47 are discarded.
    public init(_ value: UInt64) { self.value = value & 0xFFFF_FFFF_FFFF }

    /// An address from six octets in transmission order (least significant first), as they
    /// appear in HCI parameters and PDUs.
    ///
    /// - Returns: nil unless there are exactly six octets.
    public init?<C: Collection>(littleEndianOctets octets: C) where C.Element == UInt8 {
        guard octets.count == 6 else { return nil }
        var v: UInt64 = 0
        for (i, b) in octets.enumerated() { v |= UInt64(b) << UInt64(8 * i) }
        self.value = v
    }

    /// Parses "AA:BB:CC:DD:EE:FF" (most significant octet first; ':' or '-' separators, any case).
    ///
    /// - Returns: nil unless the text is six two-digit hexadecimal octets.
    public init?(_ text: String) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "-" })
        guard parts.count == 6 else { return nil }
        var v: UInt64 = 0
        for part in parts {
            guard part.count == 2, let b = UInt8(part, radix: 16) else { return nil }
            v = v << 8 | UInt64(b)
        }
        self.value = v
    }

    /// Reads six octets (least significant first) from `reader`.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` when fewer than six remain.
    public init(from reader: inout ByteReader, field: String = "Address") throws(BLEDecodingError) {
        let octets = try reader.readSlice(6, field)
        var v: UInt64 = 0
        for (i, b) in octets.enumerated() { v |= UInt64(b) << UInt64(8 * i) }
        self.value = v
    }

    /// The six octets in transmission order (least significant first).
    public var littleEndianOctets: [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * $0)) }
    }

    /// Appends the six octets, least significant first.
    public func write(to writer: inout ByteWriter) {
        for i in 0..<6 { writer.writeUInt8(UInt8(truncatingIfNeeded: value >> UInt64(8 * i))) }
    }

    /// The sub-type of this address if it is a random device address, from its two most
    /// significant bits (Core v5.4, Vol 6, Part B, 1.3.2): 0b11 static, 0b01 resolvable private,
    /// 0b00 non-resolvable private. 0b10 is reserved and gives nil.
    public var randomAddressKind: BluetoothAddressType? {
        switch value >> 46 {
        case 0b11: return .randomStatic
        case 0b01: return .resolvablePrivate
        case 0b00: return .nonResolvablePrivate
        default: return nil
        }
    }

    /// "AA:BB:CC:DD:EE:FF", most significant octet first, upper case.
    public var description: String {
        var out = TextOutput(capacity: 17)
        writeDescription(to: &out)
        return out.string
    }

    /// Appends ``description``'s 17 characters ("D0:0D:FE:ED:48:52") to `out`.
    public func writeDescription(to out: inout TextOutput) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 17) { text in
            for k in 0..<6 {
                let b = UInt8(truncatingIfNeeded: value >> UInt64(8 * (5 - k)))
                text[3 * k] = TextOutput.upperHexDigit(b >> 4)
                text[3 * k + 1] = TextOutput.upperHexDigit(b & 0xF)
                if k != 5 { text[3 * k + 2] = UInt8(ascii: ":") }
            }
            out.write(octets: UnsafeBufferPointer(text))
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.value < rhs.value }

    /// 00:00:00:00:00:00.
    public static let zero = BluetoothAddress(0)
}

/// What kind of device address a ``BluetoothAddress`` is (Core v5.4, Vol 6, Part B, 1.3).
public enum BluetoothAddressType: Hashable, Sendable, CustomStringConvertible {
    /// A public device address, assigned from an IEEE OUI.
    case `public`
    /// A random static address: two most significant bits 0b11.
    case randomStatic
    /// A resolvable private address: two most significant bits 0b01, resolvable with an IRK.
    case resolvablePrivate
    /// A non-resolvable private address: two most significant bits 0b00.
    case nonResolvablePrivate

    /// The classification of `address` when an HCI or PDU field says only "public" or "random"
    /// (`isRandom`). A random address with the reserved prefix 0b10 is classed as random static,
    /// its closest valid kind.
    public init(address: BluetoothAddress, isRandom: Bool) {
        self = isRandom ? (address.randomAddressKind ?? .randomStatic) : .public
    }

    /// Whether this is one of the random kinds (the TxAdd/RxAdd or Address_Type bit is 1).
    public var isRandom: Bool { self != .public }

    public var description: String {
        switch self {
        case .public: return "public"
        case .randomStatic: return "random static"
        case .resolvablePrivate: return "resolvable private"
        case .nonResolvablePrivate: return "non-resolvable private"
        }
    }
}
