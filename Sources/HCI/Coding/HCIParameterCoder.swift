import BLECore

/// One walk over an HCI parameter layout, in one direction: octets into fields
/// (``HCIParameterDecoder``), fields into octets (``HCIParameterEncoder``), or fields into text
/// (``HCIParameterDescriber``).
///
/// Every command, return-parameter set and event declares its layout once, as a
/// ``HCIParameterLayout/layout(_:)`` function that hands each field to a coder in the order and
/// size the specification lists them (Core v5.4, Vol 4, Part E, 5.2: parameters are sent in the
/// order listed, multi-octet values least significant octet first; for arrayed parameters all
/// parameters of element 0 come first, then those of element 1, and so on). Decoding, encoding and
/// the one-line description all follow from that single declaration, so they cannot disagree.
///
/// Field names are the specification's parameter names (for example "LE_Scan_Interval"); a
/// decoder puts them in its errors, a describer prints them in lower case.
public protocol HCIParameterCoder {
    /// What the walk can fail with: ``BLEDecodingError`` when decoding, `Never` otherwise.
    associatedtype Failure: Error

    /// Whether the walk fills fields from octets. Layouts consult it only to check values that
    /// decoding must reject and to build derived fields (such as padding) in the right direction.
    var isDecoding: Bool { get }

    /// The offset of the next field, in octets from the start of the parameters.
    var offset: Int { get }

    /// A one-octet unsigned field.
    mutating func code(_ value: inout UInt8, _ field: String, format: HCIFieldFormat) throws(Failure)
    /// A two-octet unsigned field.
    mutating func code(_ value: inout UInt16, _ field: String, format: HCIFieldFormat) throws(Failure)
    /// A three-octet unsigned field held in the low 24 bits of `value`.
    mutating func codeUInt24(_ value: inout UInt32, _ field: String, format: HCIFieldFormat) throws(Failure)
    /// A four-octet unsigned field.
    mutating func code(_ value: inout UInt32, _ field: String, format: HCIFieldFormat) throws(Failure)
    /// An eight-octet unsigned field.
    mutating func code(_ value: inout UInt64, _ field: String, format: HCIFieldFormat) throws(Failure)
    /// A one-octet signed field in dBm (RSSI, TX_Power).
    mutating func code(dBm value: inout Int8, _ field: String) throws(Failure)
    /// A six-octet BD_ADDR.
    mutating func code(_ value: inout BluetoothAddress, _ field: String) throws(Failure)
    /// A field of exactly `count` octets when decoding; when encoding, every octet of `value`.
    mutating func code(_ value: inout [UInt8], count: Int, _ field: String) throws(Failure)
    /// Every octet left in the parameters (possibly none).
    mutating func codeRemaining(_ value: inout [UInt8], _ field: String) throws(Failure)
    /// A field whose value is one of the stack's typed values (an enumeration kept raw, a bit
    /// mask, a duration), ``HCIFieldValue/octets`` wide.
    mutating func code<T: HCIFieldValue>(_ value: inout T, _ field: String) throws(Failure)
    /// An arrayed parameter: `count` elements when decoding, every element when encoding.
    /// A decoder reports an element's error with the index appended to the field, as in
    /// "Event_Type[2]".
    mutating func code<E: HCIParameterLayout>(_ elements: inout [E], count: Int, _ field: String) throws(Failure)
    /// Rejects a decoded value: a decoder throws
    /// ``BLEDecodingError/invalidValue(field:offset:reason:)`` unless `condition` holds; encoders and
    /// describers ignore the check.
    mutating func check(_ condition: Bool, _ field: String, offset: Int, _ reason: @autoclosure () -> String) throws(Failure)
}

/// How a describer prints an integer field.
public enum HCIFieldFormat: Sendable, Hashable {
    /// Decimal, for counts and lengths.
    case decimal
    /// Hexadecimal with a "0x" prefix and every digit of the field's width, for handles, keys
    /// and identifiers.
    case hex
}

extension HCIParameterCoder {
    /// A one-octet unsigned field, described in decimal.
    @inlinable
    public mutating func code(_ value: inout UInt8, _ field: String) throws(Failure) {
        try code(&value, field, format: .decimal)
    }

    /// A two-octet unsigned field, described in decimal.
    @inlinable
    public mutating func code(_ value: inout UInt16, _ field: String) throws(Failure) {
        try code(&value, field, format: .decimal)
    }

    /// The default typed-value walk: the value's raw integer, ``HCIFieldValue/octets`` wide.
    @inlinable
    public mutating func code<T: HCIFieldValue>(_ value: inout T, _ field: String) throws(Failure) {
        switch T.octets {
        case 1:
            var raw = UInt8(truncatingIfNeeded: value.rawValue)
            try code(&raw, field, format: .hex)
            value = T(rawValue: T.RawValue(truncatingIfNeeded: raw))
        case 2:
            var raw = UInt16(truncatingIfNeeded: value.rawValue)
            try code(&raw, field, format: .hex)
            value = T(rawValue: T.RawValue(truncatingIfNeeded: raw))
        case 3:
            var raw = UInt32(truncatingIfNeeded: value.rawValue) & 0xFF_FFFF
            try codeUInt24(&raw, field, format: .hex)
            value = T(rawValue: T.RawValue(truncatingIfNeeded: raw))
        case 4:
            var raw = UInt32(truncatingIfNeeded: value.rawValue)
            try code(&raw, field, format: .hex)
            value = T(rawValue: T.RawValue(truncatingIfNeeded: raw))
        default:
            var raw = UInt64(truncatingIfNeeded: value.rawValue)
            try code(&raw, field, format: .hex)
            value = T(rawValue: T.RawValue(truncatingIfNeeded: raw))
        }
    }

    /// A length octet followed by that many octets, as in Data_Length and Data. Encoding writes
    /// the length of `data` (its low eight bits; callers keep `data` within 255 octets).
    @inlinable
    public mutating func code(lengthPrefixed data: inout [UInt8], lengthField: String, _ field: String) throws(Failure) {
        var length = UInt8(truncatingIfNeeded: data.count)
        try code(&length, lengthField)
        try code(&data, count: Int(length), field)
    }

    /// A one-octet element count followed by the elements, as in Num_Reports and its reports.
    /// Encoding writes the number of `elements` (its low eight bits).
    @inlinable
    public mutating func code<E: HCIParameterLayout>(counted elements: inout [E], countField: String, _ field: String) throws(Failure) {
        var count = UInt8(truncatingIfNeeded: elements.count)
        try code(&count, countField)
        try code(&elements, count: Int(count), field)
    }
}
