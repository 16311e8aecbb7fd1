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
    /// The Attribute Opcode of this PDU, ``ATTOpcode/multipleHandleValueNotification``.
    public static let opcode = ATTOpcode.multipleHandleValueNotification

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
                throw ATTEncodingError(opcode: Self.opcode, field: "Handle Length Value Tuple List",
                                       reason: "tuple \(i) has \(tuple.value.count) octets; Value Length holds at most 65535")
            }
            total += 4 + tuple.value.count
        }
        guard total >= Self.minimumListLength else {
            throw ATTEncodingError(opcode: Self.opcode, field: "Handle Length Value Tuple List",
                                   reason: "\(total) octets; at least \(Self.minimumListLength) are required")
        }
        self.tuples = tuples
    }

    /// Reads the Handle Length Value Tuple List: complete tuples until the PDU ends.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for a list
    ///   shorter than 8 octets ("Handle Length Value Tuple List"), or a tuple cut short
    ///   ("Attribute Handle", "Value Length" or "Attribute Value", at that field's offset).
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        let available = r.remainingCount
        guard available >= Self.minimumListLength else {
            throw .truncated(field: "Handle Length Value Tuple List", offset: r.offset,
                             needed: Self.minimumListLength, available: available)
        }
        var list: [HandleLengthValueTuple] = []
        while !r.isAtEnd {
            let handle = try r.readUInt16("Attribute Handle")
            let length = try r.readUInt16("Value Length")
            let value = try r.readBytes(Int(length), "Attribute Value")
            list.append(HandleLengthValueTuple(handle: handle, value: value))
        }
        tuples = list
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        for tuple in tuples {
            w.writeUInt16(tuple.handle)
            w.writeUInt16(UInt16(truncatingIfNeeded: tuple.value.count))
            w.writeBytes(tuple.value)
        }
    }

    /// handle_length_value_tuples (list of handle, value_length, value).
    public var fields: [ATTField] {
        [ATTField("handle_length_value_tuples", .list(tuples.map {
            [ATTField("handle", .integer(Int($0.handle))),
             ATTField("value_length", .integer($0.value.count)),
             ATTField("value", .octets($0.value))]
        }))]
    }

    /// "0x0012: 01, 0x0015: 0203".
    public var parameterSummary: String {
        tuples.map { "\(Hex.hex16($0.handle)): \(ATTText.octets($0.value))" }.joined(separator: ", ")
    }
}
