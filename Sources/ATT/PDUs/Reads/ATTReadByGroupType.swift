import BLECore

/// ATT_READ_BY_GROUP_TYPE_REQ, opcode 0x10 (Core v5.4, Vol 3, Part F, 3.4.4.9): the values
/// and group ends of grouping attributes of a type (GATT uses it to discover primary
/// services, 0x2800).
///
/// | Attribute Opcode | Starting Handle | Ending Handle | Attribute Group Type |
/// |---|---|---|---|
/// | 1 octet (0x10) | 2 octets | 2 octets | 2 or 16 octets (UUID) |
///
/// A range with Starting Handle 0x0000 or Starting Handle > Ending Handle is well formed; the
/// server answers it with Invalid Handle (0x01), so the codec keeps it.
public struct ATTReadByGroupTypeRequest: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/readByGroupTypeRequest``.
    public static let opcode = ATTOpcode.readByGroupTypeRequest

    /// Starting Handle: the first requested handle.
    public var startingHandle: UInt16
    /// Ending Handle: the last requested handle.
    public var endingHandle: UInt16
    /// Attribute Group Type: sent as 2 octets when the UUID was made 16-bit, else as 16 (a
    /// 32-bit UUID is sent in its 128-bit form). Equality of UUIDs ignores the width.
    public var attributeGroupType: BluetoothUUID

    /// A request for groups of `attributeGroupType` in `startingHandle...endingHandle`.
    public init(startingHandle: UInt16, endingHandle: UInt16, attributeGroupType: BluetoothUUID) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeGroupType = attributeGroupType
    }

    /// Reads Starting Handle (2), Ending Handle (2), Attribute Group Type (the remaining 2 or
    /// 16 octets).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming the short
    ///   field; ``BLEDecodingError/invalidValue(field:offset:reason:)`` for an Attribute Group
    ///   Type that is neither 2 nor 16 octets.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        startingHandle = try r.readUInt16("Starting Handle")
        endingHandle = try r.readUInt16("Ending Handle")
        attributeGroupType = try ATTLayouts.readAttributeType(&r, field: "Attribute Group Type")
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        w.writeUInt16(startingHandle)
        w.writeUInt16(endingHandle)
        ATTLayouts.writeAttributeType(attributeGroupType, to: &w)
    }

    /// starting_handle, ending_handle (integers), attribute_group_type (uuid).
    public var fields: [ATTField] {
        [ATTField("starting_handle", .integer(Int(startingHandle))),
         ATTField("ending_handle", .integer(Int(endingHandle))),
         ATTField("attribute_group_type", .uuid(attributeGroupType))]
    }

    /// "0x0001..0xffff type 2800 (Primary Service)".
    public var parameterSummary: String {
        "\(ATTText.range(startingHandle, endingHandle)) type \(attributeGroupType.descriptionWithName)"
    }
}

/// ATT_READ_BY_GROUP_TYPE_RSP, opcode 0x11 (Core v5.4, Vol 3, Part F, 3.4.4.10): groups with
/// their end handles and values, all values of one length.
///
/// | Attribute Opcode | Length | Attribute Data List |
/// |---|---|---|
/// | 1 octet (0x11) | 1 octet: size of one Attribute Data | 4 to (ATT_MTU-2) octets |
///
/// Each Attribute Data is Attribute Handle (2), End Group Handle (2) and Attribute Value
/// (Length - 4) (Table 3.26), so Length is at least 4 and a value at most 251 octets. The
/// list holds at least one complete entry and is a whole number of entries.
public struct ATTReadByGroupTypeResponse: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/readByGroupTypeResponse``.
    public static let opcode = ATTOpcode.readByGroupTypeResponse

    /// The largest Attribute Value an entry can carry: 251 octets (Length is one octet).
    public static let maximumValueLength = 251

    /// One Attribute Data (Table 3.26): a group's first and last handles and its value.
    public struct AttributeData: Hashable, Sendable {
        /// Attribute Handle: the grouping attribute (for GATT, the service declaration).
        public var handle: UInt16
        /// End Group Handle: the last handle of the group.
        public var endGroupHandle: UInt16
        /// Attribute Value (for GATT, the service UUID): octets as transmitted, never interpreted.
        public var value: [UInt8]

        /// The entry `handle`...`endGroupHandle` with `value`.
        public init(handle: UInt16, endGroupHandle: UInt16, value: [UInt8]) {
            self.handle = handle
            self.endGroupHandle = endGroupHandle
            self.value = value
        }
    }

    /// Attribute Data List: one or more entries, in handle order, all with values of one length.
    public private(set) var attributeData: [AttributeData]

    /// Length: the size of one entry, 4 + the common value length.
    public var length: UInt8 { UInt8(truncatingIfNeeded: 4 &+ (attributeData.first?.value.count ?? 0)) }

    /// A response carrying `attributeData`.
    ///
    /// - Throws: ``ATTEncodingError`` when the list is empty, a value's length differs from the
    ///   first one's, or the values are longer than 251 octets.
    public init(attributeData: [AttributeData]) throws(ATTEncodingError) {
        guard let first = attributeData.first else {
            throw ATTEncodingError(opcode: Self.opcode, field: "Attribute Data List", reason: "needs at least one Attribute Data")
        }
        let valueLength = first.value.count
        guard valueLength <= Self.maximumValueLength else {
            throw ATTEncodingError(opcode: Self.opcode, field: "Attribute Value",
                                   reason: "\(valueLength) octets; at most \(Self.maximumValueLength) fit the Length parameter")
        }
        if let bad = attributeData.firstIndex(where: { $0.value.count != valueLength }) {
            throw ATTEncodingError(opcode: Self.opcode, field: "Attribute Data List",
                                   reason: "entry \(bad) has a \(attributeData[bad].value.count)-octet value; entry 0 has \(valueLength) and all must match")
        }
        self.attributeData = attributeData
    }

    /// Reads Length (1), then the Attribute Data List: every remaining octet, in entries of Length.
    ///
    /// - Throws: ``BLEDecodingError/invalidValue(field:offset:reason:)`` for a Length below 4
    ///   or a list that is not a whole number of entries;
    ///   ``BLEDecodingError/truncated(field:offset:needed:available:)`` when there is no entry.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        let lengthOffset = r.offset
        let length = Int(try r.readUInt8("Length"))
        guard length >= 4 else {
            throw .invalidValue(field: "Length", offset: lengthOffset,
                                reason: "\(length) is less than 4, the size of the Attribute Handle and End Group Handle")
        }
        let count = try r.fixedSizeListCount(entrySize: length, minimumCount: 1,
                                             field: "Attribute Data List", entryName: "Attribute Data")
        var list: [AttributeData] = []
        list.reserveCapacity(count)
        for _ in 0..<count {
            let handle = try r.readUInt16("Attribute Handle")
            let end = try r.readUInt16("End Group Handle")
            let value = try r.readBytes(length &- 4, "Attribute Value")
            list.append(AttributeData(handle: handle, endGroupHandle: end, value: value))
        }
        attributeData = list
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        w.writeUInt8(length)
        for entry in attributeData {
            w.writeUInt16(entry.handle)
            w.writeUInt16(entry.endGroupHandle)
            w.writeBytes(entry.value)
        }
    }

    /// length (integer), attribute_data (list of handle, end_group_handle, value).
    public var fields: [ATTField] {
        [ATTField("length", .integer(Int(length))),
         ATTField("attribute_data", .list(attributeData.map {
             [ATTField("handle", .integer(Int($0.handle))),
              ATTField("end_group_handle", .integer(Int($0.endGroupHandle))),
              ATTField("value", .octets($0.value))]
         }))]
    }

    /// "0x0001..0x0005: 0018, 0x0006..0x0009: 0118".
    public var parameterSummary: String {
        attributeData.map { "\(ATTText.range($0.handle, $0.endGroupHandle)): \(ATTText.octets($0.value))" }
            .joined(separator: ", ")
    }
}
