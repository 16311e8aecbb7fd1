import BLECore

/// ATT_READ_BY_TYPE_REQ, opcode 0x08 (Core v5.4, Vol 3, Part F, 3.4.4.1): the values of
/// the attributes of a given type in a handle range (GATT uses it to discover
/// characteristics, 0x2803, and to read a characteristic by UUID).
///
/// | Attribute Opcode | Starting Handle | Ending Handle | Attribute Type |
/// |---|---|---|---|
/// | 1 octet (0x08) | 2 octets | 2 octets | 2 or 16 octets (UUID) |
///
/// A range with Starting Handle 0x0000 or Starting Handle > Ending Handle is well formed; the
/// server answers it with Invalid Handle (0x01), so the codec keeps it.
public struct ATTReadByTypeRequest: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/readByTypeRequest``.
    public static let opcode = ATTOpcode.readByTypeRequest

    /// Starting Handle: the first requested handle.
    public var startingHandle: UInt16
    /// Ending Handle: the last requested handle.
    public var endingHandle: UInt16
    /// Attribute Type: sent as 2 octets when the UUID was made 16-bit, else as 16 (a 32-bit
    /// UUID is sent in its 128-bit form). Equality of UUIDs ignores the width.
    public var attributeType: BluetoothUUID

    /// A request for attributes of `attributeType` in `startingHandle...endingHandle`.
    public init(startingHandle: UInt16, endingHandle: UInt16, attributeType: BluetoothUUID) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeType = attributeType
    }

    /// Reads Starting Handle (2), Ending Handle (2), Attribute Type (the remaining 2 or 16 octets).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming the short
    ///   field; ``BLEDecodingError/invalidValue(field:offset:reason:)`` for an Attribute Type
    ///   that is neither 2 nor 16 octets.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        startingHandle = try r.readUInt16("Starting Handle")
        endingHandle = try r.readUInt16("Ending Handle")
        attributeType = try ATTLayouts.readAttributeType(&r, field: "Attribute Type")
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        w.writeUInt16(startingHandle)
        w.writeUInt16(endingHandle)
        ATTLayouts.writeAttributeType(attributeType, to: &w)
    }

    /// starting_handle, ending_handle (integers), attribute_type (uuid).
    public var fields: [ATTField] {
        [ATTField("starting_handle", .integer(Int(startingHandle))),
         ATTField("ending_handle", .integer(Int(endingHandle))),
         ATTField("attribute_type", .uuid(attributeType))]
    }

    /// "0x0001..0xffff type 2803 (Characteristic)".
    public var parameterSummary: String {
        "\(ATTText.range(startingHandle, endingHandle)) type \(attributeType.descriptionWithName)"
    }
}

/// ATT_READ_BY_TYPE_RSP, opcode 0x09 (Core v5.4, Vol 3, Part F, 3.4.4.2): handle-value pairs
/// whose values all have one length.
///
/// | Attribute Opcode | Length | Attribute Data List |
/// |---|---|---|
/// | 1 octet (0x09) | 1 octet: size of one pair | 2 to (ATT_MTU-2) octets |
///
/// Each Attribute Data is Attribute Handle (2) and Attribute Value (Length - 2) (Table 3.17),
/// so Length is at least 2 and a value at most 253 octets. The list holds at least one
/// complete pair and is a whole number of pairs. A value longer than min(ATT_MTU - 4, 253)
/// is cut to that length by the server; the codec keeps what arrived.
public struct ATTReadByTypeResponse: ATTPDUCodable {
    /// The Attribute Opcode of this PDU, ``ATTOpcode/readByTypeResponse``.
    public static let opcode = ATTOpcode.readByTypeResponse

    /// The largest Attribute Value a pair can carry: 253 octets (Length is one octet).
    public static let maximumValueLength = 253

    /// One Attribute Data (Table 3.17): a handle and the attribute's value (or its first part).
    public struct AttributeData: Hashable, Sendable {
        /// Attribute Handle.
        public var handle: UInt16
        /// Attribute Value: octets as transmitted, never interpreted.
        public var value: [UInt8]

        /// The pair `handle`, `value`.
        public init(handle: UInt16, value: [UInt8]) {
            self.handle = handle
            self.value = value
        }
    }

    /// Attribute Data List: one or more pairs, in handle order, all with values of one length.
    public private(set) var attributeData: [AttributeData]

    /// Length: the size of one pair, 2 + the common value length.
    public var length: UInt8 { UInt8(truncatingIfNeeded: 2 &+ (attributeData.first?.value.count ?? 0)) }

    /// A response carrying `attributeData`.
    ///
    /// - Throws: ``ATTEncodingError`` when the list is empty, a value's length differs from the
    ///   first one's, or the values are longer than 253 octets.
    public init(attributeData: [AttributeData]) throws(ATTEncodingError) {
        guard let first = attributeData.first else {
            throw ATTEncodingError(opcode: Self.opcode, field: "Attribute Data List", reason: "needs at least one handle-value pair")
        }
        let valueLength = first.value.count
        guard valueLength <= Self.maximumValueLength else {
            throw ATTEncodingError(opcode: Self.opcode, field: "Attribute Value",
                                   reason: "\(valueLength) octets; at most \(Self.maximumValueLength) fit the Length parameter")
        }
        if let bad = attributeData.firstIndex(where: { $0.value.count != valueLength }) {
            throw ATTEncodingError(opcode: Self.opcode, field: "Attribute Data List",
                                   reason: "pair \(bad) has a \(attributeData[bad].value.count)-octet value; pair 0 has \(valueLength) and all must match")
        }
        self.attributeData = attributeData
    }

    /// Reads Length (1), then the Attribute Data List: every remaining octet, in pairs of Length.
    ///
    /// - Throws: ``BLEDecodingError/invalidValue(field:offset:reason:)`` for a Length below 2
    ///   or a list that is not a whole number of pairs;
    ///   ``BLEDecodingError/truncated(field:offset:needed:available:)`` when there is no pair.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        let lengthOffset = r.offset
        let length = Int(try r.readUInt8("Length"))
        guard length >= 2 else {
            throw .invalidValue(field: "Length", offset: lengthOffset,
                                reason: "\(length) is less than 2, the size of the Attribute Handle")
        }
        let count = try r.fixedSizeListCount(entrySize: length, minimumCount: 1,
                                             field: "Attribute Data List", entryName: "Attribute Data")
        var list: [AttributeData] = []
        list.reserveCapacity(count)
        for _ in 0..<count {
            let handle = try r.readUInt16("Attribute Handle")
            let value = try r.readBytes(length &- 2, "Attribute Value")
            list.append(AttributeData(handle: handle, value: value))
        }
        attributeData = list
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        w.writeUInt8(length)
        for pair in attributeData {
            w.writeUInt16(pair.handle)
            w.writeBytes(pair.value)
        }
    }

    /// length (integer), attribute_data (list of handle, value).
    public var fields: [ATTField] {
        [ATTField("length", .integer(Int(length))),
         ATTField("attribute_data", .list(attributeData.map {
             [ATTField("handle", .integer(Int($0.handle))), ATTField("value", .octets($0.value))]
         }))]
    }

    /// "0x0002: 020300002a, 0x0004: 1005000129".
    public var parameterSummary: String {
        attributeData.map { "\(Hex.hex16($0.handle)): \(ATTText.octets($0.value))" }.joined(separator: ", ")
    }
}
