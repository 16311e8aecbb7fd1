import BLECore

/// ATT_PREPARE_WRITE_REQ, opcode 0x16 (Core v5.4, Vol 3, Part F, 3.4.6.1): queue part of a
/// value to be written at an offset when ATT_EXECUTE_WRITE_REQ arrives.
///
/// | Attribute Opcode | Attribute Handle | Value Offset | Part Attribute Value |
/// |---|---|---|---|
/// | 1 octet (0x16) | 2 octets | 2 octets, in octets | 0 to (ATT_MTU-5) octets |
///
/// The offset and value are checked only at execution (Invalid Offset, Invalid Attribute
/// Value Length), so the codec keeps any offset.
public struct ATTPrepareWriteRequest: ATTPDUCodable {
    /// Answered by ATT_PREPARE_WRITE_RSP.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .prepareWriteRequest, name: "Prepare Write Request", pduName: "ATT_PREPARE_WRITE_REQ", kind: .request,
        response: .prepareWriteResponse, case: ATTPDU.prepareWriteRequest)

    /// Attribute Handle: the attribute to write.
    public var handle: UInt16
    /// Value Offset: where in the attribute value the part goes, from zero.
    public var valueOffset: UInt16
    /// Part Attribute Value: octets as transmitted, never interpreted (possibly none).
    public var partAttributeValue: [UInt8]

    /// A request to queue `partAttributeValue` for `handle` at `valueOffset`.
    public init(handle: UInt16, valueOffset: UInt16, partAttributeValue: [UInt8]) {
        self.handle = handle
        self.valueOffset = valueOffset
        self.partAttributeValue = partAttributeValue
    }
}

extension ATTPrepareWriteRequest: ATTPDUBody {
    init() { self.init(handle: 0, valueOffset: 0, partAttributeValue: []) }

    /// "handle 0x0012 offset 18 value 0102".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .attributeHandle)
        try c.integer(&valueOffset, .valueOffset)
        try c.remaining(&partAttributeValue, .partAttributeValue)
    }
}

/// ATT_PREPARE_WRITE_RSP, opcode 0x17 (Core v5.4, Vol 3, Part F, 3.4.6.2): the queued part,
/// echoed so the client can check it arrived intact (GATT's Reliable Writes compare it).
///
/// | Attribute Opcode | Attribute Handle | Value Offset | Part Attribute Value |
/// |---|---|---|---|
/// | 1 octet (0x17) | 2 octets | 2 octets, in octets | 0 to (ATT_MTU-5) octets |
public struct ATTPrepareWriteResponse: ATTPDUCodable {
    /// Answers ATT_PREPARE_WRITE_REQ.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .prepareWriteResponse, name: "Prepare Write Response", pduName: "ATT_PREPARE_WRITE_RSP",
        kind: .response, case: ATTPDU.prepareWriteResponse)

    /// Attribute Handle: as in the request.
    public var handle: UInt16
    /// Value Offset: as in the request.
    public var valueOffset: UInt16
    /// Part Attribute Value: as in the request; never interpreted.
    public var partAttributeValue: [UInt8]

    /// A response echoing `handle`, `valueOffset` and `partAttributeValue`.
    public init(handle: UInt16, valueOffset: UInt16, partAttributeValue: [UInt8]) {
        self.handle = handle
        self.valueOffset = valueOffset
        self.partAttributeValue = partAttributeValue
    }

    /// The response that echoes `request`.
    public init(echoing request: ATTPrepareWriteRequest) {
        self.init(handle: request.handle, valueOffset: request.valueOffset, partAttributeValue: request.partAttributeValue)
    }

    /// Whether this response echoes `request` exactly (handle, offset and value).
    public func echoes(_ request: ATTPrepareWriteRequest) -> Bool {
        self == ATTPrepareWriteResponse(echoing: request)
    }
}

extension ATTPrepareWriteResponse: ATTPDUBody {
    init() { self.init(handle: 0, valueOffset: 0, partAttributeValue: []) }

    /// "handle 0x0012 offset 18 value 0102".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .attributeHandle)
        try c.integer(&valueOffset, .valueOffset)
        try c.remaining(&partAttributeValue, .partAttributeValue)
    }
}
