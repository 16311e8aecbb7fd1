/// A cursor over little-endian octets, as every Bluetooth LE layer encodes them
/// (Core v5.4, Vol 1, Part E, 2.2: multi-octet fields are transmitted least significant octet first).
///
/// Every read names its field; a short input throws ``BLEDecodingError/truncated(field:offset:needed:available:)``
/// with the field's offset, the octets it needs and the octets left. Offsets are relative to the
/// first octet the reader was given, whatever slice it was made from.
///
/// ```swift
/// var reader = ByteReader(pdu)
/// let opcode = try reader.readUInt8("Attribute Opcode")
/// let mtu = try reader.readUInt16("Client Rx MTU")
/// try reader.expectEnd()
/// ```
public struct ByteReader: Sendable {
    @usableFromInline let storage: ArraySlice<UInt8>
    @usableFromInline var position: Int

    /// A reader over `bytes`, positioned at its first octet.
    @inlinable
    public init(_ bytes: [UInt8]) {
        self.storage = bytes[...]
        self.position = storage.startIndex
    }

    /// A reader over `bytes`, positioned at its first octet; offsets count from `bytes.startIndex`.
    @inlinable
    public init(_ bytes: ArraySlice<UInt8>) {
        self.storage = bytes
        self.position = bytes.startIndex
    }

    /// Octets consumed so far: the offset of the next read.
    @inlinable public var offset: Int { position - storage.startIndex }

    /// Octets not yet read.
    @inlinable public var remainingCount: Int { storage.endIndex - position }

    /// Whether every octet has been read.
    @inlinable public var isAtEnd: Bool { position >= storage.endIndex }

    @inlinable
    mutating func take(_ count: Int, _ field: String) throws(BLEDecodingError) -> Int {
        guard count >= 0, remainingCount >= count else {
            throw .truncated(field: field, offset: offset, needed: count, available: remainingCount)
        }
        let start = position
        position += count
        return start
    }

    /// Reads one octet.
    @inlinable
    public mutating func readUInt8(_ field: String) throws(BLEDecodingError) -> UInt8 {
        storage[try take(1, field)]
    }

    /// Reads a two-octet little-endian integer.
    @inlinable
    public mutating func readUInt16(_ field: String) throws(BLEDecodingError) -> UInt16 {
        let i = try take(2, field)
        return UInt16(storage[i]) | UInt16(storage[i + 1]) << 8
    }

    /// Reads a three-octet little-endian integer (for example a 24-bit Class of Device or a
    /// 0.625 ms advertising interval in extended advertising parameters).
    @inlinable
    public mutating func readUInt24(_ field: String) throws(BLEDecodingError) -> UInt32 {
        let i = try take(3, field)
        return UInt32(storage[i]) | UInt32(storage[i + 1]) << 8 | UInt32(storage[i + 2]) << 16
    }

    /// Reads a four-octet little-endian integer.
    @inlinable
    public mutating func readUInt32(_ field: String) throws(BLEDecodingError) -> UInt32 {
        let i = try take(4, field)
        return UInt32(storage[i]) | UInt32(storage[i + 1]) << 8
            | UInt32(storage[i + 2]) << 16 | UInt32(storage[i + 3]) << 24
    }

    /// Reads an eight-octet little-endian integer.
    @inlinable
    public mutating func readUInt64(_ field: String) throws(BLEDecodingError) -> UInt64 {
        let i = try take(8, field)
        var value: UInt64 = 0
        for k in (0..<8).reversed() { value = value << 8 | UInt64(storage[i + k]) }
        return value
    }

    /// Reads a big-endian integer of `count` octets (1...8): for the few fields that are
    /// not little-endian, such as pcap record headers written on a big-endian machine.
    @inlinable
    public mutating func readBigEndian(_ count: Int, _ field: String) throws(BLEDecodingError) -> UInt64 {
        let i = try take(count, field)
        var value: UInt64 = 0
        for k in 0..<count { value = value << 8 | UInt64(storage[i + k]) }
        return value
    }

    /// Reads `count` octets.
    @inlinable
    public mutating func readBytes(_ count: Int, _ field: String) throws(BLEDecodingError) -> [UInt8] {
        let i = try take(count, field)
        return Array(storage[i..<i + count])
    }

    /// Reads `count` octets as a slice of the input, without copying.
    @inlinable
    public mutating func readSlice(_ count: Int, _ field: String) throws(BLEDecodingError) -> ArraySlice<UInt8> {
        let i = try take(count, field)
        return storage[i..<i + count]
    }

    /// Reads every octet that is left (possibly none).
    @inlinable
    public mutating func readRemaining() -> [UInt8] {
        let start = position
        position = storage.endIndex
        return Array(storage[start...])
    }

    /// Reads every octet that is left as a slice, without copying.
    @inlinable
    public mutating func readRemainingSlice() -> ArraySlice<UInt8> {
        let start = position
        position = storage.endIndex
        return storage[start...]
    }

    /// Skips `count` octets.
    @inlinable
    public mutating func skip(_ count: Int, _ field: String) throws(BLEDecodingError) {
        _ = try take(count, field)
    }

    /// Looks at the next octet without consuming it; nil at the end.
    @inlinable
    public func peekUInt8() -> UInt8? {
        isAtEnd ? nil : storage[position]
    }

    /// Throws ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)`` unless every octet was read.
    @inlinable
    public func expectEnd() throws(BLEDecodingError) {
        if !isAtEnd { throw .unexpectedTrailingOctets(offset: offset, count: remainingCount) }
    }
}
