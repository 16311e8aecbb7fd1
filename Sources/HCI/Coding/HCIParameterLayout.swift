import BLECore

/// A set of HCI parameters whose layout is declared once, in ``layout(_:)``: command parameters,
/// return parameters, event parameters, or one element of an arrayed parameter.
///
/// Decoding (``init(decoding:)``), encoding (``encoded``) and the one-line description
/// (``fieldsDescription``) all run the same ``layout(_:)``.
///
/// ```swift
/// let enable = try HCILESetScanEnable(decoding: [0x01, 0x00])
/// enable.encoded            // [0x01, 0x00]
/// enable.fieldsDescription  // "le_scan_enable=1 filter_duplicates=0"
/// ```
public protocol HCIParameterLayout: Hashable, Sendable {
    /// The value that decoding starts from before ``layout(_:)`` fills every field: zeros, empty
    /// arrays and the first value of each enumeration.
    init()

    /// Hands every field to `coder`, in the specification's order and sizes.
    ///
    /// - Throws: whatever the coder throws (``BLEDecodingError`` from a decoder; nothing from an
    ///   encoder or describer).
    mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure)

    /// The fields as "name=value" pairs on one line, names in the specification's terms in lower
    /// case, durations with their unit. By default, what ``HCIParameterDescriber`` prints.
    var fieldsDescription: String { get }
}

extension HCIParameterLayout {
    /// Decodes the parameters from `parameters`, which must hold them exactly.
    ///
    /// - Throws: ``BLEDecodingError`` naming the field and its offset (counted from the first
    ///   octet of `parameters`): ``BLEDecodingError/truncated(field:offset:needed:available:)``
    ///   when the octets end inside a field, ``BLEDecodingError/invalidValue(field:offset:reason:)``
    ///   for a value the layout rejects, ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)``
    ///   when octets remain after the last field.
    @inlinable
    public init(decoding parameters: ArraySlice<UInt8>) throws(BLEDecodingError) {
        var decoder = HCIParameterDecoder(parameters)
        self.init()
        try layout(&decoder)
        try decoder.reader.expectEnd()
    }

    /// Decodes the parameters from `parameters`, which must hold them exactly.
    ///
    /// - Throws: ``BLEDecodingError`` as ``init(decoding:)`` does.
    @inlinable
    public init(decoding parameters: [UInt8]) throws(BLEDecodingError) {
        try self.init(decoding: parameters[...])
    }

    /// Decodes one instance from `reader`, leaving it after the last field (for elements that
    /// follow one another inside a larger structure).
    ///
    /// - Throws: ``BLEDecodingError`` naming the field, with offsets counted as `reader` counts them.
    @inlinable
    public init(from reader: inout ByteReader) throws(BLEDecodingError) {
        var decoder = HCIParameterDecoder(reader: reader)
        self.init()
        try layout(&decoder)
        reader = decoder.reader
    }

    /// The parameters' octets, as ``layout(_:)`` lays them out.
    @inlinable
    public var encoded: [UInt8] {
        var encoder = HCIParameterEncoder()
        write(to: &encoder.writer)
        return encoder.writer.bytes
    }

    /// Appends the parameters' octets to `writer`.
    @inlinable
    public func write(to writer: inout ByteWriter) {
        var encoder = HCIParameterEncoder(writer: writer)
        writer = ByteWriter(capacity: 0)
        var copy = self
        copy.layout(&encoder)
        writer = encoder.writer
    }

    /// The fields as "name=value" pairs, from ``HCIParameterDescriber``.
    public var fieldsDescription: String {
        var describer = HCIParameterDescriber()
        var copy = self
        copy.layout(&describer)
        return describer.text
    }
}
