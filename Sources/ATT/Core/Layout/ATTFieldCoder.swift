import BLECore

/// One walk over an ATT PDU's parameters, in wire order (Core v5.4, Vol 3, Part F, 3.4), in one
/// direction: octets into fields (``ATTFieldDecoder``), fields into octets (``ATTFieldEncoder``),
/// fields into the one-line summary (``ATTFieldDescriber``), into named fields for JSON
/// (``ATTFieldCollector``), into the attribute handles the PDU names (``ATTHandleCollector``),
/// or into a count of octets (``ATTFieldCounter``).
///
/// Each PDU declares its parameters once, in an ``ATTLayout/layout(_:)`` that hands every field
/// to a coder with its ``ATTParameter``; every direction runs that one function. Multi-octet
/// values are little-endian (3.2.9). Offsets count from the Attribute Opcode.
protocol ATTFieldCoder {
    /// The offset of the next field, in octets from the opcode, when decoding; 0 otherwise.
    var offset: Int { get }

    /// A 2-octet attribute handle (printed "0x0012").
    mutating func handle(_ value: inout UInt16, _ parameter: ATTParameter) throws(BLEDecodingError)
    /// A 1-octet unsigned integer (printed in decimal).
    mutating func integer(_ value: inout UInt8, _ parameter: ATTParameter) throws(BLEDecodingError)
    /// A 2-octet unsigned integer (printed in decimal).
    mutating func integer(_ value: inout UInt16, _ parameter: ATTParameter) throws(BLEDecodingError)
    /// A 4-octet unsigned integer (printed in decimal).
    mutating func integer(_ value: inout UInt32, _ parameter: ATTParameter) throws(BLEDecodingError)
    /// An 8-octet integer shown as its octets in transmission order (a MAC).
    mutating func integerOctets(_ value: inout UInt64, _ parameter: ATTParameter) throws(BLEDecodingError)
    /// A 1-octet value kept raw that has a name (an opcode, an error code, flags).
    mutating func code<T: ATTCodedValue>(_ value: inout T, _ parameter: ATTParameter) throws(BLEDecodingError)
    /// Every octet left in the PDU (or in the list entry) but the last `reserved`, possibly none.
    mutating func remaining(_ value: inout [UInt8], _ parameter: ATTParameter, reserving reserved: Int) throws(BLEDecodingError)
    /// A UUID filling the rest of the PDU (or entry): 2 octets (16-bit) or 16 (128-bit); a
    /// 32-bit UUID is written in 128 bits (3.2.1).
    mutating func uuid(_ value: inout BluetoothUUID, _ parameter: ATTParameter) throws(BLEDecodingError)
    /// A 16-bit UUID carried as its 2-octet value.
    mutating func uuid16(_ value: inout UInt16, _ parameter: ATTParameter) throws(BLEDecodingError)
    /// A list of `element` handles filling the rest of the PDU, at least `minimumCount` of them.
    mutating func handles(_ value: inout [UInt16], _ parameter: ATTParameter, element: ATTParameter,
                          minimumCount: Int) throws(BLEDecodingError)
    /// A list of `entrySize`-octet entries filling the rest of the PDU, at least `minimumCount`.
    mutating func list<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter, entrySize: Int,
                                     minimumCount: Int) throws(BLEDecodingError)
    /// Entries of varying sizes, one after another until the PDU ends, which holds at least
    /// `minimumLength` octets of them.
    mutating func sequence<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter,
                                         minimumLength: Int) throws(BLEDecodingError)
    /// A 2-octet Value Length and the value it counts. With `truncatable`, the value may end
    /// early with the PDU (3.4.4.12); without, it must be whole (3.4.7.4).
    mutating func lengthValue(_ length: inout UInt16, _ value: inout [UInt8], _ lengthParameter: ATTParameter,
                              _ valueParameter: ATTParameter, truncatable: Bool) throws(BLEDecodingError)
    /// A structure of exactly `size` octets whose fields sit among the PDU's own.
    mutating func group<G: ATTLayout>(_ value: inout G, _ parameter: ATTParameter, size: Int) throws(BLEDecodingError)
    /// Rejects a decoded value: a decoder throws ``BLEDecodingError/invalidValue(field:offset:reason:)``
    /// unless `condition` holds; the other coders check nothing.
    mutating func check(_ condition: Bool, _ parameter: ATTParameter, offset: Int,
                        _ reason: @autoclosure () -> String) throws(BLEDecodingError)
}

extension ATTFieldCoder {
    /// Every octet left in the PDU (or entry), possibly none.
    mutating func remaining(_ value: inout [UInt8], _ parameter: ATTParameter) throws(BLEDecodingError) {
        try remaining(&value, parameter, reserving: 0)
    }
}

/// A structure whose fields are declared once, in ``layout(_:)``: a PDU, an entry of a PDU's
/// list, or a group of fields such as the Authentication Signature.
///
/// Each PDU's `layout` is marked `@inline(never)`: the compiler then calls the copy it
/// specialized for each coder, whose field calls are direct. Inlined into a caller before it
/// is specialized, a layout kept the decoder's field calls indirect, through the witness table
/// (a decoder's typed error is returned indirectly, which keeps the calls from being
/// devirtualized), and decoding ran at half the speed of the hand-written decoders it replaced.
protocol ATTLayout {
    /// The value a decoder starts from before ``layout(_:)`` fills every field.
    init()
    /// Hands every field to `coder`, in wire order, each with its ``ATTParameter``. Only a
    /// decoder throws; the other coders walk a layout with ``walk(_:)``.
    ///
    /// The error type is concrete, not the coder's own: with a generic typed error, the compiler
    /// leaves a decoder's field calls indirect where it inlines a layout.
    mutating func layout<C: ATTFieldCoder>(_ coder: inout C) throws(BLEDecodingError)
}

extension ATTLayout {
    /// Hands every field to `coder`, a coder that never fails (every coder but
    /// ``ATTFieldDecoder``, whose reads are the only fields that throw).
    @inline(__always)
    mutating func walk<C: ATTFieldCoder>(_ coder: inout C) {
        do { try layout(&coder) } catch {
            // Unreachable: a layout throws only what its coder's fields throw.
        }
    }
}

/// A one-octet value kept raw that has a name: ``ATTOpcode``, ``ATTErrorCode``, Execute Write's
/// flags, Find Information's format.
protocol ATTCodedValue {
    /// The octet as transmitted.
    var rawValue: UInt8 { get }
    /// A value from its octet; every octet is accepted.
    init(rawValue: UInt8)
    /// How the summary shows the value ("Write Request", "Insufficient Authentication (0x05)").
    var summaryText: String { get }
    /// The name a named field carries beside the number (``ATTParameter/nameKey``).
    var nameText: String { get }
}

extension ATTOpcode: ATTCodedValue {
    /// The PDU's name: "Write Request".
    var summaryText: String { name }
    /// The PDU's name: "Write Request".
    var nameText: String { name }
}

extension ATTErrorCode: ATTCodedValue {
    /// "Insufficient Authentication (0x05)".
    var summaryText: String { description }
    /// "Insufficient Authentication".
    var nameText: String { name }
}
