import BLECore

/// The ``HCIParameterCoder`` that fills fields from octets, over a ``ByteReader``.
///
/// Errors name the specification's field and its offset from the first octet the reader was
/// given; an element of an arrayed parameter is named with its index, as in "Event_Type[2]".
public struct HCIParameterDecoder: HCIParameterCoder {
    /// Decoding fails with the field and offset.
    public typealias Failure = BLEDecodingError

    /// The reader, positioned after the last field decoded.
    public var reader: ByteReader

    /// A decoder over `parameters`; offsets count from its first octet.
    @inlinable
    public init(_ parameters: ArraySlice<UInt8>) { reader = ByteReader(parameters) }

    /// A decoder that continues where `reader` stands.
    @inlinable
    public init(reader: ByteReader) { self.reader = reader }

    /// Always true.
    @inlinable public var isDecoding: Bool { true }
    @inlinable public var offset: Int { reader.offset }

    /// Reads one octet.
    @inlinable
    public mutating func code(_ value: inout UInt8, _ field: String, format: HCIFieldFormat) throws(BLEDecodingError) {
        value = try reader.readUInt8(field)
    }

    /// Reads two octets, least significant first.
    @inlinable
    public mutating func code(_ value: inout UInt16, _ field: String, format: HCIFieldFormat) throws(BLEDecodingError) {
        value = try reader.readUInt16(field)
    }

    /// Reads three octets, least significant first.
    @inlinable
    public mutating func codeUInt24(_ value: inout UInt32, _ field: String, format: HCIFieldFormat) throws(BLEDecodingError) {
        value = try reader.readUInt24(field)
    }

    /// Reads four octets, least significant first.
    @inlinable
    public mutating func code(_ value: inout UInt32, _ field: String, format: HCIFieldFormat) throws(BLEDecodingError) {
        value = try reader.readUInt32(field)
    }

    /// Reads eight octets, least significant first.
    @inlinable
    public mutating func code(_ value: inout UInt64, _ field: String, format: HCIFieldFormat) throws(BLEDecodingError) {
        value = try reader.readUInt64(field)
    }

    /// Reads one octet as a signed dBm value.
    @inlinable
    public mutating func code(dBm value: inout Int8, _ field: String) throws(BLEDecodingError) {
        value = Int8(bitPattern: try reader.readUInt8(field))
    }

    /// Reads a six-octet address, least significant octet first.
    @inlinable
    public mutating func code(_ value: inout BluetoothAddress, _ field: String) throws(BLEDecodingError) {
        value = try BluetoothAddress(from: &reader, field: field)
    }

    /// Reads exactly `count` octets.
    @inlinable
    public mutating func code(_ value: inout [UInt8], count: Int, _ field: String) throws(BLEDecodingError) {
        value = try reader.readBytes(count, field)
    }

    /// Reads every octet left.
    @inlinable
    public mutating func codeRemaining(_ value: inout [UInt8], _ field: String) throws(BLEDecodingError) {
        value = reader.readRemaining()
    }

    /// Reads `count` elements; an element's error gets "[index]" after its field name.
    @inlinable
    public mutating func code<E: HCIParameterLayout>(_ elements: inout [E], count: Int, _ field: String) throws(BLEDecodingError) {
        elements.removeAll(keepingCapacity: true)
        // A count from the input reserves no more than the octets that could hold it.
        elements.reserveCapacity(Swift.max(0, Swift.min(count, reader.remainingCount)))
        var index = 0
        while index < count {
            var element = E()
            do {
                try element.layout(&self)
            } catch {
                throw error.naming(index: index)
            }
            elements.append(element)
            index &+= 1
        }
    }

    /// Throws ``BLEDecodingError/invalidValue(field:offset:reason:)`` unless `condition` holds.
    @inlinable
    public mutating func check(_ condition: Bool, _ field: String, offset: Int, _ reason: @autoclosure () -> String) throws(BLEDecodingError) {
        if !condition { throw .invalidValue(field: field, offset: offset, reason: reason()) }
    }
}

extension BLEDecodingError {
    /// The same error with "[index]" appended to its field name, for an element of an arrayed
    /// parameter (Core v5.4, Vol 4, Part E, 5.2 names them Parameter[i]).
    @usableFromInline
    func naming(index: Int) -> BLEDecodingError {
        switch self {
        case let .truncated(field, offset, needed, available):
            return .truncated(field: "\(field)[\(index)]", offset: offset, needed: needed, available: available)
        case let .invalidValue(field, offset, reason):
            return .invalidValue(field: "\(field)[\(index)]", offset: offset, reason: reason)
        case .unexpectedTrailingOctets:
            return self
        }
    }
}
