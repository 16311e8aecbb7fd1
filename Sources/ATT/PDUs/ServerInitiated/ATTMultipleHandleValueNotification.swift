import BLECore

/// ATT_MULTIPLE_HANDLE_VALUE_NTF, opcode 0x23 (Core v5.4, Vol 3, Part F, 3.4.7.4): the
/// values of several attributes in one unconfirmed notification.
///
/// | Attribute Opcode | Handle Length Value Tuple List |
/// |---|---|
/// | 1 octet (0x23) | 8 to (ATT_MTU-1) octets |
///
/// Each Handle Length Value Tuple is Attribute Handle (2), Value Length (2) and Attribute
/// Value (Value Length octets) (Table 3.42). Unlike ATT_READ_MULTIPLE_VARIABLE_RSP, the
/// server "shall not truncate" a tuple, so every tuple must be complete.
///
/// The prose says the PDU notifies "two or more attributes' values", but the format only
/// requires 8 octets of tuples; the codec enforces the 8 octets and accepts a single tuple
/// whose value is 4 octets or longer, so a client does not lose such a notification.
public struct ATTMultipleHandleValueNotification: ATTPDUCodable {
    /// Not answered.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .multipleHandleValueNotification, name: "Multiple Handle Value Notification",
        pduName: "ATT_MULTIPLE_HANDLE_VALUE_NTF", kind: .notification, case: ATTPDU.multipleHandleValueNotification)

    /// The shortest Handle Length Value Tuple List the PDU allows: 8 octets (Table 3.41).
    public static let minimumListLength = 8

    /// One Handle Length Value Tuple (Table 3.42); Value Length is the value's count.
    public struct HandleLengthValueTuple: Hashable, Sendable {
        /// Attribute Handle: the attribute notified.
        public var handle: UInt16
        /// Attribute Value: its value, octets as transmitted (at most 65535).
        public var value: [UInt8]

        /// The tuple `handle`, `value`.
        public init(handle: UInt16, value: [UInt8]) {
            self.handle = handle
            self.value = value
        }
    }

    /// Handle Length Value Tuple List: the attributes notified, each complete.
    public private(set) var tuples: [HandleLengthValueTuple]

    /// A notification of `tuples`.
    ///
    /// - Throws: ``ATTEncodingError`` when the list would be shorter than 8 octets or a value
    ///   is longer than 65535 octets.
    public init(tuples: [HandleLengthValueTuple]) throws(ATTEncodingError) {
        var total = 0
        for (i, tuple) in tuples.enumerated() {
            guard tuple.value.count <= Int(UInt16.max) else {
                throw ATTEncodingError(opcode: Self.opcode, .handleLengthValueTupleList,
                                       "tuple \(i) has \(tuple.value.count) octets; Value Length holds at most 65535")
            }
            total += 4 + tuple.value.count
        }
        guard total >= Self.minimumListLength else {
            throw ATTEncodingError(opcode: Self.opcode, .handleLengthValueTupleList,
                                   "\(total) octets; at least \(Self.minimumListLength) are required")
        }
        self.tuples = tuples
    }
}

extension ATTMultipleHandleValueNotification: ATTPDUBody {
    init() { tuples = [] }

    /// "0x0012: 01, 0x0015: 0203": complete tuples until the PDU ends, at least 8 octets of them.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.sequence(&tuples, .handleLengthValueTupleList, minimumLength: Self.minimumListLength)
    }
}

extension ATTMultipleHandleValueNotification.HandleLengthValueTuple: ATTLayout {
    init() { self.init(handle: 0, value: []) }

    /// Attribute Handle (2), Value Length (2), Attribute Value (Value Length octets, all of them).
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .attributeHandle)
        var length = UInt16(truncatingIfNeeded: value.count)
        try c.lengthValue(&length, &value, .valueLength, .attributeValue, truncatable: false)
    }
}
