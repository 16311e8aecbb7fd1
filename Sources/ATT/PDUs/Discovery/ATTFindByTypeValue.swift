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
    /// The Attribute Opcode of this PDU, ``ATTOpcode/findByTypeValueRequest``.
    public static let opcode = ATTOpcode.findByTypeValueRequest

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

    /// Reads Starting Handle (2), Ending Handle (2), Attribute Type (2), then the Attribute
    /// Value: every remaining octet (possibly none).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming the short field.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        startingHandle = try r.readUInt16("Starting Handle")
        endingHandle = try r.readUInt16("Ending Handle")
        attributeType = try r.readUInt16("Attribute Type")
        attributeValue = r.readRemaining()
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        w.writeUInt16(startingHandle)
        w.writeUInt16(endingHandle)
        w.writeUInt16(attributeType)
        w.writeBytes(attributeValue)
    }

    /// starting_handle, ending_handle (integers), attribute_type (uuid), value (octets).
    public var fields: [ATTField] {
        [ATTField("starting_handle", .integer(Int(startingHandle))),
         ATTField("ending_handle", .integer(Int(endingHandle))),
         ATTField("attribute_type", .uuid(attributeTypeUUID)),
         ATTField("value", .octets(attributeValue))]
    }

    /// "0x0001..0xffff type 2800 (Primary Service) value 0d18".
    public var parameterSummary: String {
        "\(ATTText.range(startingHandle, endingHandle)) type \(attributeTypeUUID.descriptionWithName) value \(ATTText.octets(attributeValue))"
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
    /// The Attribute Opcode of this PDU, ``ATTOpcode/findByTypeValueResponse``.
    public static let opcode = ATTOpcode.findByTypeValueResponse

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
            throw ATTEncodingError(opcode: Self.opcode, field: "Handles Information List", reason: "needs at least one entry")
        }
        self.handlesInformation = handlesInformation
    }

    /// Reads the Handles Information List: every remaining octet, in 4-octet entries.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` when there is
    ///   no entry; ``BLEDecodingError/invalidValue(field:offset:reason:)`` when the list is
    ///   not a whole number of entries.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        let count = try r.fixedSizeListCount(entrySize: 4, minimumCount: 1,
                                             field: "Handles Information List", entryName: "Handles Information")
        var list: [HandlesInformation] = []
        list.reserveCapacity(count)
        for _ in 0..<count {
            let found = try r.readUInt16("Found Attribute Handle")
            let end = try r.readUInt16("Group End Handle")
            list.append(HandlesInformation(foundAttributeHandle: found, groupEndHandle: end))
        }
        handlesInformation = list
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        for entry in handlesInformation {
            w.writeUInt16(entry.foundAttributeHandle)
            w.writeUInt16(entry.groupEndHandle)
        }
    }

    /// handles_information (list of found_attribute_handle, group_end_handle).
    public var fields: [ATTField] {
        [ATTField("handles_information", .list(handlesInformation.map {
            [ATTField("found_attribute_handle", .integer(Int($0.foundAttributeHandle))),
             ATTField("group_end_handle", .integer(Int($0.groupEndHandle)))]
        }))]
    }

    /// "0x0010..0x0015, 0x0020..0xffff".
    public var parameterSummary: String {
        handlesInformation.map { ATTText.range($0.foundAttributeHandle, $0.groupEndHandle) }.joined(separator: ", ")
    }
}
