/// A Bluetooth UUID of 16, 32 or 128 bits (Core v5.4, Vol 3, Part B, 2.5.1).
///
/// 16- and 32-bit UUIDs are aliases inside the Bluetooth Base UUID
/// 00000000-0000-1000-8000-00805F9B34FB: `xxxxxxxx` stands for `xxxxxxxx-0000-1000-8000-00805F9B34FB`.
/// Two UUIDs are equal when their 128-bit forms are, whatever width each was written in, so
/// `BluetoothUUID("180D") == BluetoothUUID("0000180D-0000-1000-8000-00805F9B34FB")`.
/// The width is kept so a UUID encodes back in the width it arrived in.
public struct BluetoothUUID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number of octets a UUID occupies on the wire.
    public enum Width: Int, Sendable, Hashable, CaseIterable {
        case bits16 = 2
        case bits32 = 4
        case bits128 = 16
    }

    /// The most significant 64 bits of the 128-bit form.
    public let high: UInt64
    /// The least significant 64 bits of the 128-bit form.
    public let low: UInt64
    /// The width this UUID was made with; it decides the encoding, not equality.
    public let width: Width

    static let baseHigh: UInt64 = 0x0000_0000_0000_1000
    static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB

    /// A 16-bit UUID, such as 0x180D (Heart Rate).
    public init(_ value16: UInt16) {
        high = UInt64(value16) << 32 | Self.baseHigh
        low = Self.baseLow
        width = .bits16
    }

    /// A 32-bit UUID.
    public init(uuid32 value: UInt32) {
        high = UInt64(value) << 32 | Self.baseHigh
        low = Self.baseLow
        width = .bits32
    }

    /// A 128-bit UUID from its two halves, most significant first.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
        self.width = .bits128
    }

    /// A UUID from octets in transmission order (least significant first): 2, 4 or 16 of them.
    ///
    /// - Returns: nil for any other count.
    public init?(littleEndianOctets octets: ArraySlice<UInt8>) {
        let i = octets.startIndex
        /// The `count` octets from `offset` as a little-endian integer.
        func load(_ offset: Int, _ count: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<count { v |= UInt64(octets[i + offset + k]) << UInt64(8 * k) }
            return v
        }
        switch octets.count {
        case 2: self.init(UInt16(truncatingIfNeeded: load(0, 2)))
        case 4: self.init(uuid32: UInt32(truncatingIfNeeded: load(0, 4)))
        case 16: self.init(high: load(8, 8), low: load(0, 8))
        default: return nil
        }
    }

    /// A UUID from octets in transmission order (least significant first): 2, 4 or 16 of them.
    ///
    /// - Returns: nil for any other count.
    public init?(littleEndianOctets octets: [UInt8]) {
        self.init(littleEndianOctets: octets[...])
    }

    /// A UUID from any collection of octets in transmission order (least significant first): 2,
    /// 4 or 16 of them. Arrays and their slices take the overloads above, which read in place.
    ///
    /// - Returns: nil for any other count.
    public init?<C: Collection>(littleEndianOctets octets: C) where C.Element == UInt8 {
        self.init(littleEndianOctets: Array(octets)[...])
    }

    /// Reads a UUID of `width` from `reader` (least significant octet first).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` when too few octets remain.
    public init(from reader: inout ByteReader, width: Width, field: String = "UUID") throws(BLEDecodingError) {
        switch width {
        case .bits16: self.init(try reader.readUInt16(field))
        case .bits32: self.init(uuid32: try reader.readUInt32(field))
        case .bits128:
            let low = try reader.readUInt64(field)
            let high = try reader.readUInt64(field)
            self.init(high: high, low: low)
        }
    }

    /// Parses the forms people write: "180D" (16-bit), "0000180D" (32-bit), and
    /// "0000180D-0000-1000-8000-00805F9B34FB" (128-bit, dashes optional), with an optional
    /// "0x" prefix on the short forms and any case.
    ///
    /// - Returns: nil for any other text.
    public init?(_ text: String) {
        var s = Substring(text)
        if s.hasPrefix("0x") || s.hasPrefix("0X") { s = s.dropFirst(2) }
        let digits = s.filter { $0 != "-" }
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        switch (s.count, digits.count) {
        case (4, 4): self.init(UInt16(digits, radix: 16)!)
        case (8, 8): self.init(uuid32: UInt32(digits, radix: 16)!)
        case (36, 32), (32, 32):
            if s.count == 36 {
                let dashes = s.indices.filter { s[$0] == "-" }.map { s.distance(from: s.startIndex, to: $0) }
                guard dashes == [8, 13, 18, 23] else { return nil }
            }
            let hi = UInt64(digits.prefix(16), radix: 16)!
            let lo = UInt64(digits.suffix(16), radix: 16)!
            self.init(high: hi, low: lo)
        default: return nil
        }
    }

    /// Whether the 128-bit form lies in the Bluetooth Base UUID range, so it has a 16- or 32-bit alias.
    public var isBaseUUIDAlias: Bool { low == Self.baseLow && high & 0xFFFF_FFFF == Self.baseHigh }

    /// The 16-bit value if this UUID has a 16-bit alias.
    public var uuid16: UInt16? {
        guard isBaseUUIDAlias, high >> 48 == 0 else { return nil }
        return UInt16(truncatingIfNeeded: high >> 32)
    }

    /// The 32-bit value if this UUID has a 32-bit (or 16-bit) alias.
    public var uuid32: UInt32? {
        guard isBaseUUIDAlias else { return nil }
        return UInt32(truncatingIfNeeded: high >> 32)
    }

    /// The same UUID in its shortest width: 16-bit if it has a 16-bit alias, then 32-bit, else 128-bit.
    public var shortest: BluetoothUUID {
        if let v = uuid16 { return BluetoothUUID(v) }
        if let v = uuid32 { return BluetoothUUID(uuid32: v) }
        return BluetoothUUID(high: high, low: low)
    }

    /// The same UUID written in 128 bits.
    public var as128Bit: BluetoothUUID { BluetoothUUID(high: high, low: low) }

    /// The octets in transmission order (least significant first), ``width`` of them.
    public var littleEndianOctets: [UInt8] {
        var w = ByteWriter(capacity: width.rawValue)
        write(to: &w)
        return w.bytes
    }

    /// Appends the UUID in its own width, least significant octet first.
    public func write(to writer: inout ByteWriter) {
        switch width {
        case .bits16: writer.writeUInt16(UInt16(truncatingIfNeeded: high >> 32))
        case .bits32: writer.writeUInt32(UInt32(truncatingIfNeeded: high >> 32))
        case .bits128:
            writer.writeUInt64(low)
            writer.writeUInt64(high)
        }
    }

    /// The canonical 128-bit text, upper case: "0000180D-0000-1000-8000-00805F9B34FB".
    public var uuidString: String {
        var out = TextOutput(capacity: 36)
        writeUUIDString(to: &out)
        return out.string
    }

    /// Appends ``uuidString``'s 36 characters to `out`.
    public func writeUUIDString(to out: inout TextOutput) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { text in
            var j = 0
            for nibble in 0..<32 {
                if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 { text[j] = UInt8(ascii: "-"); j += 1 }
                let half = nibble < 16 ? high : low
                text[j] = TextOutput.upperHexDigit(UInt8(truncatingIfNeeded: half >> UInt64(60 - 4 * (nibble % 16))) & 0x0F)
                j += 1
            }
            out.write(octets: UnsafeBufferPointer(text))
        }
    }

    /// "180D" for a 16-bit UUID, "0000180D" for a 32-bit one, else ``uuidString``.
    public var description: String {
        var out = TextOutput(capacity: 36)
        writeDescription(to: &out)
        return out.string
    }

    /// Appends ``description`` ("180D", "0000180D", or the 128-bit text) to `out`.
    public func writeDescription(to out: inout TextOutput) {
        switch width {
        case .bits16: out.writeHex(high >> 32, digits: 4, uppercase: true)
        case .bits32: out.writeHex(high >> 32, digits: 8, uppercase: true)
        case .bits128: writeUUIDString(to: &out)
        }
    }

    /// The Bluetooth SIG name of this UUID (service, characteristic, descriptor, declaration,
    /// unit or member service), from the assigned numbers; nil when it has none.
    public var name: String? {
        guard let v = uuid16 else { return nil }
        return AssignedNumbers.uuidName(v)
    }

    /// ``description``, followed by the SIG name in parentheses when there is one: "180D (Heart Rate)".
    public var descriptionWithName: String {
        var out = TextOutput(capacity: 64)
        writeDescriptionWithName(to: &out)
        return out.string
    }

    /// Appends ``descriptionWithName`` ("180D (Heart Rate)") to `out`, the name copied from the
    /// assigned-numbers text.
    public func writeDescriptionWithName(to out: inout TextOutput) {
        writeDescription(to: &out)
        guard let v = uuid16 else { return }
        out.write(" (")
        if AssignedNumbers.writeUUIDName(v, to: &out) {
            out.write(octet: UInt8(ascii: ")"))
        } else {
            out.removeLast(2)   // no name: no parentheses
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.high == rhs.high && lhs.low == rhs.low }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}
