import BLECore

/// ATT_READ_REQ, opcode 0x0A (Core v5.4, Vol 3, Part F, 3.4.4.3): read one attribute's value.
///
/// | Attribute Opcode | Attribute Handle |
/// |---|---|
/// | 1 octet (0x0A) | 2 octets |
public struct ATTReadRequest: ATTPDUCodable {
    /// Answered by ATT_READ_RSP.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .readRequest, name: "Read Request", pduName: "ATT_READ_REQ", kind: .request,
        response: .readResponse, case: ATTPDU.readRequest)

    /// Attribute Handle: the attribute to read.
    public var handle: UInt16

    /// A request to read the attribute at `handle`.
    public init(handle: UInt16) { self.handle = handle }
}

extension ATTReadRequest: ATTPDUBody {
    init() { self.init(handle: 0) }

    /// "handle 0x0003".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .attributeHandle)
    }
}

/// ATT_READ_RSP, opcode 0x0B (Core v5.4, Vol 3, Part F, 3.4.4.4): the value read.
///
/// | Attribute Opcode | Attribute Value |
/// |---|---|
/// | 1 octet (0x0B) | 0 to (ATT_MTU-1) octets |
///
/// A value longer than ATT_MTU-1 octets arrives cut to ATT_MTU-1; the rest is read with
/// ATT_READ_BLOB_REQ.
public struct ATTReadResponse: ATTPDUCodable {
    /// Answers ATT_READ_REQ.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .readResponse, name: "Read Response", pduName: "ATT_READ_RSP", kind: .response,
        case: ATTPDU.readResponse)

    /// Attribute Value: octets as transmitted, never interpreted (possibly none).
    public var value: [UInt8]

    /// A response carrying `value`.
    public init(value: [UInt8]) { self.value = value }
}

extension ATTReadResponse: ATTPDUBody {
    init() { self.init(value: []) }

    /// "value 4c696e7578"; never fails to decode.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.remaining(&value, .attributeValue)
    }
}

/// ATT_READ_BLOB_REQ, opcode 0x0C (Core v5.4, Vol 3, Part F, 3.4.4.5): read part of a long
/// attribute value from an offset.
///
/// | Attribute Opcode | Attribute Handle | Value Offset |
/// |---|---|---|
/// | 1 octet (0x0C) | 2 octets | 2 octets, in octets from the value's start |
public struct ATTReadBlobRequest: ATTPDUCodable {
    /// Answered by ATT_READ_BLOB_RSP.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .readBlobRequest, name: "Read Blob Request", pduName: "ATT_READ_BLOB_REQ", kind: .request,
        response: .readBlobResponse, case: ATTPDU.readBlobRequest)

    /// Attribute Handle: the attribute to read.
    public var handle: UInt16
    /// Value Offset: the offset of the first octet to read, from zero.
    public var valueOffset: UInt16

    /// A request to read the attribute at `handle` from `valueOffset`.
    public init(handle: UInt16, valueOffset: UInt16) {
        self.handle = handle
        self.valueOffset = valueOffset
    }
}

extension ATTReadBlobRequest: ATTPDUBody {
    init() { self.init(handle: 0, valueOffset: 0) }

    /// "handle 0x0003 offset 22".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .attributeHandle)
        try c.integer(&valueOffset, .valueOffset)
    }
}

/// ATT_READ_BLOB_RSP, opcode 0x0D (Core v5.4, Vol 3, Part F, 3.4.4.6): part of a value.
///
/// | Attribute Opcode | Part Attribute Value |
/// |---|---|
/// | 1 octet (0x0D) | 0 to (ATT_MTU-1) octets |
///
/// Empty when the request's offset equals the value's length; shorter than ATT_MTU-1 at the
/// end of the value.
public struct ATTReadBlobResponse: ATTPDUCodable {
    /// Answers ATT_READ_BLOB_REQ.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .readBlobResponse, name: "Read Blob Response", pduName: "ATT_READ_BLOB_RSP", kind: .response,
        case: ATTPDU.readBlobResponse)

    /// Part Attribute Value: octets as transmitted, never interpreted (possibly none).
    public var partAttributeValue: [UInt8]

    /// A response carrying `partAttributeValue`.
    public init(partAttributeValue: [UInt8]) { self.partAttributeValue = partAttributeValue }
}

extension ATTReadBlobResponse: ATTPDUBody {
    init() { self.init(partAttributeValue: []) }

    /// "value 1122"; never fails to decode.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.remaining(&partAttributeValue, .partAttributeValue)
    }
}
