import BLECore

/// The ``ATTFieldCoder`` that fills fields from octets, over a ``ByteReader``.
///
/// A field that runs past the PDU throws ``BLEDecodingError/truncated(field:offset:needed:available:)``
/// with the parameter's specification name (``ATTParameter/name``) and the offset of its first
/// octet; a list that is not a whole number of entries, or a value the layout rejects, throws
/// ``BLEDecodingError/invalidValue(field:offset:reason:)``. The decoder does not check for
/// trailing octets: ``ATTPDU/decode(_:)-(ArraySlice<UInt8>)`` does, after the walk.
struct ATTFieldDecoder: ATTFieldCoder {
    /// The reader, positioned after the last field decoded.
    var reader: ByteReader
    /// Where the list entry being decoded ends, as an offset; -1 outside a list. A field that
    /// takes what is left takes what is left of the entry.
    private var entryEnd = -1

    /// A decoder that continues where `reader` stands, keeping its offsets.
    init(reader: ByteReader) { self.reader = reader }

    var offset: Int { reader.offset }

    /// The octets left in the entry being decoded, or in the PDU.
    private var available: Int { entryEnd < 0 ? reader.remainingCount : entryEnd &- reader.offset }

    // Each read checks its length first and names the parameter only when it throws; the
    // reader's own check, which follows, then always passes (so its field name is never read).

    @inline(__always)
    mutating func handle(_ value: inout UInt16, _ parameter: ATTParameter) throws(BLEDecodingError) {
        try need(2, parameter)
        value = try reader.readUInt16("")
    }

    @inline(__always)
    mutating func integer(_ value: inout UInt8, _ parameter: ATTParameter) throws(BLEDecodingError) {
        try need(1, parameter)
        value = try reader.readUInt8("")
    }

    @inline(__always)
    mutating func integer(_ value: inout UInt16, _ parameter: ATTParameter) throws(BLEDecodingError) {
        try need(2, parameter)
        value = try reader.readUInt16("")
    }

    @inline(__always)
    mutating func integer(_ value: inout UInt32, _ parameter: ATTParameter) throws(BLEDecodingError) {
        try need(4, parameter)
        value = try reader.readUInt32("")
    }

    @inline(__always)
    mutating func integerOctets(_ value: inout UInt64, _ parameter: ATTParameter) throws(BLEDecodingError) {
        try need(8, parameter)
        value = try reader.readUInt64("")
    }

    @inline(__always)
    mutating func code<T: ATTCodedValue>(_ value: inout T, _ parameter: ATTParameter) throws(BLEDecodingError) {
        try need(1, parameter)
        value = T(rawValue: try reader.readUInt8(""))
    }

    /// Never throws: a value takes what is there, up to the reserved octets.
    @inline(__always)
    mutating func remaining(_ value: inout [UInt8], _ parameter: ATTParameter,
                            reserving reserved: Int) throws(BLEDecodingError) {
        if reserved == 0, entryEnd < 0 {
            value = reader.readRemaining()
        } else {
            let count = available &- reserved
            // `available` never exceeds what the reader holds.
            value = count > 0 ? try reader.readBytes(count, "") : []
        }
    }

    /// Throws a truncation below 2 octets, an invalid value for any length but 2 and 16.
    @inline(__always)
    mutating func uuid(_ value: inout BluetoothUUID, _ parameter: ATTParameter) throws(BLEDecodingError) {
        switch available {
        case 2: value = BluetoothUUID(try reader.readUInt16(""))
        case 16: value = try BluetoothUUID(from: &reader, width: .bits128, field: "")
        case let n where n < 2: throw .truncated(field: parameter.name, offset: reader.offset, needed: 2, available: n)
        case let n:
            throw .invalidValue(field: parameter.name, offset: reader.offset,
                                reason: "\(n) octets; a 16-bit (2-octet) or 128-bit (16-octet) UUID is required")
        }
    }

    @inline(__always)
    mutating func uuid16(_ value: inout UInt16, _ parameter: ATTParameter) throws(BLEDecodingError) {
        try need(2, parameter)
        value = try reader.readUInt16("")
    }

    @inline(__always)
    mutating func handles(_ value: inout [UInt16], _ parameter: ATTParameter, element: ATTParameter,
                          minimumCount: Int) throws(BLEDecodingError) {
        let count = try listCount(entrySize: 2, minimumCount: minimumCount, parameter)
        var handles: [UInt16] = []
        handles.reserveCapacity(count)
        // listCount checked that the handles are there.
        for _ in 0..<count { handles.append(try reader.readUInt16("")) }
        value = handles
    }

    /// Each entry is decoded from its own `entrySize` octets and must fill them.
    @inline(__always)
    mutating func list<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter, entrySize: Int,
                                     minimumCount: Int) throws(BLEDecodingError) {
        guard entrySize > 0 else {
            throw .invalidValue(field: parameter.name, offset: reader.offset, reason: "entries of \(entrySize) octets")
        }
        let count = try listCount(entrySize: entrySize, minimumCount: minimumCount, parameter)
        var list: [E] = []
        list.reserveCapacity(count)
        let enclosing = entryEnd
        defer { entryEnd = enclosing }
        for _ in 0..<count {
            let end = reader.offset &+ entrySize
            entryEnd = end
            var entry = E()
            try entry.layout(&self)
            guard reader.offset == end else {
                throw .invalidValue(field: parameter.entryName, offset: reader.offset,
                                    reason: "the entry's fields end \(end &- reader.offset) octets before its \(entrySize)")
            }
            list.append(entry)
        }
        entries = list
    }

    /// Throws a truncation of the whole list when it is shorter than `minimumLength`, then what
    /// an entry throws.
    @inline(__always)
    mutating func sequence<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter,
                                         minimumLength: Int) throws(BLEDecodingError) {
        let available = reader.remainingCount
        guard available >= minimumLength else {
            throw .truncated(field: parameter.name, offset: reader.offset, needed: minimumLength, available: available)
        }
        var list: [E] = []
        while !reader.isAtEnd {
            var entry = E()
            try entry.layout(&self)
            list.append(entry)
        }
        entries = list
    }

    @inline(__always)
    mutating func lengthValue(_ length: inout UInt16, _ value: inout [UInt8], _ lengthParameter: ATTParameter,
                              _ valueParameter: ATTParameter, truncatable: Bool) throws(BLEDecodingError) {
        try need(2, lengthParameter)
        length = try reader.readUInt16("")
        let count = truncatable ? min(Int(length), reader.remainingCount) : Int(length)
        try need(count, valueParameter)
        value = try reader.readBytes(count, "")
    }

    mutating func group<G: ATTLayout>(_ value: inout G, _ parameter: ATTParameter, size: Int) throws(BLEDecodingError) {
        value = try Self.decodeWhole(G.self, from: &reader, size: size, parameter)
    }

    @inline(__always)
    mutating func check(_ condition: Bool, _ parameter: ATTParameter, offset: Int,
                        _ reason: @autoclosure () -> String) throws(BLEDecodingError) {
        if !condition { throw .invalidValue(field: parameter.name, offset: offset, reason: reason()) }
    }

    // MARK: Helpers

    /// Throws the truncation ``ByteReader`` would, naming `parameter`, unless `count` octets
    /// remain in the PDU.
    @inline(__always)
    func need(_ count: Int, _ parameter: ATTParameter) throws(BLEDecodingError) {
        let remaining = reader.remainingCount
        if remaining < count { throw Self.truncation(parameter, offset: reader.offset, needed: count, available: remaining) }
    }

    /// The truncation of `parameter`, built out of line: the name is a `String` only here.
    @inline(never)
    static func truncation(_ parameter: ATTParameter, offset: Int, needed: Int, available: Int) -> BLEDecodingError {
        .truncated(field: parameter.name, offset: offset, needed: needed, available: available)
    }

    /// Checks that the rest of the PDU is a list of `entrySize`-octet entries, at least
    /// `minimumCount` of them, and returns how many there are. Reads nothing.
    ///
    /// - Throws: a truncation of the list when it holds fewer than `minimumCount` entries; an
    ///   invalid value when its length is not a multiple of `entrySize`.
    func listCount(entrySize: Int, minimumCount: Int, _ parameter: ATTParameter) throws(BLEDecodingError) -> Int {
        let available = self.available
        let minimum = entrySize &* minimumCount
        if available < minimum {
            throw .truncated(field: parameter.name, offset: reader.offset, needed: minimum, available: available)
        }
        let (count, rest) = available.quotientAndRemainder(dividingBy: entrySize)
        if rest != 0 {
            throw .invalidValue(field: parameter.name, offset: reader.offset,
                                reason: "\(available) octets do not divide into \(entrySize)-octet \(parameter.entryName)")
        }
        return count
    }

    /// Decodes a `T` from the next `size` octets, which it must fill; errors name offsets in the PDU.
    static func decodeWhole<T: ATTLayout>(_ type: T.Type, from reader: inout ByteReader, size: Int,
                                          _ parameter: ATTParameter) throws(BLEDecodingError) -> T {
        let start = reader.offset
        let remaining = reader.remainingCount
        if remaining < size { throw truncation(parameter, offset: reader.offset, needed: size, available: remaining) }
        var inner = ATTFieldDecoder(reader: ByteReader(try reader.readSlice(size, "")))
        var value = T()
        do {
            try value.layout(&inner)
            try inner.reader.expectEnd()
        } catch {
            throw error.shifted(by: start)
        }
        return value
    }
}
