import BLECore

/// ATT_FIND_BY_TYPE_VALUE_REQ, opcode 0x06 (Core v5.4, Vol 3, Part F, 3.4.3.3): the handles
/// of attributes with a 16-bit type and a given value (GATT uses it to discover a primary
/// service by UUID).
///
/// | Attribute Opcode | Starting Handle | Ending Handle | Attribute Type | Attribute Value |
/// |---|---|---|---|---|
/// | 1 octet (0x06) | 2 octets | 2 octets | 2 octets (16-bit UUID) | 0 to (ATT_MTU-7) octets |
///
/// A range with Starting Handle 0x0000 or Starting Handle > Ending Handle is well formed; the
/// server answers it with Invalid Handle (0x01), so the codec keeps it.
public struct ATTFindByTypeValueRequest: ATTPDUCodable {
    /// Answered by ATT_FIND_BY_TYPE_VALUE_RSP.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .findByTypeValueRequest, name: "Find By Type Value Request", pduName: "ATT_FIND_BY_TYPE_VALUE_REQ",
        kind: .request, response: .findByTypeValueResponse, case: ATTPDU.findByTypeValueRequest)

    /// Starting Handle: the first requested handle.
    public var startingHandle: UInt16
    /// Ending Handle: the last requested handle.
    public var endingHandle: UInt16
    /// Attribute Type: a 16-bit UUID (the PDU has no room for a longer one).
    public var attributeType: UInt16
    /// Attribute Value: the value to match, compared by length and octets; never interpreted.
    public var attributeValue: [UInt8]

    /// A request for attributes of type `attributeType` whose value is `attributeValue`.
    public init(startingHandle: UInt16, endingHandle: UInt16, attributeType: UInt16, attributeValue: [UInt8]) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeType = attributeType
        self.attributeValue = attributeValue
    }

    /// ``attributeType`` as a UUID.
    public var attributeTypeUUID: BluetoothUUID { BluetoothUUID(attributeType) }
}

extension ATTFindByTypeValueRequest: ATTPDUBody {
    init() { self.init(startingHandle: 0, endingHandle: 0, attributeType: 0, attributeValue: []) }

    /// "0x0001..0xffff type 2800 (Primary Service) value 0d18"; the value fills the rest of the
    /// PDU, possibly empty.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&startingHandle, .startingHandle)
        try c.handle(&endingHandle, .endingHandle)
        try c.uuid16(&attributeType, .attributeType)
        try c.remaining(&attributeValue, .attributeValue)
    }
}

/// ATT_FIND_BY_TYPE_VALUE_RSP, opcode 0x07 (Core v5.4, Vol 3, Part F, 3.4.3.4): the handle
/// ranges of the matching attributes.
///
/// | Attribute Opcode | Handles Information List |
/// |---|---|
/// | 1 octet (0x07) | 4 to (ATT_MTU-1) octets: one or more Handles Information |
///
/// Each Handles Information is Found Attribute Handle (2) and Group End Handle (2) (Table 3.14).
public struct ATTFindByTypeValueResponse: ATTPDUCodable {
    /// Answers ATT_FIND_BY_TYPE_VALUE_REQ.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .findByTypeValueResponse, name: "Find By Type Value Response", pduName: "ATT_FIND_BY_TYPE_VALUE_RSP",
        kind: .response, case: ATTPDU.findByTypeValueResponse)

    /// One Handles Information (Table 3.14): a found attribute and the end of its group.
    public struct HandlesInformation: Hashable, Sendable {
        /// Found Attribute Handle: the attribute with the requested type and value.
        public var foundAttributeHandle: UInt16
        /// Group End Handle: the last handle of its group (equal to the found handle for a
        /// type that is not a grouping attribute; may exceed the request's Ending Handle).
        public var groupEndHandle: UInt16

        /// A found attribute and its group's end.
        public init(foundAttributeHandle: UInt16, groupEndHandle: UInt16) {
            self.foundAttributeHandle = foundAttributeHandle
            self.groupEndHandle = groupEndHandle
        }
    }

    /// Handles Information List: one or more entries, ordered by found handle.
    public private(set) var handlesInformation: [HandlesInformation]

    /// A response listing `handlesInformation`.
    ///
    /// - Throws: ``ATTEncodingError`` when the list is empty (the PDU carries at least one entry).
    public init(handlesInformation: [HandlesInformation]) throws(ATTEncodingError) {
        guard !handlesInformation.isEmpty else {
            throw ATTEncodingError(opcode: Self.opcode, .handlesInformationList, "needs at least one entry")
        }
        self.handlesInformation = handlesInformation
    }
}

extension ATTFindByTypeValueResponse: ATTPDUBody {
    init() { handlesInformation = [] }

    /// "0x0010..0x0015, 0x0020..0xffff": one or more 4-octet entries filling the PDU.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.list(&handlesInformation, .handlesInformationList, entrySize: 4, minimumCount: 1)
    }
}

extension ATTFindByTypeValueResponse.HandlesInformation: ATTLayout {
    init() { self.init(foundAttributeHandle: 0, groupEndHandle: 0) }

    /// Found Attribute Handle (2), Group End Handle (2).
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&foundAttributeHandle, .foundAttributeHandle)
        try c.handle(&groupEndHandle, .groupEndHandle)
    }
}
