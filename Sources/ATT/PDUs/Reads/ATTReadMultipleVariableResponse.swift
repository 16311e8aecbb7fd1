import BLECore

/// ATT_READ_MULTIPLE_VARIABLE_RSP, opcode 0x21 (Core v5.4, Vol 3, Part F, 3.4.4.12): the
/// requested values, each preceded by its length.
///
/// | Attribute Opcode | Length Value Tuple List |
/// |---|---|
/// | 1 octet (0x21) | 4 to (ATT_MTU-1) octets |
///
/// Each Length Value Tuple is Value Length (2) and Attribute Value (Value Length octets)
/// (Table 3.29). A list longer than ATT_MTU-1 is cut after ATT_MTU-1 octets, or, if that
/// would fall inside a Value Length field, at the start of that tuple. So:
///
/// - a Value Length field is never split: one octet left where a tuple should start is malformed;
/// - the last tuple may carry fewer value octets than its Value Length says
///   (``LengthValueTuple/isTruncated``); the client reads the rest with ATT_READ_BLOB_REQ;
/// - every tuple before the last is complete.
public struct ATTReadMultipleVariableResponse: ATTPDUCodable {
    /// Answers ATT_READ_MULTIPLE_VARIABLE_REQ.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .readMultipleVariableResponse, name: "Read Multiple Variable Response",
        pduName: "ATT_READ_MULTIPLE_VARIABLE_RSP", kind: .response, case: ATTPDU.readMultipleVariableResponse)

    /// The shortest Length Value Tuple List the PDU allows: 4 octets (Table 3.28).
    public static let minimumListLength = 4

    /// One Length Value Tuple (Table 3.29).
    public struct LengthValueTuple: Hashable, Sendable {
        /// Value Length as transmitted: the length of the whole attribute value, in octets.
        public private(set) var valueLength: UInt16
        /// Attribute Value: the octets included, never interpreted. Fewer than
        /// ``valueLength`` only in a truncated last tuple.
        public private(set) var attributeValue: [UInt8]

        /// A complete tuple: Value Length is `attributeValue.count`.
        ///
        /// A value longer than 65535 octets cannot be sent; the response's initializer
        /// rejects it.
        public init(attributeValue: [UInt8]) {
            self.valueLength = UInt16(clamping: attributeValue.count)
            self.attributeValue = attributeValue
        }

        /// A tuple cut short by the end of the PDU: `valueLength` is the full value's length,
        /// `includedValue` its first octets. Only the last tuple of a response may be cut.
        public init(valueLength: UInt16, includedValue: [UInt8]) {
            self.valueLength = valueLength
            self.attributeValue = includedValue
        }

        /// Whether the tuple carries fewer value octets than its Value Length.
        public var isTruncated: Bool { attributeValue.count < Int(valueLength) }
    }

    /// Length Value Tuple List: one tuple per requested handle, in request order; the last may
    /// be truncated.
    public private(set) var tuples: [LengthValueTuple]

    /// A response carrying `tuples`.
    ///
    /// - Throws: ``ATTEncodingError`` when the list would be shorter than 4 octets, a value is
    ///   longer than 65535 octets or than its Value Length, or a tuple other than the last is
    ///   truncated.
    public init(tuples: [LengthValueTuple]) throws(ATTEncodingError) {
        var total = 0
        for (i, tuple) in tuples.enumerated() {
            let count = tuple.attributeValue.count
            guard count <= Int(UInt16.max), count <= Int(tuple.valueLength) else {
                throw ATTEncodingError(opcode: Self.opcode, .lengthValueTupleList,
                                       "tuple \(i) carries \(count) octets, more than its Value Length \(tuple.valueLength)")
            }
            if tuple.isTruncated, i != tuples.count - 1 {
                throw ATTEncodingError(opcode: Self.opcode, .lengthValueTupleList,
                                       "tuple \(i) is truncated but is not the last tuple")
            }
            total += 2 + count
        }
        guard total >= Self.minimumListLength else {
            throw ATTEncodingError(opcode: Self.opcode, .lengthValueTupleList,
                                   "\(total) octets; at least \(Self.minimumListLength) are required")
        }
        self.tuples = tuples
    }
}

extension ATTReadMultipleVariableResponse: ATTPDUBody {
    init() { tuples = [] }

    /// "0102, 03 (truncated, Value Length 5)": tuples until the PDU ends, at least 4 octets of
    /// them; the last keeps whatever value octets remain.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.sequence(&tuples, .lengthValueTupleList, minimumLength: Self.minimumListLength)
    }
}

extension ATTReadMultipleVariableResponse.LengthValueTuple: ATTLayout {
    init() { self.init(valueLength: 0, includedValue: []) }

    /// Value Length (2), then Attribute Value: that many octets, or what is left of the PDU.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.lengthValue(&valueLength, &attributeValue, .valueLength, .attributeValue, truncatable: true)
    }
}
