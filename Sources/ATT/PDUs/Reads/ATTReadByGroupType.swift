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
    /// Answered by ATT_READ_BY_GROUP_TYPE_RSP.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .readByGroupTypeRequest, name: "Read By Group Type Request", pduName: "ATT_READ_BY_GROUP_TYPE_REQ",
        kind: .request, response: .readByGroupTypeResponse, case: ATTPDU.readByGroupTypeRequest)

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
}

extension ATTReadByGroupTypeRequest: ATTPDUBody {
    init() { self.init(startingHandle: 0, endingHandle: 0, attributeGroupType: BluetoothUUID(UInt16(0))) }

    /// "0x0001..0xffff type 2800 (Primary Service)"; the type fills the rest of the PDU, 2 or 16 octets.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&startingHandle, .startingHandle)
        try c.handle(&endingHandle, .endingHandle)
        try c.uuid(&attributeGroupType, .attributeGroupType)
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
    /// Answers ATT_READ_BY_GROUP_TYPE_REQ.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .readByGroupTypeResponse, name: "Read By Group Type Response", pduName: "ATT_READ_BY_GROUP_TYPE_RSP",
        kind: .response, case: ATTPDU.readByGroupTypeResponse)

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
            throw ATTEncodingError(opcode: Self.opcode, .attributeDataList, "needs at least one Attribute Data")
        }
        let valueLength = first.value.count
        guard valueLength <= Self.maximumValueLength else {
            throw ATTEncodingError(opcode: Self.opcode, .attributeValue,
                                   "\(valueLength) octets; at most \(Self.maximumValueLength) fit the Length parameter")
        }
        if let bad = attributeData.firstIndex(where: { $0.value.count != valueLength }) {
            throw ATTEncodingError(opcode: Self.opcode, .attributeDataList,
                                   "entry \(bad) has a \(attributeData[bad].value.count)-octet value; entry 0 has \(valueLength) and all must match")
        }
        self.attributeData = attributeData
    }
}

extension ATTReadByGroupTypeResponse: ATTPDUBody {
    init() { attributeData = [] }

    /// "0x0001..0x0005: 0018, 0x0006..0x0009: 0118": Length (at least 4), then the entries,
    /// each Length octets, filling the PDU.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        var length = self.length
        let lengthOffset = c.offset
        try c.integer(&length, .length)
        try c.check(length >= 4, .length, offset: lengthOffset,
                    "\(length) is less than 4, the size of the Attribute Handle and End Group Handle")
        try c.list(&attributeData, .attributeDataList, entrySize: Int(length), minimumCount: 1)
    }
}

extension ATTReadByGroupTypeResponse.AttributeData: ATTLayout {
    init() { self.init(handle: 0, endGroupHandle: 0, value: []) }

    /// Attribute Handle (2), End Group Handle (2), Attribute Value (the rest of the entry).
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .attributeHandle)
        try c.handle(&endGroupHandle, .endGroupHandle)
        try c.remaining(&value, .attributeValue)
    }
}
