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
    /// Answered by ATT_READ_BY_TYPE_RSP.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .readByTypeRequest, name: "Read By Type Request", pduName: "ATT_READ_BY_TYPE_REQ", kind: .request,
        response: .readByTypeResponse, case: ATTPDU.readByTypeRequest)

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
}

extension ATTReadByTypeRequest: ATTPDUBody {
    init() { self.init(startingHandle: 0, endingHandle: 0, attributeType: BluetoothUUID(UInt16(0))) }

    /// "0x0001..0xffff type 2803 (Characteristic)"; the type fills the rest of the PDU, 2 or 16 octets.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&startingHandle, .startingHandle)
        try c.handle(&endingHandle, .endingHandle)
        try c.uuid(&attributeType, .attributeType)
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
    /// Answers ATT_READ_BY_TYPE_REQ.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .readByTypeResponse, name: "Read By Type Response", pduName: "ATT_READ_BY_TYPE_RSP", kind: .response,
        case: ATTPDU.readByTypeResponse)

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
            throw ATTEncodingError(opcode: Self.opcode, .attributeDataList, "needs at least one handle-value pair")
        }
        let valueLength = first.value.count
        guard valueLength <= Self.maximumValueLength else {
            throw ATTEncodingError(opcode: Self.opcode, .attributeValue,
                                   "\(valueLength) octets; at most \(Self.maximumValueLength) fit the Length parameter")
        }
        if let bad = attributeData.firstIndex(where: { $0.value.count != valueLength }) {
            throw ATTEncodingError(opcode: Self.opcode, .attributeDataList,
                                   "pair \(bad) has a \(attributeData[bad].value.count)-octet value; pair 0 has \(valueLength) and all must match")
        }
        self.attributeData = attributeData
    }
}

extension ATTReadByTypeResponse: ATTPDUBody {
    init() { attributeData = [] }

    /// "0x0002: 020300002a, 0x0004: 1005000129": Length (at least 2), then the pairs, each
    /// Length octets, filling the PDU.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        var length = self.length
        let lengthOffset = c.offset
        try c.integer(&length, .length)
        try c.check(length >= 2, .length, offset: lengthOffset, "\(length) is less than 2, the size of the Attribute Handle")
        try c.list(&attributeData, .attributeDataList, entrySize: Int(length), minimumCount: 1)
    }
}

extension ATTReadByTypeResponse.AttributeData: ATTLayout {
    init() { self.init(handle: 0, value: []) }

    /// Attribute Handle (2), Attribute Value (the rest of the pair).
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .attributeHandle)
        try c.remaining(&value, .attributeValue)
    }
}
